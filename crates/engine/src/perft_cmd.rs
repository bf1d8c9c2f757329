//! `hashmate perft`: leaf counts with optional per-move breakdown, timing,
//! and progress on stderr for long runs.

use clap::Args;
use hashmate::perft::perft;
use hashmate::tt_study::{hashed_perft, hashed_perft_compact, PerftTable, Strategy, StudyTable};
use hashmate::Position;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies (1 or more).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Print castling as king-takes-rook (UCI_Chess960 notation).
    #[arg(long)]
    pub chess960: bool,
    /// Cache subtree counts in a hash table of this many MB (hashed perft).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: Option<u64>,
    /// Use the collision-study table with this strategy instead of the
    /// compact default table (with --hash).
    #[arg(long, requires = "hash")]
    pub strategy: Option<Strategy>,
}

/// How subtree counts are computed.
pub enum PerftCache {
    Plain,
    Study(StudyTable),
    Compact(PerftTable),
}

impl PerftCache {
    fn count(&mut self, pos: &Position, depth: u32) -> u64 {
        match self {
            PerftCache::Plain => perft(pos, depth),
            PerftCache::Study(t) => hashed_perft(pos, depth, t),
            PerftCache::Compact(t) => hashed_perft_compact(pos, depth, t),
        }
    }
}

/// The per-root-move report shared with UCI's `go perft`: one `move: count`
/// line per root move, then time, speed and `Nodes searched: N`.
pub fn report(
    pos: &Position,
    depth: u32,
    divide: bool,
    chess960: bool,
    cache: &mut PerftCache,
    out: &mut impl Write,
) {
    let start = Instant::now();
    let moves = pos.legal_moves();
    let progress = std::io::stderr().is_terminal();
    let mut total = 0u64;
    for (i, &mv) in moves.iter().enumerate() {
        let mut child = pos.clone();
        child.play(mv);
        let n = if depth <= 1 {
            1
        } else {
            cache.count(&child, depth - 1)
        };
        total += n;
        if divide {
            let _ = writeln!(out, "{}: {n}", pos.to_uci(mv, chess960));
        }
        if progress && start.elapsed() > Duration::from_secs(2) {
            eprint!("\r{}/{} root moves, {total} nodes", i + 1, moves.len());
        }
    }
    if progress && start.elapsed() > Duration::from_secs(2) {
        eprintln!();
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Time: {:.3} s, Nodes/second: {:.0}",
        secs,
        total as f64 / secs.max(1e-9)
    );
    let _ = writeln!(out, "Nodes searched: {total}");
}

pub fn run(args: &PerftArgs) -> ExitCode {
    let pos = match &args.fen {
        Some(fen) => match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("hashmate perft: {e}");
                return ExitCode::from(2);
            }
        },
        None => Position::startpos(),
    };
    let chess960 = args.chess960 || pos.is_chess960();
    let bytes = args.hash.map_or(0, |mb| (mb as usize) << 20);
    let made = match (args.hash, args.strategy) {
        (None, _) => Ok(PerftCache::Plain),
        (Some(_), Some(st)) => StudyTable::new(st, 64, bytes).map(PerftCache::Study),
        (Some(_), None) => PerftTable::new(bytes).map(PerftCache::Compact),
    };
    let mut cache = match made {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hashmate perft: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    report(
        &pos,
        args.depth,
        args.divide,
        chess960,
        &mut cache,
        &mut out,
    );
    let (probes, hits, mb) = match &cache {
        PerftCache::Plain => return ExitCode::SUCCESS,
        PerftCache::Study(t) => (t.stats.probes, t.stats.hits, t.bytes() >> 20),
        PerftCache::Compact(t) => (t.probes, t.hits, t.bytes() >> 20),
    };
    eprintln!(
        "hash: {mb} MB, {probes} probes, {hits} hits ({:.1}%)",
        100.0 * hits as f64 / probes.max(1) as f64
    );
    ExitCode::SUCCESS
}
