//! The search's own tests: mates, thread data kept and reused, node
//! limits, threads.

use super::*;

pub(super) fn best(fen: &str, depth: u32) -> SearchResult {
    let pos = Position::from_fen(fen).unwrap();
    let shared = Arc::new(Shared::new(TranspositionTable::new(16).unwrap()));
    search_to(&pos, &shared, depth)
}

/// One search of `pos` to `depth` on one thread, with `shared`'s table.
fn search_to(pos: &Position, shared: &Arc<Shared<TranspositionTable>>, depth: u32) -> SearchResult {
    shared.control.begin(false);
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        ..Limits::default()
    };
    search(pos, &[], &limits, shared, 1, &mut ())
}

#[test]
fn finds_mate_in_two() {
    let r = best(
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        5,
    );
    assert_eq!(mate_in(r.score), Some(2), "score {}", r.score);
}

/// The histories and pawn table live on from one search to the next,
/// so a second search of the same position, with the transposition
/// table cleared, searches differently; after `new_game` it repeats the
/// first exactly.
#[test]
fn thread_data_persists_until_a_new_game() {
    let pos =
        Position::from_fen("r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7")
            .unwrap();
    let shared = Arc::new(Shared::new(TranspositionTable::new(4).unwrap()));
    let limits = Limits {
        depth: Some(8),
        multipv: 1,
        ..Limits::default()
    };
    // Pawn table counts are the game's so far: the second run's rate
    // exceeds the first's exactly when its own searches' rate does.
    let run = || {
        shared.control.begin(false);
        let r = search(&pos, &[], &limits, &shared, 1, &mut ());
        let (hits, probes) = shared.pawn_stats();
        (r.nodes, r.score, probes, hits)
    };
    let first = run();
    shared.tt.clear();
    let second = run();
    let ((nodes1, score1, probes1, hits1), (nodes2, score2, probes2, hits2)) = (first, second);
    // Nodes and score together: two different trees can happen to count
    // the same nodes (15,899 each at bench 635,779, scores 18 and 11).
    assert_ne!(
        (nodes1, score1),
        (nodes2, score2),
        "the second search learned nothing"
    );
    // The pawn structures met in the first search are found again.
    assert!(hits2 * probes1 > hits1 * probes2, "{first:?} {second:?}");
    shared.new_game();
    assert_eq!(run(), first);
}

/// What a thread reuses from one search to the next (the reduction
/// table, the accumulator stack, the PV buffer) changes no search: with
/// the network, without it, and with the network again, each search
/// after `new_game` repeats exactly what a fresh engine searches.
#[test]
fn reused_buffers_change_no_search() {
    let pos =
        Position::from_fen("r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7")
            .unwrap();
    let net = Arc::new(hashmate_data::net::embedded().unwrap());
    let limits = Limits {
        depth: Some(7),
        multipv: 1,
        ..Limits::default()
    };
    let run = |shared: &Arc<Shared>, net: Option<Arc<Network>>| {
        shared.set_network(net);
        shared.new_game();
        shared.control.begin(false);
        let r = search(&pos, &[], &limits, shared, 1, &mut ());
        (r.nodes, r.score, r.best, r.ponder)
    };
    let fresh = |net: Option<Arc<Network>>| {
        run(
            &Arc::new(Shared::new(TranspositionTable::new(4).unwrap())),
            net,
        )
    };
    let shared = Arc::new(Shared::new(TranspositionTable::new(4).unwrap()));
    let with_net = fresh(Some(net.clone()));
    let classical = fresh(None);
    assert_ne!(with_net, classical);
    assert_eq!(run(&shared, Some(net.clone())), with_net);
    assert_eq!(run(&shared, None), classical);
    assert_eq!(run(&shared, Some(net.clone())), with_net);
    // Another copy of the same net: a new stack, the same search.
    assert_eq!(run(&shared, Some(Arc::new((*net).clone()))), with_net);
}

/// A soft node limit ends the search at the end of the iteration that
/// passes it: at least that many nodes, a whole number of iterations,
/// far fewer nodes than a deep search.
#[test]
fn a_soft_node_limit_ends_at_an_iteration() {
    let pos = Position::startpos();
    let shared = Arc::new(Shared::new(TranspositionTable::new(4).unwrap()));
    let run = |limits: Limits| {
        shared.new_game();
        shared.control.begin(false);
        search(&pos, &[], &limits, &shared, 1, &mut ())
    };
    let soft = run(Limits {
        soft_nodes: Some(5000),
        nodes: Some(1_000_000),
        multipv: 1,
        ..Limits::default()
    });
    assert!(
        soft.nodes >= 5000 && soft.nodes < 1_000_000,
        "{}",
        soft.nodes
    );
    // The same search to the depth it completed stops at the same node.
    let fixed = run(Limits {
        depth: Some(soft.depth),
        multipv: 1,
        ..Limits::default()
    });
    assert_eq!(fixed.nodes, soft.nodes);
    assert_eq!(fixed.best, soft.best);
}

#[test]
fn takes_the_free_queen() {
    let r = best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 4);
    assert_eq!(r.best.map(|m| m.to_string()), Some("d2d5".into()));
}

#[test]
fn stalemate_and_mate_at_root() {
    let r = best("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3);
    assert_eq!((r.best, r.score), (None, 0));
    let r = best("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3);
    assert_eq!((r.best, r.score), (None, -MATE));
}

#[test]
fn several_threads_agree_on_a_mate() {
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let shared = Arc::new(Shared::new(TranspositionTable::new(8).unwrap()));
    shared.control.begin(false);
    let limits = Limits {
        depth: Some(6),
        multipv: 1,
        ..Limits::default()
    };
    let r = search(&pos, &[], &limits, &shared, 3, &mut ());
    assert_eq!(r.best.map(|m| m.to_string()), Some("d1d8".into()));
    assert_eq!(mate_in(r.score), Some(1));
}

/// Helpers are started by the first search that needs them, parked
/// (the same threads) for the next, ended when fewer are asked for,
/// and let go of the shared state when the search returns (so that the
/// engine can resize the table between searches).
#[test]
fn helpers_persist_between_searches() {
    let pos = Position::startpos();
    let shared = Arc::new(Shared::new(TranspositionTable::new(4).unwrap()));
    let limits = Limits {
        depth: Some(5),
        multipv: 1,
        ..Limits::default()
    };
    let helper_ids = || {
        let pool = shared.pool.lock().unwrap();
        pool.helpers
            .iter()
            .map(|h| format!("{:?}", h.thread))
            .collect::<Vec<_>>()
    };
    let mut seen = Vec::new();
    for threads in [3, 3, 3, 1, 2] {
        shared.control.begin(false);
        let r = search(&pos, &[], &limits, &shared, threads, &mut ());
        assert!(r.best.is_some());
        assert_eq!(
            Arc::strong_count(&shared),
            1,
            "a helper still holds the state"
        );
        let ids = helper_ids();
        assert_eq!(ids.len(), threads - 1);
        assert!(shared
            .pool
            .lock()
            .unwrap()
            .helpers
            .iter()
            .all(|h| h.thread.is_idle()));
        seen.push(ids);
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[1], seen[2]);
}

/// A position repeats though its Polyglot key names an en-passant file
/// that a pin makes useless (FIDE's article 9.2): after ...d5 the e5 pawn
/// may not take, its king on the fifth rank behind it. The kings step out
/// and back, and the move that brings the position back is a draw by
/// repetition for the side a queen behind. Given Polyglot keys instead of
/// repetition keys, the search sees no repetition and counts the queen.
#[test]
fn a_pinned_en_passant_does_not_hide_a_repetition() {
    let mut game =
        hashmate::Game::new(Position::from_fen("7k/3p4/8/K3P2r/8/8/1R6/1Q6 b - - 0 1").unwrap());
    for uci in ["d7d5", "a5a4", "h8g8", "a4a5"] {
        game.play_uci(uci).unwrap();
    }
    let pos = game.position().clone();
    let limits = Limits {
        depth: Some(6),
        multipv: 1,
        searchmoves: vec![pos.parse_uci("g8h8").unwrap()],
        ..Limits::default()
    };
    let shared = Arc::new(Shared::new(TranspositionTable::new(4).unwrap()));
    let score = |keys: &[u64]| {
        shared.new_game();
        shared.tt.clear();
        shared.control.begin(false);
        search(&pos, keys, &limits, &shared, 1, &mut ()).score
    };
    let keys: Vec<u64> = game.repetition_keys().collect();
    assert_eq!(score(&keys), 0);
    let polyglot = score(game.keys());
    assert!(polyglot < -300, "the queen is counted: {polyglot}");
}

/// A line one move long still names the reply the table holds, so a GUI
/// can ponder after it too: a depth-1 search, whose line ends after the
/// root move, after a deeper one has filled the table.
#[test]
fn a_one_move_line_takes_its_reply_from_the_table() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/8/4k3/8/2KP4/8/8/8 b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let shared = Arc::new(Shared::new(TranspositionTable::new(16).unwrap()));
        let deep = search_to(&pos, &shared, 8);
        let shallow = search_to(&pos, &shared, 1);
        let best = shallow.best.unwrap();
        let mut after = pos.clone();
        after.play_unchecked(best);
        let reply = shallow
            .ponder
            .unwrap_or_else(|| panic!("{fen}: no ponder move after {best:?}"));
        assert!(after.is_legal(reply), "{fen}: {reply:?}");
        if Some(best) == deep.best {
            assert_eq!(shallow.ponder, deep.ponder, "{fen}");
        }
    }
}

/// A table entry stored without a static evaluation (a tablebase result,
/// which a node with a non-zero fifty-move counter finds again without
/// probing the tablebase) makes the node evaluate the position itself:
/// the search with such an entry planted at the root is the search
/// without it, not one that takes the root for lost.
#[test]
fn an_entry_without_an_evaluation_is_evaluated_afresh() {
    use hashmate::tt::TtEntry;
    let fen = "8/5k2/8/3K4/8/4R3/2P5/8 w - - 3 60";
    let pos = Position::from_fen(fen).unwrap();
    let fresh = best(fen, 7);
    let shared = Arc::new(Shared::new(TranspositionTable::new(16).unwrap()));
    // What a tablebase probe leaves: no move, no evaluation (`NO_EVAL`
    // as stored), a bound that decides nothing at the root.
    let planted = TtEntry {
        mv: Move::NULL,
        score: 1_000,
        eval: -MATE as i16,
        depth: 0,
        bound: Bound::Upper,
        pv: false,
    };
    shared.tt.store(pos.key(), planted);
    assert_eq!(shared.tt.probe(pos.key()), Some(planted));
    let after = search_to(&pos, &shared, 7);
    assert_eq!(
        (after.best, after.score, after.nodes),
        (fresh.best, fresh.score, fresh.nodes)
    );
}
