//! `hashmate go` (GTP) on the real binary: ko rules as GNU Go plays them
//! (the peer agreement test is in `peers.rs`).

mod common;
use common::*;

// 5. GTP simple ko forbade the capturer to fill its own ko point.
#[test]
fn gtp_simple_ko_lets_the_capturer_fill_the_point() {
    let r = hashmate(
        &["go", "--ko", "simple"],
        "boardsize 5\nplay b B3\nplay b A2\nplay b B1\nplay w C3\nplay w D2\nplay w C1\n\
         play w B2\nplay b C2\nis_legal b B2\nis_legal w B2\nquit\n",
    );
    let answers: Vec<String> = text(&r.stdout)
        .split("\n\n")
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty())
        .collect();
    // Nine empty answers, then is_legal b B2 (1) and is_legal w B2 (0).
    assert_eq!(answers[9], "= 1", "{answers:?}");
    assert_eq!(answers[10], "= 0", "{answers:?}");
}

/// The answers of a GTP session, one per command.
fn answers(input: &str) -> Vec<String> {
    let r = hashmate(&["go"], input);
    no_panic(&r);
    text(&r.stdout)
        .split("\n\n")
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty())
        .collect()
}

#[test]
fn undo_takes_back_moves_and_passes_and_says_when_it_cannot() {
    let a = answers(
        "boardsize 3\nundo\nplay b B2\nplay w B2\nplay w pass\nundo\nundo\nundo\n\
         is_legal w B2\nplay b A1\nplay w A2\nplay w B1\ncaptures w\nundo\ncaptures w\n\
         is_legal b A1\nquit\n",
    );
    assert_eq!(a[1], "? cannot undo", "{a:?}");
    // An illegal move is not remembered: two undos take back the pass and
    // B2, the third finds nothing.
    assert_eq!(a[3], "? illegal move: point is occupied", "{a:?}");
    assert_eq!(&a[5..8], ["=", "=", "? cannot undo"], "{a:?}");
    assert_eq!(a[8], "= 1", "{a:?}");
    // White captures A1; undo puts the stone back and the count down.
    assert_eq!(a[12], "= 1", "{a:?}");
    assert_eq!(a[14], "= 0", "{a:?}");
    assert_eq!(a[15], "= 0", "{a:?}");
}

#[test]
fn undo_reaches_back_ten_thousand_moves() {
    let mut input = String::from("boardsize 5\n");
    input.push_str(&"play b pass\n".repeat(10_001));
    input.push_str(&"undo\n".repeat(10_001));
    input.push_str("quit\n");
    let a = answers(&input);
    let undos = &a[10_002..];
    assert_eq!(undos.len(), 10_002, "the undos and quit");
    assert!(
        undos[..10_000].iter().all(|u| u == "="),
        "{:?}",
        &undos[..3]
    );
    assert_eq!(undos[10_000], "? cannot undo");
}

#[test]
fn final_score_counts_area_less_komi() {
    let a = answers(
        "boardsize 5\nfinal_score\nkomi 0\nfinal_score\nplay b C3\nfinal_score\nkomi 25\n\
         final_score\nkomi 0.25\nfinal_score\nquit\n",
    );
    // The default komi, 7.5, on an empty board; then nothing; then Black's
    // stone holding the whole board.
    assert_eq!(
        &a[1..],
        [
            "= W+7.5",
            "=",
            "= 0",
            "=",
            "= B+25.0",
            "=",
            "= 0",
            "=",
            "= B+24.75",
            "="
        ],
        "{a:?}"
    );
}
