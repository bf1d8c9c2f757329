//! `hashmate tb probe` on the real binary, with the 3- and 4-piece tables
//! vendored in the syzygy crate: the one line of values, `--moves`, and a
//! clear error and a non-zero exit for what the tables do not hold.

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
