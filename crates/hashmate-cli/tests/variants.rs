//! Capablanca and Gothic chess against Fairy-Stockfish (Debian's
//! `fairy-stockfish`, `UCI_Variant`, `go perft N`), divide line by divide
//! line: the start positions to depth 4 (and depth 5 in total), and 100
//! positions of random games (both variants, depths 1–3) chosen so that
//! castling rights, en-passant squares and promotions all occur. A
//! mismatch names the position and the move whose count differs. The
//! `hashmate perft --variant` command line is checked against the library.
//! SAN, FEN and game ends are checked against pyffish, Fairy-Stockfish's
//! Python binding. Skipped with a reason where Fairy-Stockfish or pyffish
//! is missing (CI requires both).

mod common;
use hashmate_capablanca::fen::EnPassantMode;
use hashmate_capablanca::perft::{divide, perft};
use hashmate_capablanca::{Color, Outcome, Position, Role, Variant};
use hashmate_hash::rng::SplitMix64;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout};

struct Fairy {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Fairy {
    fn start(path: &str) -> Fairy {
        let mut child = common::spawn_piped(path);
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Fairy {
            child,
            stdin,
            stdout,
        }
    }

    /// Fairy-Stockfish's divide: move → count.
    fn divide(&mut self, variant: Variant, fen: &str, depth: u32) -> BTreeMap<String, u64> {
        writeln!(
            self.stdin,
            "setoption name UCI_Variant value {}\nposition fen {fen}\ngo perft {depth}",
            variant.name()
        )
        .unwrap();
        self.stdin.flush().unwrap();
        let mut out = BTreeMap::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "fairy-stockfish died"
            );
            let line = line.trim();
            if line.starts_with("Nodes searched") {
                return out;
            }
            if let Some((mv, n)) = line.split_once(": ") {
                if let Ok(n) = n.parse() {
                    out.insert(mv.to_string(), n);
                }
            }
        }
    }
}

impl Drop for Fairy {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn ours(pos: &Position, depth: u32) -> BTreeMap<String, u64> {
    divide(pos, depth)
        .into_iter()
        .map(|(m, n)| (m.to_string(), n))
        .collect()
}

/// Compare divides; on a mismatch, name the first move that differs.
fn same(variant: Variant, fen: &str, depth: u32, fairy: &mut Fairy) {
    let pos = Position::from_fen(fen).unwrap();
    let (a, b) = (ours(&pos, depth), fairy.divide(variant, fen, depth));
    if a != b {
        let moves: std::collections::BTreeSet<_> = a.keys().chain(b.keys()).collect();
        for m in moves {
            assert_eq!(
                a.get(m),
                b.get(m),
                "{variant:?} {fen} depth {depth}: move {m}: ours {:?}, Fairy-Stockfish {:?}",
                a.get(m),
                b.get(m)
            );
        }
    }
}

fn fairy() -> Option<Fairy> {
    let path = common::find(&["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"]);
    common::peer_available("Fairy-Stockfish", path.is_some()).then(|| Fairy::start(path.unwrap()))
}

#[test]
fn start_positions_agree_to_depth_four_and_five() {
    let Some(mut f) = fairy() else { return };
    for v in Variant::ALL {
        for d in 1..=4 {
            same(v, v.start_fen(), d, &mut f);
        }
        let total: u64 = f.divide(v, v.start_fen(), 5).values().sum();
        assert_eq!(perft(&v.start(), 5), total, "{v:?} depth 5");
    }
}

/// Positions of random games, at least `per_kind` with castling rights,
/// with an en-passant square, with a promotion among the legal moves, and
/// of any kind.
fn playout_positions(variant: Variant, seed: u64, per_kind: usize) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    let mut want = [per_kind; 4];
    let mut out = Vec::new();
    while want.iter().any(|&w| w > 0) {
        let mut pos = variant.start();
        for _ in 0..rng.below(160) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            let fen = pos.fen();
            let kinds = [
                fen.split(' ').nth(2).is_some_and(|c| c != "-"),
                pos.ep_square().is_some(),
                pos.legal_moves().iter().any(|m| m.promotion().is_some()),
                rng.below(8) == 0,
            ];
            if let Some(k) = (0..4).find(|&k| kinds[k] && want[k] > 0) {
                want[k] -= 1;
                out.push(fen);
            }
        }
    }
    out
}

#[test]
fn random_positions_agree_at_depths_one_to_three() {
    let Some(mut f) = fairy() else { return };
    let mut checked = 0;
    for (v, seed) in [(Variant::Capablanca, 11), (Variant::Gothic, 12)] {
        for fen in playout_positions(v, seed, 13) {
            for d in 1..=3 {
                same(v, &fen, d, &mut f);
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "{checked}");
}

#[test]
fn the_command_line_matches_the_library() {
    let out = common::hashmate(&["perft", "3", "--variant", "gothic", "--divide"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.ends_with("Nodes searched: 25283\n"), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Time"))
            .count(),
        29
    );
    let bad = common::hashmate(&["perft", "2", "--variant", "shogi"], "");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        !bad.status.success() && err.contains("capablanca") && err.contains("gothic"),
        "{err}"
    );
    let bad = common::hashmate(
        &[
            "perft",
            "2",
            "--variant",
            "capablanca",
            "--fen",
            "rnabqkbcnr/pppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(err.contains("rank 7 describes 8 squares"), "{err}");
}

/// How `pos` stands, as the cases file names it: `-` while play goes on,
/// `checkmate`, or the draw's reason.
fn outcome_name(pos: &Position) -> String {
    match pos.outcome() {
        None => "-".to_string(),
        Some(Outcome::Checkmate { .. }) => "checkmate".into(),
        Some(Outcome::Draw(r)) => format!("{r:?}"),
    }
}

/// Each side's insufficient material, White's first: `true/false`.
fn material_verdict(pos: &Position) -> String {
    let side = |c| pos.has_insufficient_material(c);
    format!("{}/{}", side(Color::White), side(Color::Black))
}

/// Positions with the two kings and up to four other men, mostly knights
/// and bishops (on squares of either colour), the endings where the
/// material rules differ, one position a "game" numbered from `first`,
/// in the cases file's form with no move played. Random placements that
/// are no legal position (the side not to move in check, a pawn on its
/// first or last rank) are drawn again.
fn sparse_cases(first: u64, per_variant: u64) -> String {
    const MEN: [char; 12] = ['N', 'N', 'N', 'B', 'B', 'B', 'B', 'P', 'R', 'A', 'C', 'Q'];
    let mut out = String::new();
    let mut game = first;
    for (variant, seed) in [(Variant::Capablanca, 43), (Variant::Gothic, 44)] {
        let mut rng = SplitMix64::new(seed);
        let mut made = 0;
        while made < per_variant {
            let mut board = ['.'; 80];
            let mut put = |rng: &mut SplitMix64, c: char| loop {
                let sq = rng.below(80) as usize;
                if board[sq] == '.' {
                    board[sq] = c;
                    break;
                }
            };
            put(&mut rng, 'K');
            put(&mut rng, 'k');
            for _ in 0..rng.below(5) {
                let man = MEN[rng.below(MEN.len() as u64) as usize];
                // Either side may own any of them.
                let man = if rng.below(2) == 0 {
                    man.to_ascii_uppercase()
                } else {
                    man.to_ascii_lowercase()
                };
                put(&mut rng, man);
            }
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|r| {
                    let mut text = String::new();
                    let mut empty = 0;
                    for &c in &board[r * 10..r * 10 + 10] {
                        if c == '.' {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                text += &empty.to_string();
                            }
                            empty = 0;
                            text.push(c);
                        }
                    }
                    if empty > 0 {
                        text += &empty.to_string();
                    }
                    text
                })
                .collect();
            let side = if rng.below(2) == 0 { 'w' } else { 'b' };
            let fen = format!("{} {side} - - 0 1", ranks.join("/"));
            let Ok(pos) = Position::from_fen(&fen) else {
                continue;
            };
            made += 1;
            game += 1;
            let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            legal.sort();
            out.push_str(&format!(
                "{game}\t{}\t{}\t{}\t{}\t{}\t-\t-\t-\t-\n",
                variant.name(),
                pos.fen(),
                legal.join(" "),
                outcome_name(&pos),
                material_verdict(&pos)
            ));
        }
    }
    out
}

/// What the library says of every position of random games, one line a
/// position for `tests/fairy_notation.py`: the game's number, the
/// variant, the FEN, the legal moves, how the game stands (`-` while it
/// goes on, else the outcome) and each side's verdict on material,
/// then the move played, its SAN, the FEN after it, and that FEN with the
/// en-passant square only where the capture is legal, as Fairy-Stockfish
/// writes it (`-` at the end).
/// A mate in one is played half the time it is there, then en passant and
/// castling likewise, a capture two times in three, so that games castle and reach
/// checkmates, stalemates and bare kings within a few hundred plies.
fn notation_cases(games_per_variant: u64) -> String {
    let mut out = String::new();
    let mut game = 0;
    for (variant, seed) in [(Variant::Capablanca, 41), (Variant::Gothic, 42)] {
        let mut rng = SplitMix64::new(seed);
        for _ in 0..games_per_variant {
            game += 1;
            let mut pos = variant.start();
            for _ in 0..400 {
                let moves = pos.legal_moves();
                let sans: Vec<String> = moves
                    .iter()
                    .map(|&m| pos.to_san(m).expect("a legal move"))
                    .collect();
                let mut legal: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                legal.sort();
                let end = outcome_name(&pos);
                let insufficient = material_verdict(&pos);
                let (mv, san, after, after_legal_ep) = if moves.is_empty() {
                    ("-".into(), "-".into(), "-".into(), "-".into())
                } else {
                    let pick = |rng: &mut SplitMix64, among: &[usize]| {
                        among[rng.below(among.len() as u64) as usize]
                    };
                    let mates: Vec<usize> = (0..moves.len())
                        .filter(|&i| sans[i].ends_with('#'))
                        .collect();
                    let captures: Vec<usize> = (0..moves.len())
                        .filter(|&i| sans[i].contains('x'))
                        .collect();
                    let castles: Vec<usize> = (0..moves.len())
                        .filter(|&i| moves[i].is_castling())
                        .collect();
                    let en_passant: Vec<usize> = (0..moves.len())
                        .filter(|&i| {
                            Some(moves[i].to()) == pos.ep_square()
                                && pos.role_at(moves[i].from()) == Some(Role::Pawn)
                        })
                        .collect();
                    let i = if !mates.is_empty() && rng.below(2) == 0 {
                        pick(&mut rng, &mates)
                    } else if !en_passant.is_empty() && rng.below(2) == 0 {
                        pick(&mut rng, &en_passant)
                    } else if !castles.is_empty() && rng.below(2) == 0 {
                        pick(&mut rng, &castles)
                    } else if !captures.is_empty() && rng.below(3) > 0 {
                        pick(&mut rng, &captures)
                    } else {
                        rng.below(moves.len() as u64) as usize
                    };
                    let mut next = pos.clone();
                    next.play_unchecked(moves[i]);
                    (
                        moves[i].to_string(),
                        sans[i].clone(),
                        next.fen(),
                        next.fen_with(EnPassantMode::Legal),
                    )
                };
                out.push_str(&format!(
                    "{game}\t{}\t{}\t{}\t{end}\t{insufficient}\t{mv}\t{san}\t{after}\t{after_legal_ep}\n",
                    variant.name(),
                    pos.fen(),
                    legal.join(" ")
                ));
                if end != "-" {
                    break;
                }
                pos = Position::from_fen(&after).expect("a printed FEN parses");
            }
        }
    }
    out
}

/// SAN, FEN and the end of the game against Fairy-Stockfish's own
/// library (pyffish, the Python binding of a newer Fairy-Stockfish than
/// Debian's): the SAN of every move of random Capablanca and Gothic games
/// (checks, mates, castling, promotions to the archbishop and chancellor,
/// disambiguation), the legal moves and the FEN after the move at every
/// fifth position, the last and wherever en passant can follow (castling
/// rights, the en-passant square where the capture is legal, both
/// clocks), and how each game ends: checkmate, stalemate, insufficient
/// material, the fifty-move rule. Skipped with a reason where pyffish is
/// missing (CI installs it).
#[test]
fn notation_and_outcomes_agree_with_fairy_stockfish_pyffish() {
    if !common::peer_available(
        "pyffish (pip install pyffish)",
        common::python_has("pyffish"),
    ) {
        return;
    }
    let cases = common::tmp("pyffish-cases.tsv");
    // 80 random games, then 1,200 sparse positions after them.
    let text = notation_cases(40) + &sparse_cases(80, 600);
    std::fs::write(&cases, text).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fairy_notation.py");
    // The script prints each disagreement on its standard error, which
    // `run_ok` shows when it fails, and a summary on its output.
    let out = common::run_ok(
        std::process::Command::new("python3")
            .arg(script)
            .arg(&cases),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // The games reach what the check is for.
    let count = |what: &str| -> u64 {
        let words: Vec<&str> = text.split_whitespace().collect();
        let at = words.iter().position(|w| *w == what).expect(what);
        words[at + 1].parse().unwrap()
    };
    for (what, least) in [
        ("checkmate", 10),
        ("Stalemate", 1),
        ("InsufficientMaterial", 10),
        ("castles", 10),
        ("promotions", 20),
        ("checks", 100),
        ("en_passant", 8),
        // Each side's material verdict, where the sides differ, where
        // both bishops' colours decide, and where a knight meets a queen.
        ("insufficient_one_side", 100),
        ("bishops_one_colour", 20),
        ("knight_against_queen", 3),
    ] {
        assert!(count(what) >= least, "{what} fewer than {least}:\n{text}");
    }
    eprintln!("{text}");
}
