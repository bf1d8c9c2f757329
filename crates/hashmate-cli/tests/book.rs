//! Polyglot books read, probed and played from, against implementations
//! no one here wrote:
//!
//! * Debian's gnuchess-book `book.bin` probed for every position of the
//!   library's tests/data/polyglot/book_probe.tsv gives exactly
//!   python-chess's moves and weights, in the same order; `book stats`
//!   walks it in under a second.
//! * Corrupt books give errors, never panics, on the command line and in
//!   the engine, which plays on without them.
//!
//! Tests that need GNU Chess's book or python-chess skip with a reason
//! when those are missing (CI requires them). Building books is
//! `book_make.rs`.

mod common;
use common::*;
use hashmate::book::Book;
use hashmate::Position;
use std::process::Command;

fn gnuchess_book() -> bool {
    common::peer_available(
        "GNU Chess's book (gnuchess-book)",
        std::path::Path::new(GNUCHESS_BOOK).exists(),
    )
}

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_hashmate")
}

#[test]
fn gnuchess_book_matches_python_chess() {
    if !gnuchess_book() {
        return;
    }
    let bytes = std::fs::read(GNUCHESS_BOOK).unwrap();
    let book = Book::from_bytes(&bytes).unwrap();
    assert_eq!(book.len(), 180_358);
    let tsv = common::data("polyglot/book_probe.tsv");
    let mut n = 0;
    for line in tsv.lines().filter(|l| !l.is_empty()) {
        let (fen, expected) = line.split_once('\t').unwrap();
        let pos = Position::from_fen(fen).unwrap();
        let got: Vec<String> = book
            .moves(&pos)
            .iter()
            .map(|(m, w)| format!("{m}:{w}"))
            .collect();
        assert_eq!(got.join(" "), expected, "{fen}");
        n += 1;
    }
    assert_eq!(n, 100);
}

#[test]
fn corrupt_books_are_errors() {
    if !gnuchess_book() {
        return;
    }
    let good = std::fs::read(GNUCHESS_BOOK).unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "truncated.bin",
            good[..good.len() / 2 + 7].to_vec(),
            "16-byte",
        ),
        ("odd.bin", vec![0u8; 33], "16-byte"),
        (
            "unsorted.bin",
            {
                let mut v = good[16..32].to_vec();
                v.extend_from_slice(&good[..16]);
                v
            },
            "out of key order",
        ),
        (
            "random.bin",
            {
                let mut rng = hashmate_hash::rng::SplitMix64::new(9);
                (0..4096).map(|_| rng.next_u64() as u8).collect()
            },
            "not a Polyglot book",
        ),
    ];
    for (name, bytes, needle) in cases {
        let path = tmp(name);
        std::fs::write(&path, bytes).unwrap();
        let out = Command::new(exe())
            .args(["book", "probe"])
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(needle) && !err.contains("panicked"),
            "{name}: {err}"
        );
    }
    let out = Command::new(exe())
        .args(["book", "stats", "/nonexistent/book.bin"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn engine_plays_from_the_book_and_survives_a_bad_one() {
    if !gnuchess_book() {
        return;
    }
    let bad = tmp("bad-uci.bin");
    std::fs::write(&bad, [1u8; 20]).unwrap();
    let input = format!(
        "uci\nsetoption name OwnBook value true\nsetoption name BookFile value {}\n\
         position startpos\ngo depth 2\nisready\n\
         setoption name BookFile value {GNUCHESS_BOOK}\nsetoption name BookBestMove value true\n\
         position startpos\ngo depth 2\nisready\nquit\n",
        bad.display()
    );
    let out = common::hashmate(&[], &input);
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("info string") && s.contains("16-byte"), "{s}");
    assert!(
        s.contains("info string book:"),
        "the bad book is reported at go time: {s}"
    );
    let bestmoves: Vec<&str> = s.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), 2, "{s}");
    // The heaviest book move of the start position (python-chess: e2e4 first).
    assert!(s.contains("info string book move e2e4"), "{s}");
    assert!(bestmoves[1].starts_with("bestmove e2e4"), "{s}");
}

// 1. `book stats` re-walked every transposition.
#[test]
fn book_stats_finishes_on_a_real_book() {
    if !common::peer_available(
        "GNU Chess's book",
        std::path::Path::new(GNUCHESS_BOOK).exists(),
    ) {
        return;
    }
    let out = hashmate(&["book", "stats", GNUCHESS_BOOK], "");
    let s = text(&out.stdout);
    assert!(out.status.success(), "{s}");
    assert!(
        s.contains("entries: 180358") && s.contains("deepest line:"),
        "{s}"
    );
    // Each position of the book's tree is expanded once: the reachable
    // count is at most the number of distinct positions.
    let reachable: usize = s
        .lines()
        .find_map(|l| l.strip_prefix("positions reachable from the start by book moves: "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{s}"));
    assert!(reachable > 100_000 && reachable <= 149_694, "{s}");
}
