//! Syzygy tablebases on the real binary, with the 3- and 4-piece tables
//! vendored in the syzygy crate: `hashmate tb probe` (the one line of
//! values, `--moves`, a clear error and a non-zero exit for what the
//! tables do not hold) and the engine's `SyzygyPath` (bad directories and
//! files named, `tbhits`, and no won or drawn endgame given away).

mod common;
use common::*;

fn tables() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hashmate-syzygy/tests/data/syzygy"
    )
    .to_string()
}

fn probe(fen: &str, more: &[&str]) -> std::process::Output {
    let path = tables();
    let mut args = vec!["tb", "probe", "--path", path.as_str(), "--fen", fen];
    args.extend(more);
    hashmate(&args, "")
}

#[test]
fn probe_prints_wdl_and_dtz() {
    // KR v K, White to move: a win; the same with Black to move: a loss.
    let r = probe("8/8/4k3/8/8/8/8/R3K3 w - - 0 1", &[]);
    succeeded(&r);
    assert_eq!(text(&r.stdout), "wdl 2 dtz 27\n");
    let r = probe("8/8/4k3/8/8/8/8/R3K3 b - - 0 1", &[]);
    assert!(
        text(&r.stdout).starts_with("wdl -2 dtz -"),
        "{}",
        text(&r.stdout)
    );
    // KNvK: a draw.
    let r = probe("8/8/4k3/8/8/8/8/N3K3 w - - 0 1", &[]);
    assert_eq!(text(&r.stdout), "wdl 0 dtz 0\n");
}

#[test]
fn moves_lists_every_legal_move_with_the_values_after_it() {
    let fen = "8/8/4k3/8/8/8/8/R3K3 w - - 0 1";
    let r = probe(fen, &["--moves"]);
    succeeded(&r);
    let out = text(&r.stdout);
    let lines: Vec<&str> = out.lines().collect();
    let pos: hashmate::Position = fen.parse().unwrap();
    assert_eq!(lines.len(), 1 + pos.legal_moves().len(), "{out}");
    // After the winning side's move the other side is to move: it loses,
    // except where a move hangs the rook (a draw).
    assert!(
        lines[1..]
            .iter()
            .all(|l| l.contains(" wdl -2 ") || l.contains(" wdl 0 ")),
        "{out}"
    );
    assert!(
        lines[1..]
            .iter()
            .any(|l| l.starts_with("a1a2 wdl -2 dtz -")),
        "{out}"
    );
}

#[test]
fn what_the_tables_do_not_hold_is_an_error() {
    refused(
        &probe("4k3/8/8/8/8/8/8/RQ2K2Q w - - 0 1", &[]),
        "5 pieces: the tables hold at most 4",
    );
    refused(&probe("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", &[]), "castling");
    refused(&probe("not a fen", &[]), "bad FEN");
    let r = hashmate(
        &[
            "tb",
            "probe",
            "--path",
            "/no/such/dir",
            "--fen",
            "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",
        ],
        "",
    );
    refused(&r, "/no/such/dir");
    let empty = tmp("tb-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let r = hashmate(
        &[
            "tb",
            "probe",
            "--path",
            empty.to_str().unwrap(),
            "--fen",
            "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",
        ],
        "",
    );
    refused(&r, "no table");
}

/// Piece placements for the engine tests: a small xorshift generator, so
/// that the positions are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Legal positions of `material` (white pieces, `v`, black pieces), the
/// side to move alternating, none in check for the side not to move.
fn positions(material: &str, n: usize, rng: &mut Rng) -> Vec<hashmate::Position> {
    use hashmate::{builder::PositionBuilder, Color, Piece, Square};
    let (w, b) = material.split_once('v').unwrap();
    let pieces: Vec<Piece> = w
        .chars()
        .chain(b.chars().map(|c| c.to_ascii_lowercase()))
        .map(|c| Piece::from_char(c).unwrap())
        .collect();
    let mut out = Vec::new();
    while out.len() < n {
        let mut setup = PositionBuilder::new();
        for &piece in &pieces {
            let sq = Square::new((rng.next() % 64) as u8).unwrap();
            // A clash is undone (and the count below rejects the setup);
            // a pawn on a back rank makes it invalid.
            let there = setup.piece_at(sq).is_some();
            setup.piece(sq, (!there).then_some(piece));
        }
        let side = if out.len() % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Ok(pos) = setup.side_to_move(side).build() {
            if pos.occupied().count() as usize == pieces.len() && !pos.legal_moves().is_empty() {
                out.push(pos);
            }
        }
    }
    out
}

/// A WDL value as the game's rules score it: a cursed win or a blessed
/// loss is a draw.
fn outcome(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        -2 => -1,
        _ => 0,
    }
}

fn engine_with_tables(path: &str) -> Session {
    let mut s = Session::after_uci();
    s.send(&format!("setoption name SyzygyPath value {path}"));
    s.send("isready");
    s.until(10, |l| l == "readyok").expect("readyok");
    s
}

#[test]
fn the_engine_never_gives_away_a_tablebase_result() {
    // Endgames where a short search often errs: pawn races, rook against
    // pawn, knight or bishop; each position searched 1,000 nodes, its
    // move checked against the tables (without them, 2 of the 108 moves
    // give the result away).
    let tables_path = tables();
    let mut tb = hashmate_syzygy::Tablebase::new();
    tb.add_directory(&tables_path).unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut all = Vec::new();
    for material in [
        "KPvK", "KPvKP", "KRvKP", "KQvKP", "KRvKB", "KRvKN", "KBPvK", "KPPvK", "KQvKR",
    ] {
        all.extend(positions(material, 12, &mut rng));
    }
    let mut s = engine_with_tables(&tables_path);
    let (mut wins, mut draws, mut hits) = (0, 0, 0u64);
    let mut wrong = Vec::new();
    for pos in &all {
        let root = outcome(tb.wdl(pos).unwrap().to_i32());
        wins += usize::from(root == 1);
        draws += usize::from(root == 0);
        s.send(&format!("position fen {}", pos.fen()));
        s.send("go nodes 1000");
        let line = s
            .until(30, |l| l.starts_with("bestmove "))
            .expect("bestmove");
        hits += s
            .seen
            .lines()
            .rev()
            .find(|l| l.contains(" tbhits "))
            .and_then(|l| {
                let w = words(l);
                let i = w.iter().position(|&x| x == "tbhits")?;
                w[i + 1].parse::<u64>().ok()
            })
            .unwrap_or(0);
        let mv = pos.parse_uci(words(&line)[1]).unwrap();
        let mut child = pos.clone();
        child.try_play(mv).unwrap();
        let after = match tb.wdl(&child) {
            Ok(w) => -outcome(w.to_i32()),
            // Mate or stalemate ends the game: no table holds it.
            Err(_) if child.legal_moves().is_empty() => {
                if child.is_check() {
                    1
                } else {
                    0
                }
            }
            Err(e) => panic!("{}: {e}", child.fen()),
        };
        if after != root {
            wrong.push(format!(
                "{} {} ({root} -> {after})",
                pos.fen(),
                words(&line)[1]
            ));
        }
    }
    assert!(s.quit(10));
    // The sample holds both kinds of result worth keeping.
    assert!(wins >= 20 && draws >= 10, "{wins} wins, {draws} draws");
    assert!(
        wrong.is_empty(),
        "{} of {} moves give the result away:\n{}",
        wrong.len(),
        all.len(),
        wrong.join("\n")
    );
    assert!(hits > 0, "no tbhits reported");
}

#[test]
fn bad_syzygy_paths_and_files_are_named_and_the_engine_plays_on() {
    // A copy of two tables, one of them cut short, one misnamed, beside a
    // missing directory.
    let dir = tmp("tb-engine-bad");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = std::path::PathBuf::from(tables());
    std::fs::copy(src.join("KRvK.rtbw"), dir.join("KRvK.rtbw")).unwrap();
    let bytes = std::fs::read(src.join("KQvK.rtbw")).unwrap();
    std::fs::write(dir.join("KQvK.rtbw"), &bytes[..bytes.len() - 64]).unwrap();
    std::fs::write(dir.join("KXvK.rtbw"), &bytes).unwrap();
    let path = format!("/no/such/tables:{}", dir.display());
    let mut s = engine_with_tables(&path);
    let said = s.seen.clone();
    assert!(
        said.contains("info string SyzygyPath: cannot read the directory '/no/such/tables'"),
        "{said}"
    );
    assert!(
        said.contains("KQvK.rtbw' is not a usable Syzygy table"),
        "{said}"
    );
    assert!(said.contains("KXvK.rtbw"), "{said}");
    assert!(
        said.contains("SyzygyPath: 1 table files, up to 3 pieces"),
        "{said}"
    );
    // The one good table is used: KR v K is probed; KQ v K plays on
    // without its table.
    for fen in [
        "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",
        "8/8/4k3/8/8/8/8/Q3K3 w - - 0 1",
    ] {
        s.send(&format!("position fen {fen}"));
        s.send("go depth 6");
        s.until(30, |l| l.starts_with("bestmove "))
            .expect("bestmove");
    }
    // Nothing usable: said so, and the engine plays without tables.
    s.send("setoption name SyzygyPath value /no/such/tables");
    s.send("isready");
    s.until(10, |l| l == "readyok").expect("readyok");
    assert!(s.seen.contains("no usable WDL tables"), "{}", s.seen);
    s.send("position startpos");
    s.send("go depth 4");
    s.until(30, |l| l.starts_with("bestmove "))
        .expect("bestmove");
    assert!(!s.seen.contains("panicked"), "{}", s.seen);
    assert!(s.quit(10));
}

#[test]
fn after_a_repetition_the_engine_takes_the_quickest_win() {
    // KR v K, the rook shuffled a1-a2-a1, so the start position repeated,
    // then Rb1 Ke5: the root itself is new. From a repetition on, every
    // move must shorten the way to the next capture or pawn move (here:
    // mate) as much as the tables allow, so that the defender cannot reach
    // a threefold repetition. (Checking the root alone for a repetition,
    // as before, let the engine play Rb7, two plies slower.)
    let tables_path = tables();
    let mut tb = hashmate_syzygy::Tablebase::new();
    tb.add_directory(&tables_path).unwrap();
    let start = "8/8/4k3/8/8/8/8/R3K3 w - - 0 1";
    let mut pos = hashmate::Position::from_fen(start).unwrap();
    for m in ["a1a2", "e6e5", "a2a1", "e5e6", "a1b1", "e6e5"] {
        let mv = pos.parse_uci(m).unwrap();
        pos.try_play(mv).unwrap();
    }
    // The child DTZ of each move, for the defender (negative: lost).
    let child_dtz = |mv| {
        let mut c = pos.clone();
        c.try_play(mv).unwrap();
        tb.dtz(&c).unwrap()
    };
    let quickest = pos
        .legal_moves()
        .iter()
        .map(|&m| child_dtz(m))
        .filter(|&d| d < 0)
        .max()
        .unwrap();
    let mut s = engine_with_tables(&tables_path);
    s.send(&format!(
        "position fen {start} moves a1a2 e6e5 a2a1 e5e6 a1b1 e6e5"
    ));
    s.send("go nodes 20000");
    let line = s
        .until(30, |l| l.starts_with("bestmove "))
        .expect("bestmove");
    let mv = pos.parse_uci(words(&line)[1]).unwrap();
    assert_eq!(child_dtz(mv), quickest, "{line}: not a quickest win");
    assert!(s.quit(10));
}

#[test]
fn a_lost_root_keeps_the_repetition_that_draws() {
    // KR v K with the fifty-move counter at 64 at the root: Black is lost,
    // but Kh8 repeats a position for the third time, a draw by rule. Ranked
    // by the tables alone, Kh8 (mate in 12 plies) ranks below Kf6 (20
    // plies: one that the fifty-move rule might still save), and was
    // dropped before the search could see the repetition; a move the rules
    // draw at once ranks as a draw, as in Stockfish's root ranking.
    let tables_path = tables();
    let mut tb = hashmate_syzygy::Tablebase::new();
    tb.add_directory(&tables_path).unwrap();
    let start = "7k/8/8/8/3KR3/8/8/8 w - - 57 2";
    let line = ["e4e1", "h8g7", "e1e4", "g7h8", "e4e1", "h8g7", "e1e4"];
    let mut pos = hashmate::Position::from_fen(start).unwrap();
    for m in line {
        let mv = pos.parse_uci(m).unwrap();
        pos.try_play(mv).unwrap();
    }
    assert_eq!(pos.halfmove_clock(), 64);
    // The premise: every move loses by the tables, Kh8 the quickest.
    let child_dtz = |m: &str| {
        let mut c = pos.clone();
        c.try_play(pos.parse_uci(m).unwrap()).unwrap();
        tb.dtz(&c).unwrap()
    };
    let dtz: Vec<i32> = pos
        .legal_moves()
        .iter()
        .map(|m| child_dtz(&m.to_string()))
        .collect();
    assert!(dtz.iter().all(|&d| d > 0), "{dtz:?}");
    assert!(dtz.iter().all(|&d| d >= child_dtz("g7h8")), "{dtz:?}");
    assert!(dtz.iter().any(|&d| d > child_dtz("g7h8")), "{dtz:?}");
    let mut s = engine_with_tables(&tables_path);
    s.send(&format!("position fen {start} moves {}", line.join(" ")));
    s.send("go nodes 20000");
    let out = s
        .until(30, |l| l.starts_with("bestmove "))
        .expect("bestmove");
    assert_eq!(words(&out)[1], "g7h8", "{}", s.seen);
    assert!(s.quit(10));
}

/// The rules' verdict on `child`, reached from the root by a move that
/// does not zero the counter, given the game's repetition keys (the root's
/// last): a third occurrence, or the hundredth ply without mate, draws.
fn drawn_by_rule(keys: &[u64], child: &hashmate::Position) -> bool {
    let seen = keys
        .iter()
        .filter(|&&k| k == child.repetition_key())
        .count();
    seen >= 2
        || (child.halfmove_clock() >= 100 && !(child.is_check() && child.legal_moves().is_empty()))
}

#[test]
fn the_root_ranking_keeps_only_the_best_result_after_any_history() {
    // Random 3- and 4-piece roots, each reached by a walk of up to 16
    // reversible moves that often undoes its side's last move (so that
    // positions repeat), from a fifty-move counter of 0 to 70. Every move
    // the root ranking keeps must reach the best result the rules and the
    // tables allow among all moves: a draw by repetition or by the
    // fifty-move rule counts as a draw, a cursed win or blessed loss too.
    // Roots where a move's distance to zeroing and the counter together
    // come near 100 plies are skipped (there the fifty-move rule, not
    // the tables, decides).
    use hashmate_engine::search::tablebase::root_moves;
    use hashmate_engine::search::TbConfig;
    let tables_path = tables();
    let mut tb = hashmate_syzygy::Tablebase::new();
    tb.add_directory(&tables_path).unwrap();
    let tb = std::sync::Arc::new(tb);
    let cfg = TbConfig {
        tables: tb.clone(),
        probe_depth: 1,
        probe_limit: 7,
        rule50: true,
    };
    let mut rng = Rng(0x5EED_2026_1206);
    let (mut checked, mut repeats) = (0, 0);
    for material in ["KRvK", "KQvKR", "KRvKN", "KPvK", "KBNvK", "KRvKR", "KNvKP"] {
        for start in positions(material, 60, &mut rng) {
            let clock = rng.next() % 71;
            let fen = start.fen();
            let mut fields: Vec<&str> = fen.split(' ').collect();
            let clock_text = clock.to_string();
            fields[4] = &clock_text;
            let Ok(mut pos) = hashmate::Position::from_fen(&fields.join(" ")) else {
                continue;
            };
            let mut keys = vec![pos.repetition_key()];
            let mut last: [Option<hashmate::Move>; 2] = [None, None];
            for _ in 0..rng.next() % 17 {
                let reversible: Vec<_> = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| {
                        !pos.is_capture(m) && pos.role_at(m.from()) != Some(hashmate::Role::Pawn)
                    })
                    .collect();
                if reversible.is_empty() {
                    break;
                }
                let side = pos.side_to_move() as usize;
                let undo = last[side]
                    .map(|m| hashmate::Move::new(m.to(), m.from(), None))
                    .filter(|u| reversible.contains(u));
                let mv = match undo {
                    Some(u) if !rng.next().is_multiple_of(3) => u,
                    _ => reversible[(rng.next() % reversible.len() as u64) as usize],
                };
                last[side] = Some(mv);
                pos.play_unchecked(mv);
                keys.push(pos.repetition_key());
            }
            let moves = pos.legal_moves();
            if moves.is_empty() || tb.wdl(&pos).is_err() {
                continue;
            }
            // Each move's result for the side to move: 1 win, 0 draw, −1
            // loss; `None` where the fifty-move rule comes too near.
            let result = |mv: hashmate::Move| -> Option<i32> {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                if child.halfmove_clock() > 0 && drawn_by_rule(&keys, &child) {
                    return Some(0);
                }
                let wdl = -tb.wdl(&child).unwrap().to_i32();
                if wdl != 0 && child.halfmove_clock() > 0 {
                    let dtz = tb.dtz(&child).unwrap().unsigned_abs();
                    if dtz + child.halfmove_clock() >= 90 {
                        return None;
                    }
                }
                Some(outcome(wdl))
            };
            let Some(results) = moves
                .iter()
                .map(|&m| result(m).map(|r| (m, r)))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let best = results.iter().map(|&(_, r)| r).max().unwrap();
            let kept = root_moves(&cfg, &pos, &keys).expect("the root is in the tables");
            assert!(!kept.is_empty(), "{pos}");
            for mv in &kept {
                let r = results.iter().find(|(m, _)| m == mv).unwrap().1;
                assert_eq!(
                    r,
                    best,
                    "{pos} after {} plies: {mv} kept of {kept:?}",
                    keys.len() - 1
                );
            }
            checked += 1;
            if results.iter().any(|&(m, _)| {
                let mut c = pos.clone();
                c.play_unchecked(m);
                c.halfmove_clock() > 0 && drawn_by_rule(&keys, &c)
            }) {
                repeats += 1;
            }
        }
    }
    assert!(
        checked > 250 && repeats > 20,
        "{checked} roots, {repeats} with a drawing repetition"
    );
}
