//! `hashmate tb probe`: a position's Syzygy values from the command line.

use clap::{Args, Subcommand};
use hashmate::Position;
use hashmate_engine::output;
use hashmate_syzygy::Tablebase;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum TbCommand {
    /// Print `wdl W dtz D` for a position (W from the side to move's
    /// view: -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win; D the
    /// plies to the next capture or pawn move, signed as the result, 0 for
    /// a draw).
    Probe(ProbeArgs),
}

#[derive(Args)]
pub struct ProbeArgs {
    /// Directories of table files (repeatable, or several joined by `:`).
    #[arg(long, required = true)]
    pub path: Vec<String>,
    /// The position.
    #[arg(long)]
    pub fen: String,
    /// Also each legal move, with the WDL and DTZ of the position after
    /// it (for the side to move there).
    #[arg(long)]
    pub moves: bool,
}

pub fn run(cmd: &TbCommand) -> ExitCode {
    let TbCommand::Probe(a) = cmd;
    match probe(a) {
        Ok(()) => output::status(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("hashmate tb: {e}");
            ExitCode::from(2)
        }
    }
}

/// The directories of `--path` values: repeated, or joined by `:` (`;` on
/// Windows), as the engine's `SyzygyPath` takes them.
pub fn directories(paths: &[String]) -> Vec<String> {
    let sep = if cfg!(windows) { ';' } else { ':' };
    paths
        .iter()
        .flat_map(|p| p.split(sep))
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

fn probe(a: &ProbeArgs) -> Result<(), String> {
    let pos = Position::from_fen(&a.fen).map_err(|e| e.to_string())?;
    let mut tb = Tablebase::new();
    for dir in directories(&a.path) {
        let added = tb.add_directory(&dir).map_err(|e| e.to_string())?;
        for e in added.refused {
            eprintln!("hashmate tb: {e}; left out");
        }
    }
    let pieces = pos.occupied().count();
    if tb.max_pieces() == 0 {
        return Err("no table in the directories given".into());
    }
    let value = |p: &Position| -> Result<String, String> {
        let wdl = tb.wdl(p).map_err(|e| e.to_string())?;
        let dtz = tb.dtz(p).map_err(|e| e.to_string())?;
        Ok(format!("wdl {} dtz {dtz}", wdl.to_i32()))
    };
    let line = value(&pos).map_err(|e| {
        if pieces > tb.max_pieces() {
            format!(
                "{pieces} pieces: the tables hold at most {} ({e})",
                tb.max_pieces()
            )
        } else {
            format!("not in the tables: {e}")
        }
    })?;
    output::emit(&line);
    if a.moves {
        for &mv in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let v = value(&child).map_err(|e| format!("after {mv}: {e}"))?;
            output::emit(&format!("{} {v}", mv.to_uci(pos.castling_mode())));
            if output::closed() {
                break;
            }
        }
    }
    Ok(())
}
