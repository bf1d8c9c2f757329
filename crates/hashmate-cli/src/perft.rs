//! `hashmate perft`: leaf counts with optional per-move breakdown, timing,
//! progress on stderr for long runs, a hash table of subtree counts, and a
//! choice of slider backend (to compare them on your own CPU).

use crate::tt_study::table::{hashed_perft, Strategy, StudyTable};
use clap::{Args, ValueEnum};
use hashmate::attacks::{
    fl::FlCompact, fl::FlFast, fl_joint::FlJoint, hyperbola::Hyperbola, kindergarten::Kindergarten,
    magic::Magic, pext::Pext, ray_loop::RayLoop, Sliders,
};
use hashmate::perft::{perft_cached, perft_with, PerftTable};
use hashmate::{CastlingMode, Position};
use hashmate_engine::uci::perft::{report, report_moves};
use std::io::Write;
use std::process::ExitCode;

/// A slider backend, by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// Fenner & Levene's perfect hash, one table per square and line.
    FlFast,
    /// Fenner & Levene's perfect hash, one table per line geometry.
    FlCompact,
    /// Fenner & Levene's minimal perfect hash, both lines of a slider in
    /// one table: one load per slider.
    FlJoint,
    /// Fancy magic bitboards.
    Magic,
    /// BMI2 PEXT (only on CPUs that have it).
    Pext,
    /// Kindergarten bitboards.
    Kindergarten,
    /// Hyperbola quintessence.
    Hyperbola,
    /// The plain ray loop.
    Loop,
}

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
    /// Slider backend (default: the build's, see `hashmate --version`).
    #[arg(long, value_enum, conflicts_with = "hash")]
    pub backend: Option<Backend>,
    /// A game on the 10×8 board instead of chess (`--fen` then takes a
    /// 10×8 FEN).
    #[arg(long, value_enum, conflicts_with_all = ["hash", "backend", "chess960"])]
    pub variant: Option<Variant>,
}

/// A game on the 10×8 board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Variant {
    /// Capablanca chess.
    Capablanca,
    /// Gothic chess.
    Gothic,
}

/// Perft on the 10×8 board, reported as for chess.
fn run_wide(args: &PerftArgs, variant: Variant) -> ExitCode {
    use hashmate_capablanca as capa;
    let variant = match variant {
        Variant::Capablanca => capa::Variant::Capablanca,
        Variant::Gothic => capa::Variant::Gothic,
    };
    let pos = match &args.fen {
        Some(fen) => match capa::Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("hashmate perft: {e}");
                return ExitCode::from(2);
            }
        },
        None => variant.start(),
    };
    let moves = pos.legal_moves();
    let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let mut below = |i: usize| {
        let mut child = pos.clone();
        child.play_unchecked(moves[i]);
        capa::perft::perft(&child, args.depth - 1)
    };
    let mut out = hashmate_engine::output::Stdout;
    report_moves(&names, args.divide, &mut below, &|| false, &mut out);
    let _ = out.flush();
    hashmate_engine::output::status(ExitCode::SUCCESS)
}

/// Counts the leaves below a position to a depth.
type Counter<'a> = Box<dyn FnMut(&Position, u32) -> u64 + 'a>;

fn with<'a, S: Sliders>(s: S) -> Counter<'a> {
    Box::new(move |p, d| perft_with(s, p, d))
}

pub fn run(args: &PerftArgs) -> ExitCode {
    if let Some(v) = args.variant {
        return run_wide(args, v);
    }
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
    let mode = if args.chess960 || pos.is_chess960() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut out = hashmate_engine::output::Stdout;
    // The report, through whichever counter the options chose (a command
    // line perft is never stopped).
    let mut divide = |count: &mut dyn FnMut(&Position, u32) -> u64| {
        report(
            &pos,
            args.depth,
            args.divide,
            mode,
            count,
            &|| false,
            &mut out,
        );
    };
    let bytes = args.hash.map_or(0, |mb| (mb as usize) << 20);
    match (args.hash, args.strategy) {
        (None, _) => {
            let mut count: Counter = match args.backend {
                None => Box::new(|p: &Position, d| hashmate::perft::perft(p, d)),
                Some(Backend::FlFast) => with(FlFast),
                Some(Backend::FlCompact) => with(FlCompact),
                Some(Backend::FlJoint) => with(FlJoint::init()),
                Some(Backend::Magic) => with(Magic::new()),
                Some(Backend::Kindergarten) => with(Kindergarten),
                Some(Backend::Hyperbola) => with(Hyperbola),
                Some(Backend::Loop) => with(RayLoop),
                Some(Backend::Pext) => match Pext::detect() {
                    Some(p) => with(p),
                    None => {
                        eprintln!("hashmate perft: this CPU has no BMI2, so no PEXT backend");
                        return ExitCode::from(2);
                    }
                },
            };
            divide(&mut count);
        }
        (Some(_), Some(st)) => {
            let mut table = match StudyTable::new(st, 64, bytes) {
                Ok(t) => t,
                Err(e) => return refuse(&e),
            };
            let mut count = |p: &Position, d| hashed_perft(p, d, &mut table);
            divide(&mut count);
            hash_summary(table.bytes(), table.stats.probes, table.stats.hits);
        }
        (Some(_), None) => {
            let mut table = match PerftTable::new(bytes) {
                Ok(t) => t,
                Err(e) => return refuse(&e),
            };
            let mut count = |p: &Position, d| perft_cached(p, d, &mut table);
            divide(&mut count);
            hash_summary(table.bytes(), table.probes(), table.hits());
            eprintln!(
                "move counts: {} KB near, {} probes, {} hits ({:.1}%)",
                hashmate::perft::MOVE_COUNT_CACHE_BYTES >> 10,
                table.move_count_probes(),
                table.move_count_hits(),
                100.0 * table.move_count_hits() as f64 / table.move_count_probes().max(1) as f64
            );
        }
    }
    let _ = out.flush();
    hashmate_engine::output::status(ExitCode::SUCCESS)
}

/// The command's error and exit status.
fn refuse(e: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("hashmate perft: {e}");
    ExitCode::from(2)
}

fn hash_summary(bytes: usize, probes: u64, hits: u64) {
    eprintln!(
        "hash: {} MB, {probes} probes, {hits} hits ({:.1}%)",
        bytes >> 20,
        100.0 * hits as f64 / probes.max(1) as f64
    );
}
