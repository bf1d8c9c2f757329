//! Shared helpers for the peer benchmarks (see `src/bin/`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The five standard perft positions and the depths the project measures.
pub const PERFT_POSITIONS: [(&str, &str, u32); 5] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    (
        "position4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
    ),
    (
        "position5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
    ),
];

/// A cozy-chess perft with bulk counting, written the way its users do.
pub fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// A UCI engine process driven over pipes.
pub struct Uci {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Uci {
    pub fn start(cmd: &str) -> std::io::Result<Uci> {
        let mut child = Command::new(cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut e = Uci {
            child,
            stdin,
            stdout,
        };
        e.send("uci")?;
        e.wait_for("uciok")?;
        Ok(e)
    }

    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// Read lines until one starts with `prefix`; return it.
    pub fn wait_for(&mut self, prefix: &str) -> std::io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("engine closed its output"));
            }
            if line.starts_with(prefix) {
                return Ok(line.trim().to_string());
            }
        }
    }

    /// `go perft depth` on `fen`: (nodes, wall time from command to answer).
    pub fn perft(&mut self, fen: &str, depth: u32) -> std::io::Result<(u64, Duration)> {
        self.send(&format!("position fen {fen}"))?;
        self.send("isready")?;
        self.wait_for("readyok")?;
        let start = Instant::now();
        self.send(&format!("go perft {depth}"))?;
        let line = self.wait_for("Nodes searched")?;
        let elapsed = start.elapsed();
        let nodes = line
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("unexpected: {line}")))?;
        Ok((nodes, elapsed))
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// Median of a few durations.
pub fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// A slider's square and the board's occupancy.
pub type SliderInput = (usize, u128);

/// Slider lookups on the 10×8 board as a move generator meets them: the
/// (square, occupancy) pairs of every rook-moving piece (rook, queen,
/// chancellor) and every bishop-moving piece (bishop, queen, archbishop)
/// of both sides, in the positions of `games` seeded random Capablanca
/// games (plies 6 to 80). Returns `(rook inputs, bishop inputs)`.
pub fn capablanca_slider_inputs(games: u64) -> (Vec<SliderInput>, Vec<SliderInput>) {
    use hashmate_capablanca::bitboard::squares;
    use hashmate_capablanca::{Color, Role, Variant};
    use hashmate_hash::rng::SplitMix64;
    let (mut rooks, mut bishops) = (Vec::new(), Vec::new());
    for seed in 0..games {
        let mut rng = SplitMix64::new(seed);
        let mut pos = Variant::Capablanca.start();
        for ply in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply >= 6 {
                let occ = pos.occupied();
                for c in [Color::White, Color::Black] {
                    let of = |roles: [Role; 3]| roles.iter().fold(0, |a, &r| a | pos.pieces(c, r));
                    let at = |bb: u128| squares(bb).map(move |sq| (sq.index(), occ));
                    rooks.extend(at(of([Role::Rook, Role::Queen, Role::Chancellor])));
                    bishops.extend(at(of([Role::Bishop, Role::Queen, Role::Archbishop])));
                }
            }
            let mv = moves.as_slice()[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(mv);
        }
    }
    (rooks, bishops)
}

/// `n` random (square, occupancy) pairs on a board of `squares` squares,
/// each square occupied with probability ¼: the worst case for the
/// tables' caches, beside [`capablanca_slider_inputs`].
pub fn random_slider_inputs(squares: usize, n: usize, seed: u64) -> Vec<(usize, u128)> {
    let mut rng = hashmate_hash::rng::SplitMix64::new(seed);
    let mask = (1u128 << squares) - 1;
    (0..n)
        .map(|_| {
            (
                rng.below(squares as u64) as usize,
                rng.next_u128() & rng.next_u128() & mask,
            )
        })
        .collect()
}
