//! Bad table files and bad positions: every one an error that names the
//! problem (and the file), never a panic, a hang or a wrong answer; and
//! probes from many threads at once agree with one thread's.

use hashmate::Position;
use hashmate_syzygy::{ProbeError, Tablebase, Wdl};
use std::path::{Path, PathBuf};

fn vendored() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

fn scratch(name: &str) -> PathBuf {
    hashmate_test_support::fresh_dir(
        env!("CARGO_TARGET_TMPDIR"),
        &format!("hashmate-syzygy-{name}"),
    )
}

fn copy(from: &str, dir: &Path, to: &str) -> PathBuf {
    let p = dir.join(to);
    std::fs::copy(vendored().join(from), &p).unwrap();
    p
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

const KRVK: &str = "8/8/4k3/8/8/8/8/R3K3 w - - 0 1";

#[test]
fn known_values() {
    let mut tb = Tablebase::new();
    let added = tb.add_directory(vendored()).unwrap();
    assert_eq!((added.tables, added.refused.len()), (70, 0));
    assert_eq!(tb.max_pieces(), 4);
    assert_eq!(tb.wdl(&pos(KRVK)).unwrap(), Wdl::Win);
    // The loser's view, and bare kings.
    assert_eq!(
        tb.wdl(&pos("8/8/4k3/8/8/8/8/R3K3 b - - 0 1")).unwrap(),
        Wdl::Loss
    );
    assert_eq!(
        tb.wdl(&pos("8/8/4k3/8/8/8/8/4K3 w - - 0 1")).unwrap(),
        Wdl::Draw
    );
    // Mate on the board: a loss for the side to move, zero plies to go.
    let mated = pos("R3k3/8/4K3/8/8/8/8/8 b - - 0 1");
    assert_eq!(tb.wdl(&mated).unwrap(), Wdl::Loss);
    assert_eq!(tb.dtz(&mated).unwrap(), -1);
}

#[test]
fn positions_the_tables_do_not_hold_are_errors() {
    let mut tb = Tablebase::new();
    tb.add_directory(vendored()).unwrap();
    let castling = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(matches!(tb.wdl(&castling), Err(ProbeError::Castling)));
    let five = pos("4k3/8/8/8/8/8/8/RQ2K2Q w - - 0 1");
    match tb.wdl(&five) {
        Err(ProbeError::MissingTable(name)) => assert_eq!(name, "KQQRvK.rtbw"),
        other => panic!("{other:?}"),
    }
    let crowd = pos(Position::startpos()
        .to_string()
        .replace("KQkq", "-")
        .as_str());
    assert!(matches!(tb.wdl(&crowd), Err(ProbeError::TooManyPieces(32))));
    // No directory at all, or a file in its place.
    assert!(Tablebase::new()
        .add_directory(vendored().join("none"))
        .is_err());
    assert!(Tablebase::new()
        .add_directory(vendored().join("KRvK.rtbw"))
        .is_err());
}

#[test]
fn damaged_files_are_refused_by_name() {
    let dir = scratch("bad");
    // Truncated: the length is no longer a Syzygy file's.
    let p = copy("KRvK.rtbw", &dir, "KRvK.rtbw");
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() - 10]).unwrap();
    // Another kind's magic, and a misnamed file.
    copy("KQvK.rtbz", &dir, "KQvK.rtbw");
    copy("KPvK.rtbw", &dir, "KPKvK.rtbw");
    let mut tb = Tablebase::new();
    let added = tb.add_directory(&dir).unwrap();
    let why: Vec<String> = added.refused.iter().map(|e| e.to_string()).collect();
    assert_eq!(why.len(), 3, "{why:?}");
    assert!(
        why.iter()
            .any(|w| w.contains("KRvK.rtbw") && w.contains("truncated")),
        "{why:?}"
    );
    assert!(
        why.iter()
            .any(|w| w.contains("KQvK.rtbw") && w.contains("first bytes")),
        "{why:?}"
    );
    assert!(
        why.iter()
            .any(|w| w.contains("KPKvK.rtbw") && w.contains("name")),
        "{why:?}"
    );
    assert_eq!(added.tables, 0);
    // A table holding another material than its name says: refused when
    // opened, by name, and no probe reads it.
    let dir = scratch("foreign");
    copy("KRvK.rtbw", &dir, "KQvK.rtbw");
    let mut tb = Tablebase::new();
    assert!(tb.add_directory(&dir).unwrap().refused.is_empty());
    let e = tb
        .wdl(&pos("8/8/4k3/8/8/8/8/Q3K3 w - - 0 1"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("KQvK.rtbw") && e.contains("not those of its name"),
        "{e}"
    );
    let bad = tb.open_all();
    assert_eq!(bad.len(), 1);
    assert_eq!(tb.max_pieces(), 0);
}

/// Random bytes behind a valid magic number and length, or any byte of a
/// real file changed: errors or (for a changed weight of the code) some
/// value, but never a panic, a hang or a read outside the file.
#[test]
fn corrupted_contents_never_panic() {
    let dir = scratch("noise");
    let real = std::fs::read(vendored().join("KRvKB.rtbw")).unwrap();
    let probes = [
        "8/8/4k3/2b5/8/8/8/R3K3 w - - 0 1",
        "8/8/4k3/2b5/8/8/8/R3K3 b - - 0 1",
        "8/1b6/4k3/8/8/8/3R4/4K3 w - - 0 1",
    ];
    let mut seed = 1u64;
    for round in 0..300 {
        let mut bytes = real.clone();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if round < 100 {
            // Noise after the magic number.
            for (i, b) in bytes.iter_mut().enumerate().skip(4) {
                *b = (seed.wrapping_add(i as u64).wrapping_mul(0x9e37_79b9) >> 24) as u8;
            }
        } else {
            let at = 4 + (seed >> 33) as usize % (bytes.len() - 4);
            bytes[at] ^= 1 << ((seed >> 20) % 8);
        }
        let path = dir.join("KRvKB.rtbw");
        std::fs::write(&path, &bytes).unwrap();
        let mut tb = Tablebase::new();
        tb.add_directory(&dir).unwrap();
        for fen in probes {
            match tb.wdl(&pos(fen)) {
                Ok(_) => {}
                Err(e) => assert!(e.to_string().contains("KRvKB.rtbw"), "{e}"),
            }
        }
    }
}

/// A file that changes under an open table (truncated, here) makes probes
/// errors, not crashes.
#[test]
fn a_table_changed_while_open_is_an_error() {
    let dir = scratch("changed");
    let p = copy("KQvKR.rtbw", &dir, "KQvKR.rtbw");
    // The tables its captures lead to.
    copy("KQvK.rtbw", &dir, "KQvK.rtbw");
    copy("KRvK.rtbw", &dir, "KRvK.rtbw");
    let mut tb = Tablebase::new();
    tb.add_directory(&dir).unwrap();
    let fens: Vec<String> = (0..64)
        .filter(|&sq| ![4, 60, 3].contains(&sq))
        .map(|sq| {
            let mut board = ['.'; 64];
            board[4] = 'K';
            board[60] = 'k';
            board[3] = 'Q';
            board[sq] = 'r';
            let rows: Vec<String> = (0..8)
                .rev()
                .map(|r| board[r * 8..r * 8 + 8].iter().collect())
                .collect();
            let fen = rows.join("/").replace("........", "8");
            let mut s = String::new();
            let mut run = 0;
            for c in fen.chars() {
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        s += &run.to_string();
                        run = 0;
                    }
                    s.push(c);
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            format!("{s} w - - 0 1")
        })
        .collect();
    let legal: Vec<Position> = fens.iter().filter_map(|f| f.parse().ok()).collect();
    assert!(legal.len() > 40);
    assert!(tb.wdl(&legal[0]).is_ok());
    std::fs::write(&p, b"").unwrap();
    for pos in &legal {
        if let Err(e) = tb.wdl(pos) {
            assert!(e.to_string().contains("KQvKR.rtbw"), "{e}");
        }
    }
}

#[test]
fn probes_from_many_threads_agree_with_one() {
    let mut tb = Tablebase::new();
    tb.add_directory(vendored()).unwrap();
    let fens = [
        "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",
        "8/8/8/8/8/3k4/8/1K1Q4 b - - 0 1",
        "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1",
        "8/8/8/4k3/8/8/3P4/4K3 w - - 0 1",
        "8/8/8/3pk3/8/8/3P4/4K3 b - - 0 1",
        "8/8/3k4/8/3q4/8/8/R3K3 w - - 0 1",
    ];
    let positions: Vec<Position> = fens.iter().map(|f| pos(f)).collect();
    let want: Vec<(Wdl, i32)> = positions
        .iter()
        .map(|p| (tb.wdl(p).unwrap(), tb.dtz(p).unwrap()))
        .collect();
    let tb = &tb;
    std::thread::scope(|s| {
        for t in 0..8 {
            let (positions, want) = (&positions, &want);
            s.spawn(move || {
                for round in 0..200 {
                    let i = (t + round) % positions.len();
                    let p = &positions[i];
                    assert_eq!((tb.wdl(p).unwrap(), tb.dtz(p).unwrap()), want[i]);
                }
            });
        }
    });
}

/// Found by the `syzygy` fuzz target: a piece code naming pieces the
/// position lacks made the lookup loop for ever. Each probe runs on its
/// own thread, waited for at most 10 seconds.
#[test]
fn a_piece_code_the_position_lacks_is_an_error_not_a_hang() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corrupt");
    let mut tb = Tablebase::new();
    tb.add_directory(&dir).unwrap();
    let tb = std::sync::Arc::new(tb);
    for fen in [
        KRVK,
        "8/8/4k3/8/8/8/8/R3K3 b - - 0 1",
        "R7/8/8/8/8/8/2k5/K7 b - - 0 1",
    ] {
        let (tx, rx) = std::sync::mpsc::channel();
        let t = tb.clone();
        let p = pos(fen);
        std::thread::spawn(move || {
            let _ = tx.send(t.wdl(&p).map_err(|e| e.to_string()));
        });
        let r = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("the probe of {fen} hangs"));
        match r {
            Ok(w) => assert!((-2..=2).contains(&w.to_i32())),
            Err(e) => assert!(e.contains("KRvK.rtbw"), "{e}"),
        }
    }
}
