//! The win/draw/loss model: `hashmate wdl-fit` on the committed sample
//! (tests/data/sample.bin, 3,000 records of a datagen run) and
//! `UCI_ShowWDL` on the real engine.

mod common;
use common::*;

fn sample() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.bin")
}

#[test]
fn the_fit_beats_the_outcome_frequencies_on_held_out_games() {
    let r = hashmate(&["wdl-fit", "--data", sample(), "--steps", "400"], "");
    succeeded(&r);
    let out = text(&r.stdout);
    // "log-loss: fit F, held out H; outcome frequencies alone B"
    let line = out
        .lines()
        .find(|l| l.starts_with("log-loss:"))
        .unwrap_or_else(|| panic!("{out}"));
    let v: Vec<f64> = line
        .split([' ', ',', ';'])
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(v.len(), 3, "{line}");
    let (held, base) = (v[1], v[2]);
    assert!(
        held < base,
        "held-out log-loss {held} not below the frequencies' {base}"
    );
    // The engine's current model scored on the same held-out games: a
    // model fitted on the engine's own games predicts better than the
    // outcome frequencies.
    let engine = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("log-loss of the engine's current model on the held-out games: ")
        })
        .unwrap_or_else(|| panic!("{out}"));
    let engine: f64 = engine.trim().parse().unwrap_or_else(|_| panic!("{out}"));
    assert!(
        engine.is_finite() && engine > 0.0 && engine < base,
        "the engine's model: {engine}, frequencies {base}"
    );
    // A calibration table and the constant the engine compiles.
    assert!(out.contains("| predicted score | positions |"), "{out}");
    let constant = out
        .split("pub const MODEL")
        .nth(1)
        .unwrap_or_else(|| panic!("{out}"));
    let numbers = constant
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|w| w.parse::<f64>().is_ok())
        .count();
    assert_eq!(numbers, 8, "{constant}");
}

#[test]
fn bad_data_is_refused_by_name() {
    let dir = tmp("wdl-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0u8; 33]).unwrap();
    refused(
        &hashmate(&["wdl-fit", "--data", odd.to_str().unwrap()], ""),
        "not a whole number of 32-byte records",
    );
    refused(
        &hashmate(&["wdl-fit", "--data", "/no/such/data.bin"], ""),
        "/no/such/data.bin",
    );
    refused(
        &hashmate(&["wdl-fit", "--data", sample(), "--limit", "500"], ""),
        "too few positions",
    );
    refused(
        &hashmate(&["wdl-fit", "--data", sample(), "--holdout", "1"], ""),
        "--holdout",
    );
}

/// The `wdl W D L` of an info line, if it has one.
fn wdl(line: &str) -> Option<[u32; 3]> {
    let w = words(line);
    let i = w.iter().position(|&x| x == "wdl")?;
    let n: Vec<u32> = w[i + 1..i + 4].iter().map(|x| x.parse().unwrap()).collect();
    Some([n[0], n[1], n[2]])
}

#[test]
fn show_wdl_adds_estimates_that_follow_the_score() {
    let mut s = Session::after_uci();
    assert!(s
        .seen
        .contains("option name UCI_ShowWDL type check default false"));
    // Off by default: no wdl token.
    s.send("position startpos");
    s.send("go depth 5");
    s.until(30, |l| l.starts_with("bestmove"))
        .expect("bestmove");
    assert!(!s.seen.contains(" wdl "), "{}", s.seen);

    s.send("setoption name UCI_ShowWDL value true");
    let cases = [
        // fen, what the side to move can expect
        ("startpos", None),
        // KR v K, the king's side to move: lost.
        ("fen 8/8/8/8/8/2k5/8/K2R4 b - - 0 1", Some("loss")),
        // Queen up for the side to move.
        (
            "fen rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            Some("win"),
        ),
        // Mate in one.
        ("fen 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", Some("mate")),
    ];
    for (pos, expect) in cases {
        s.seen.clear();
        s.send(&format!("position {pos}"));
        s.send("go depth 6");
        s.until(30, |l| l.starts_with("bestmove"))
            .expect("bestmove");
        let infos: Vec<&str> = s.seen.lines().filter(|l| l.contains(" score ")).collect();
        assert!(!infos.is_empty());
        for l in &infos {
            let [w, d, l3] = wdl(l).unwrap_or_else(|| panic!("no wdl in {l}"));
            assert_eq!(w + d + l3, 1000, "{l}");
            // The token sits between the score and the bound or nodes.
            let ws = words(l);
            let i = ws.iter().position(|&x| x == "wdl").unwrap();
            assert!(ws[i - 3] == "score", "{l}");
        }
        let last = wdl(infos.last().unwrap()).unwrap();
        match expect {
            None => assert!(last[1] > 300, "the start is mostly drawn: {last:?}"),
            // A lone king against a rook: a known win for the rook
            // (`eval::lone_king`), so a loss all but sure, tables or not.
            Some("loss") => assert!(last[2] > 900, "{last:?}"),
            Some("win") => assert!(last[0] > 900, "{last:?}"),
            _ => assert_eq!(last, [1000, 0, 0]),
        }
    }
    assert!(s.quit(10));
}
