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
