//! `hashmate tt-study`: the same hashed-perft workload under every
//! collision strategy and every number of stored key bits, with the
//! independent lock key counting false hits.

pub mod table;

use clap::Args;
use hashmate::perft::perft;
use hashmate::Position;
use hashmate_engine::search::{search, Limits, Shared};
use std::process::ExitCode;
use std::time::Instant;
use table::{hashed_perft, Stats, Strategy, StudySearchTable, StudyTable};

#[derive(Args)]
pub struct StudyArgs {
    /// Table size in KB (small tables show collisions and replacement).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=16_777_216))]
    pub kb: u64,
    /// Workload positions as FEN:DEPTH pairs separated by '|'
    /// (default: start position to depth 6 and Kiwipete to depth 5).
    #[arg(long)]
    pub workload: Option<String>,
    /// Depth of the fixed-depth searches of the second workload (the bench
    /// positions); 0 skips it.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub search_depth: u32,
}

const DEFAULT: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1:6|\
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1:5";

pub fn run(args: &StudyArgs) -> ExitCode {
    let code = study(args);
    hashmate_engine::output::status(code)
}

fn study(args: &StudyArgs) -> ExitCode {
    let mut work = Vec::new();
    for item in args.workload.as_deref().unwrap_or(DEFAULT).split('|') {
        let Some((fen, depth)) = item.rsplit_once(':') else {
            eprintln!("hashmate tt-study: '{item}' is not FEN:DEPTH");
            return ExitCode::from(2);
        };
        let pos = match Position::from_fen(fen.trim()) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("hashmate tt-study: {e}");
                return ExitCode::from(2);
            }
        };
        let Some(depth) = depth
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=10).contains(d))
        else {
            eprintln!("hashmate tt-study: depth '{depth}' is not 1-10");
            return ExitCode::from(2);
        };
        let expected = perft(&pos, depth);
        work.push((pos, depth, expected));
    }
    hashmate_engine::output::emit("| strategy | key bits | probes | hits | false hits | false hits / 10^9 probes | replacement rate | exact | seconds |");
    hashmate_engine::output::emit("|---|---:|---:|---:|---:|---:|---:|---|---:|");
    for strategy in Strategy::ALL {
        for bits in [16, 32, 48, 64] {
            if hashmate_engine::output::closed() {
                return ExitCode::SUCCESS;
            }
            let mut table = match StudyTable::new(strategy, bits, (args.kb as usize) << 10) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("hashmate tt-study: {e}");
                    return ExitCode::from(2);
                }
            };
            let start = Instant::now();
            let mut exact = true;
            for (pos, depth, expected) in &work {
                exact &= hashed_perft(pos, *depth, &mut table) == *expected;
            }
            hashmate_engine::output::emit(&format!(
                "| {} | {bits} | {} | {} | {:.2} |",
                strategy.name(),
                stats_cells(&table.stats),
                if exact { "yes" } else { "**no**" },
                start.elapsed().as_secs_f64()
            ));
        }
    }
    if args.search_depth > 0 {
        search_study(args);
    }
    ExitCode::SUCCESS
}

/// The second workload: fixed-depth searches of the bench positions with
/// the study table in place of the engine's. A search has no exact answer
/// to check, so the result is compared with the same strategy's run with
/// full 64-bit keys: same best move and score on every position, or not.
fn search_study(args: &StudyArgs) {
    let limits = Limits {
        depth: Some(args.search_depth),
        multipv: 1,
        ..Limits::default()
    };
    hashmate_engine::output::emit("");
    hashmate_engine::output::emit(&format!(
        "Fixed-depth searches (depth {}) of the {} bench positions:",
        args.search_depth,
        hashmate_engine::bench::POSITIONS.len()
    ));
    hashmate_engine::output::emit("");
    hashmate_engine::output::emit("| strategy | key bits | probes | hits | false hits | false hits / 10^9 probes | replacement rate | same moves and scores as 64 bits |");
    hashmate_engine::output::emit("|---|---:|---:|---:|---:|---:|---:|---|");
    for strategy in Strategy::ALL {
        let mut baseline: Option<Vec<(Option<hashmate::Move>, i32)>> = None;
        for bits in [64, 48, 32, 16] {
            if hashmate_engine::output::closed() {
                return;
            }
            let table = match StudyTable::new(strategy, bits, (args.kb as usize) << 10) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("hashmate tt-study: {e}");
                    return;
                }
            };
            let shared =
                std::sync::Arc::new(Shared::new(StudySearchTable(std::sync::Mutex::new(table))));
            let mut results = Vec::new();
            for fen in hashmate_engine::bench::POSITIONS {
                let pos = Position::from_fen(fen).expect("bench positions are valid");
                shared.control.begin(false);
                let r = search(&pos, &[], &limits, &shared, 1, &mut ());
                results.push((r.best, r.score));
            }
            let s = shared.tt.0.lock().map(|t| t.stats).unwrap_or_default();
            let same = match &baseline {
                None => {
                    baseline = Some(results);
                    "(baseline)".to_string()
                }
                Some(b) => {
                    let differ = b.iter().zip(&results).filter(|(x, y)| x != y).count();
                    if differ == 0 {
                        "yes".into()
                    } else {
                        format!("**no** ({differ} of {} differ)", b.len())
                    }
                }
            };
            hashmate_engine::output::emit(&format!(
                "| {} | {bits} | {} | {same} |",
                strategy.name(),
                stats_cells(&s)
            ));
        }
    }
}

/// The table cells both workloads report: probes, hits, false hits, false
/// hits per 10^9 probes, replacement rate.
fn stats_cells(s: &Stats) -> String {
    format!(
        "{} | {} | {} | {:.1} | {:.3}",
        s.probes,
        s.hits,
        s.false_hits,
        s.false_hits_per_billion(),
        s.replacement_rate()
    )
}
