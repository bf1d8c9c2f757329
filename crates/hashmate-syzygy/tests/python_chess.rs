//! The probes against an implementation no one here wrote: python-chess's
//! `chess.syzygy` reads the same files, and must give the same WDL and DTZ
//! on every one of thousands of random positions — every material of the
//! directory, both sides to move, both colourings of each table, and en
//! passant positions (a capture possible on the table's squares, which the
//! tables themselves do not hold). Skipped with a reason where python-chess
//! is missing (CI requires it).

use hashmate::Position;
use hashmate_hash::rng::SplitMix64;
use hashmate_syzygy::{Material, Tablebase};
use hashmate_test_support::{peer_available, python_chess};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn vendored() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

/// The folder `SYZYGY_PATH` names (as for the probe benchmark), where it
/// holds KRPvKR: the standard Syzygy files, too large to vendor (47 MB).
fn five_piece_dir() -> Option<PathBuf> {
    let p = PathBuf::from(std::env::var_os("SYZYGY_PATH")?);
    p.join("KRPvKR.rtbw").is_file().then_some(p)
}

/// The materials of `dir`'s WDL tables with `pieces`.
fn materials(dir: &Path, pieces: impl Fn(u32) -> bool) -> Vec<Material> {
    let mut m: Vec<Material> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            Material::from_name(name.strip_suffix(".rtbw")?)
        })
        .filter(|m| pieces(m.pieces()))
        .collect();
    m.sort_by_key(|m| m.name());
    m
}

const LETTERS: [(char, hashmate::Role); 6] = [
    ('k', hashmate::Role::King),
    ('q', hashmate::Role::Queen),
    ('r', hashmate::Role::Rook),
    ('b', hashmate::Role::Bishop),
    ('n', hashmate::Role::Knight),
    ('p', hashmate::Role::Pawn),
];

/// A random legal position of `m` (either colouring), or `None` after a
/// placement that is not legal.
fn random_position(m: Material, rng: &mut SplitMix64) -> Option<Position> {
    let m = if rng.below(2) == 0 { m } else { m.flipped() };
    let mut board = [None; 64];
    for color in hashmate::Color::ALL {
        for &(c, role) in &LETTERS {
            for _ in 0..m.count(color, role) {
                loop {
                    let sq = rng.below(64) as usize;
                    let back = !(8..56).contains(&sq);
                    if board[sq].is_none() && !(role == hashmate::Role::Pawn && back) {
                        let c = if color == hashmate::Color::White {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        };
                        board[sq] = Some(c);
                        break;
                    }
                }
            }
        }
    }
    let stm = if rng.below(2) == 0 { "w" } else { "b" };
    format!("{} {stm} - - 0 1", placement(&board)).parse().ok()
}

fn placement(board: &[Option<char>; 64]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// A random position of `m` (pawns on both sides) just after a double
/// pawn push that the side to move can capture en passant.
fn ep_position(m: Material, rng: &mut SplitMix64) -> Option<Position> {
    use hashmate::Color::{Black, White};
    use hashmate::Role::Pawn;
    if m.count(White, Pawn) == 0 || m.count(Black, Pawn) == 0 {
        return None;
    }
    let white = rng.below(2) == 0;
    let file = rng.below(8) as usize;
    let side = if rng.below(2) == 0 {
        file.checked_sub(1)?
    } else {
        file + 1
    };
    if side > 7 {
        return None;
    }
    // The pawn that moved two squares, and its captor beside it.
    let (rank, pushed, captor, ep) = if white {
        (4, 'p', 'P', 5)
    } else {
        (3, 'P', 'p', 2)
    };
    let mut board = [None; 64];
    board[rank * 8 + file] = Some(pushed);
    board[rank * 8 + side] = Some(captor);
    let rest = m;
    let mut left = Vec::new();
    for color in [White, Black] {
        for &(c, role) in &LETTERS {
            let mut n = rest.count(color, role);
            if role == Pawn {
                n -= 1;
            }
            for _ in 0..n {
                left.push(if color == White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
    }
    let skip = [ep * 8 + file, (if white { 6 } else { 1 }) * 8 + file];
    for c in left {
        loop {
            let sq = rng.below(64) as usize;
            let back = !(8..56).contains(&sq);
            if board[sq].is_none() && !skip.contains(&sq) && !(c.eq_ignore_ascii_case(&'p') && back)
            {
                board[sq] = Some(c);
                break;
            }
        }
    }
    let square = format!("{}{}", (b'a' + file as u8) as char, ep + 1);
    let stm = if white { "w" } else { "b" };
    let pos: Position = format!("{} {stm} - {square} 0 1", placement(&board))
        .parse()
        .ok()?;
    pos.legal_moves()
        .iter()
        .any(|&mv| pos.is_en_passant(mv))
        .then_some(pos)
}

/// python-chess's WDL and DTZ of each position (`None`: no answer).
fn oracle(dir: &Path, fens: &[String]) -> Vec<Option<(i32, i32)>> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/syzygy_oracle.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let input = fens.join("\n") + "\n";
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "the oracle failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let mut w = l.split(' ');
            Some((w.next()?.parse().ok()?, w.next()?.parse().ok()?))
        })
        .collect()
}

/// `n` random positions spread over `materials`, and `ep` en passant
/// positions of those with pawns on both sides, each probed by both.
fn agree(dir: &Path, materials: &[Material], n: usize, ep: usize, seed: u64) {
    let mut tb = Tablebase::new();
    let added = tb.add_directory(dir).unwrap();
    assert!(added.refused.is_empty(), "{:?}", added.refused);
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::new();
    while positions.len() < n {
        let m = materials[positions.len() % materials.len()];
        if let Some(p) = random_position(m, &mut rng) {
            positions.push(p);
        }
    }
    let both: Vec<Material> = materials
        .iter()
        .copied()
        .filter(|m| {
            m.count(hashmate::Color::White, hashmate::Role::Pawn) > 0
                && m.count(hashmate::Color::Black, hashmate::Role::Pawn) > 0
        })
        .collect();
    let mut found = 0;
    while !both.is_empty() && found < ep {
        if let Some(p) = ep_position(both[found % both.len()], &mut rng) {
            positions.push(p);
            found += 1;
        }
    }
    let fens: Vec<String> = positions.iter().map(|p| p.to_string()).collect();
    let theirs = oracle(dir, &fens);
    assert_eq!(theirs.len(), fens.len());
    let mut compared = 0;
    for ((pos, fen), want) in positions.iter().zip(&fens).zip(&theirs) {
        let Some((w, d)) = *want else { continue };
        let ours = (tb.wdl(pos).map(|w| w.to_i32()), tb.dtz(pos));
        assert_eq!(
            (ours.0.as_ref().ok().copied(), ours.1.as_ref().ok().copied()),
            (Some(w), Some(d)),
            "{fen}: ours {ours:?}"
        );
        compared += 1;
    }
    // python-chess leaves out only what it cannot probe either.
    assert!(
        compared * 100 >= fens.len() * 99,
        "python-chess answered {compared} of {}",
        fens.len()
    );
    eprintln!("{compared} positions agree ({found} en passant)");
}

#[test]
fn agree_with_python_chess_on_every_three_and_four_piece_table() {
    if !peer_available("python-chess", python_chess()) {
        return;
    }
    let dir = vendored();
    let m = materials(&dir, |n| n <= 4);
    assert_eq!(m.len(), 35);
    agree(&dir, &m, 10_000, 500, 1);
}

/// The vendored five-piece table (KRNvKR), so that a clone alone probes
/// five pieces too.
#[test]
fn agree_with_python_chess_on_the_vendored_five_piece_table() {
    if !peer_available("python-chess", python_chess()) {
        return;
    }
    // Its captures lead into the 3- and 4-piece tables: one directory
    // with both, as a user keeps them.
    let five = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy5");
    let dir = hashmate_test_support::fresh_dir(env!("CARGO_TARGET_TMPDIR"), "hashmate-syzygy-five");
    for from in [vendored(), five] {
        for e in std::fs::read_dir(from).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "rtbw" || x == "rtbz") {
                std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    let m = materials(&dir, |n| n == 5);
    assert_eq!(m.len(), 1);
    agree(&dir, &m, 1_000, 0, 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn agree_with_python_chess_on_the_five_piece_tables() {
    if !peer_available("python-chess", python_chess()) {
        return;
    }
    let Some(dir) = five_piece_dir() else {
        eprintln!(
            "skipped: no KRPvKR.rtbw in the folder SYZYGY_PATH names \
             (the vendored tables cover the other tests)"
        );
        return;
    };
    let m = materials(&dir, |n| n == 5);
    assert_eq!(m.len(), 5);
    agree(&dir, &m, 2_000, 0, 2);
}
