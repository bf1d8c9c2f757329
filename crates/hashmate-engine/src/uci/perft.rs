//! `go perft N`'s count and report, shared with the `hashmate perft`
//! command: the leaves below each root move, stoppable at once, and the
//! divide report.

use hashmate::{CastlingMode, Position};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The per-root-move report shared with UCI's `go perft`: one `move: count`
/// line per root move when `divide`, then time, speed and
/// `Nodes searched: N`. `count(child, depth)` counts below a root move;
/// `stopped()`, asked after each, ends the report early with a line that
/// says so and no total.
pub fn report(
    pos: &Position,
    depth: u32,
    divide: bool,
    mode: CastlingMode,
    count: &mut dyn FnMut(&Position, u32) -> u64,
    stopped: &dyn Fn() -> bool,
    out: &mut impl Write,
) {
    let moves = pos.legal_moves();
    let names: Vec<String> = moves.iter().map(|mv| mv.to_uci(mode).to_string()).collect();
    let mut below = |i: usize| {
        let mut child = pos.clone();
        child.play_unchecked(moves[i]);
        count(&child, depth - 1)
    };
    report_moves(&names, divide, &mut below, stopped, out);
}

/// The report over any game's root moves (the 10×8 variants' too):
/// `names` writes them, `count(i)` counts the leaves below the `i`-th.
pub fn report_moves(
    names: &[String],
    divide: bool,
    count: &mut dyn FnMut(usize) -> u64,
    stopped: &dyn Fn() -> bool,
    out: &mut impl Write,
) {
    let start = Instant::now();
    let progress = std::io::stderr().is_terminal();
    let mut total = 0u64;
    for (i, name) in names.iter().enumerate() {
        let n = count(i);
        if stopped() {
            let _ = writeln!(
                out,
                "perft stopped after {i} of {} root moves; no total",
                names.len()
            );
            return;
        }
        total += n;
        if divide && writeln!(out, "{name}: {n}").is_err() {
            // The reader is gone: stop counting for nobody.
            return;
        }
        if progress && start.elapsed() > Duration::from_secs(2) {
            eprint!("\r{}/{} root moves, {total} nodes", i + 1, names.len());
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

/// The leaves below `pos` to `depth`, or `None` once `abort` is set (it is
/// looked at every few thousand nodes, so that a deep count can be
/// stopped at once).
pub fn perft_until(pos: &Position, depth: u32, abort: &AtomicBool) -> Option<u64> {
    if depth <= 3 {
        return Some(hashmate::perft::perft(pos, depth));
    }
    if abort.load(Ordering::Relaxed) {
        return None;
    }
    let mut n = 0;
    for mv in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        n += perft_until(&child, depth - 1, abort)?;
    }
    Some(n)
}
