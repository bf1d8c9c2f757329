//! Limited strength (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`) as a
//! GUI uses it:
//! the options listed and checked, a weaker level that varies its moves
//! but never passes over a mate in one or a recapture, and its node
//! budget kept. Its calibration against Stockfish is a match, in
//! docs/STRENGTH.md ("Limited strength"), not a test.

mod common;
use common::*;
use hashmate_engine::strength::{skill_elo, Strength, ELO_MAX, ELO_MIN, SKILL_MAX};

/// A session at `UCI_Elo` `elo` with limited strength on.
fn limited(elo: i32) -> Session {
    let mut s = Session::after_uci();
    s.send("setoption name UCI_LimitStrength value true");
    s.send(&format!("setoption name UCI_Elo value {elo}"));
    s
}

/// The move played after `position`, with a generous clock (the node
/// budget ends the search).
fn best(s: &mut Session, position: &str) -> String {
    s.send(position);
    s.send("go wtime 60000 btime 60000");
    let line = s
        .until(30, |l| l.starts_with("bestmove "))
        .expect("bestmove");
    line.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn the_options_are_listed_and_checked() {
    let mut s = Session::after_uci();
    let elo = format!("UCI_Elo type spin default {ELO_MIN} min {ELO_MIN} max {ELO_MAX}");
    let skill = format!("Skill Level type spin default {SKILL_MAX} min 0 max {SKILL_MAX}");
    for listed in ["UCI_LimitStrength type check default false", &elo, &skill] {
        assert!(
            s.seen.contains(&format!("option name {listed}")),
            "{}",
            s.seen
        );
    }
    s.send("setoption name UCI_Elo value 1000");
    let said = s
        .until(10, |l| l.starts_with("info string"))
        .expect("a message");
    assert!(
        said.contains("UCI_Elo") && said.contains(&ELO_MIN.to_string()),
        "{said}"
    );
    s.send("setoption name Skill Level value 21");
    let said = s
        .until(10, |l| {
            l.starts_with("info string") && l.contains("Skill Level")
        })
        .expect("a message");
    assert!(said.contains("from 0 to 20"), "{said}");
    assert!(s.quit(10));
}

#[test]
fn the_weakest_level_mates_in_one_and_recaptures_every_time() {
    let mut s = limited(ELO_MIN);
    // A back-rank mate; and after 1.e4 e5 2.Nf3 Nc6 3.d4 exd4 4.Nxd4 Nxd4,
    // the knight taken back.
    let cases = [
        ("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8"),
        (
            "position startpos moves e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 c6d4",
            "d1d4",
        ),
    ];
    for round in 0..15 {
        for (position, want) in cases {
            s.send("ucinewgame");
            assert_eq!(best(&mut s, position), want, "round {round}: {position}");
        }
    }
    assert!(s.quit(10));
}

#[test]
fn a_weaker_level_varies_its_moves_and_full_strength_does_not() {
    let opening = "position startpos moves e2e4 e7e5 g1f3 b8c6";
    let mut weak = limited(ELO_MIN);
    let mut full = limited(ELO_MAX);
    let (mut weak_moves, mut full_moves) = (Vec::new(), Vec::new());
    for _ in 0..12 {
        weak.send("ucinewgame");
        weak_moves.push(best(&mut weak, opening));
        full.send("ucinewgame");
        full.send(opening);
        full.send("go depth 6");
        let line = full.until(30, |l| l.starts_with("bestmove ")).unwrap();
        full_moves.push(line.split_whitespace().nth(1).unwrap().to_string());
    }
    weak_moves.sort();
    weak_moves.dedup();
    full_moves.dedup();
    assert!(weak_moves.len() > 1, "always {weak_moves:?}");
    assert_eq!(full_moves.len(), 1, "{full_moves:?}");
}

#[test]
fn a_level_searches_within_its_node_budget() {
    // Three `UCI_Elo` levels, and two `Skill Level`s, which name levels
    // of the same ladder while `UCI_LimitStrength` is off.
    let sessions = [ELO_MIN, 2000, 2500]
        .map(|elo| (format!("UCI_Elo {elo}"), elo, limited(elo)))
        .into_iter()
        .chain([0, 8].map(|level| {
            let mut s = Session::after_uci();
            s.send(&format!("setoption name Skill Level value {level}"));
            (format!("Skill Level {level}"), skill_elo(level), s)
        }));
    for (name, elo, mut s) in sessions {
        let budget = Strength::new(elo).unwrap().nodes();
        best(&mut s, "position startpos moves d2d4 g8f6 c2c4 e7e6");
        let most = s
            .seen
            .lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let i = w.iter().position(|&t| t == "nodes")?;
                w.get(i + 1)?.parse::<u64>().ok()
            })
            .max()
            .expect("info lines with nodes");
        // The first iteration always completes (a few hundred nodes with
        // its four lines); after it the budget holds, to within the
        // interval at which the count is checked.
        assert!(
            most <= budget.max(1_000) + budget / 1024 + 1,
            "{name}: {most} nodes for a budget of {budget}"
        );
        assert!(s.quit(10));
    }
}
