//! EPD against python-chess, both ways (`epd_oracle.py`): lines it writes
//! (bm, am, pv, id, c0 with a `;` inside, ce, hmvc, fmvn) read here to the
//! same position, moves and texts; and our lines (written back from what
//! we read) read by python-chess to the same.

mod common;
use hashmate::{CastlingMode, Epd};

fn oracle(args: &[&str]) -> Option<String> {
    common::python_chess_oracle(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/epd_oracle.py"),
        args,
    )
}

/// What the oracle prints for a line, computed from our reading of it.
fn describe(epd: &Epd) -> String {
    let moves = |op: &str| match epd.get(op) {
        None => "-".to_string(),
        Some(_) => {
            let mut uci: Vec<String> = epd
                .moves(op)
                .unwrap_or_else(|e| panic!("{e}"))
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            // bm and am are sets; pv is a sequence.
            if op != "pv" {
                uci.sort();
            }
            uci.join(" ")
        }
    };
    let fen = epd.position().to_string();
    let fen4 = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
    [
        fen4,
        moves("bm"),
        moves("am"),
        moves("pv"),
        epd.get("id").unwrap_or("-").to_string(),
        epd.get("c0").unwrap_or("-").to_string(),
        epd.get("ce").unwrap_or("-").to_string(),
        epd.get("hmvc").unwrap_or("-").to_string(),
        epd.get("fmvn").unwrap_or("-").to_string(),
    ]
    .join("\t")
}

#[test]
fn epd_agrees_with_python_chess_both_ways() {
    let Some(out) = oracle(&["write", "300", "20261126"]) else {
        return;
    };
    let lines: Vec<&str> = out.lines().collect();
    let mut ours = String::new();
    let mut expected = Vec::new();
    for pair in lines.chunks(2) {
        let epd: Epd = pair[0]
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", pair[0]));
        assert_eq!(describe(&epd), pair[1], "{}", pair[0]);
        // Written back, read back: the same.
        let again: Epd = epd.to_string().parse().unwrap();
        assert_eq!(again, epd);
        ours += &epd.to_string();
        ours.push('\n');
        expected.push(pair[1].to_string());
    }
    assert_eq!(expected.len(), 300);
    let dir = std::env::temp_dir().join(format!("hm-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ours.epd");
    std::fs::write(&file, &ours).unwrap();
    let theirs = oracle(&["read", file.to_str().unwrap()]).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let theirs: Vec<&str> = theirs.lines().collect();
    assert_eq!(theirs, expected);
}
