//! What a search prints: the job that runs it on the runner thread, its
//! `info` lines (with `wdl` under `UCI_ShowWDL`), and the `bestmove` line.

use crate::output;
use crate::search::{self, mate_in, Limits, Listener, SearchInfo, SearchTable, Shared};
use crate::strength::{LineRecorder, Strength};
use hashmate::tt::Bound;
use hashmate::{CastlingMode, Move, Position};
use hashmate_hash::rng::SplitMix64;
use std::sync::Arc;

/// A search as the UCI loop starts it on its own thread.
pub(super) struct SearchJob {
    pub(super) pos: Position,
    pub(super) history: Vec<u64>,
    pub(super) limits: Limits,
    pub(super) threads: usize,
    /// A limited strength (`UCI_LimitStrength`): the move is drawn from
    /// the search's best lines.
    pub(super) strength: Option<Strength>,
    pub(super) infinite: bool,
    pub(super) mode: CastlingMode,
    pub(super) show_wdl: bool,
}

impl SearchJob {
    /// Search, report, and end with the `bestmove` line.
    pub(super) fn run<T: SearchTable + Send + 'static>(self, shared: &Arc<Shared<T>>) {
        let mut listener = Printer {
            pos: self.pos.clone(),
            mode: self.mode,
            show_wdl: self.show_wdl,
        };
        let search = |listener: &mut dyn Listener| {
            search::search(
                &self.pos,
                &self.history,
                &self.limits,
                shared,
                self.threads,
                listener,
            )
        };
        // A search that panics (a bug) must still answer: the GUI waits
        // for its `bestmove`. The panic is on stderr (the standard hook);
        // the answer is the first legal move.
        let searched =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match self.strength {
                None => search(&mut listener),
                Some(strength) => {
                    let roots = self
                        .pos
                        .legal_moves()
                        .iter()
                        .filter(|m| {
                            self.limits.searchmoves.is_empty()
                                || self.limits.searchmoves.contains(m)
                        })
                        .count();
                    let mut recorder =
                        LineRecorder::new(&mut listener, self.limits.multipv.min(roots));
                    let mut result = search(&mut recorder);
                    // Seeded by the clock and the position: another game,
                    // another choice.
                    let nanos = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_nanos() as u64);
                    let mut rng = SplitMix64::new(nanos ^ self.pos.key());
                    if let Some(line) = strength.choose(recorder.lines(), &mut rng) {
                        result.best = Some(line.mv);
                        result.ponder = line.reply;
                    }
                    result
                }
            }));
        let result = searched.unwrap_or_else(|_| {
            // Helper threads still searching are told to end.
            shared.control.stop_search();
            output::emit(
                "info string error: the search failed (see stderr); playing the first legal move",
            );
            search::SearchResult::unsearched(self.pos.legal_moves().first().copied())
        });
        // UCI: no bestmove before `stop` in infinite mode, nor before
        // `ponderhit` or `stop` while pondering.
        shared.control.wait_for_release(self.infinite);
        output::emit(&bestmove(&self.pos, &result, self.mode));
    }
}

/// The `bestmove` line of a finished search (after an `info … score` line
/// when the side to move is mated or stalemated and there is no move).
pub(super) fn bestmove(
    pos: &Position,
    result: &search::SearchResult,
    mode: CastlingMode,
) -> String {
    let Some(best) = result.best else {
        let score = if pos.is_check() { "mate 0" } else { "cp 0" };
        output::emit(&format!("info depth 0 score {score}"));
        return "bestmove 0000".to_string();
    };
    let mut line = format!("bestmove {}", best.to_uci(mode));
    if let Some(p) = result.ponder {
        let mut after = pos.clone();
        after.play_unchecked(best);
        if after.is_legal(p) {
            line.push_str(&format!(" ponder {}", p.to_uci(mode)));
        }
    }
    line
}

/// Prints `info` lines.
struct Printer {
    pos: Position,
    mode: CastlingMode,
    /// Add ` wdl W D L` after the score (`UCI_ShowWDL`).
    show_wdl: bool,
}

/// Win, draw and loss per mille for the side to move at the root: sure
/// for a mate or a tablebase result, else the fitted model's
/// ([`crate::eval::wdl`]).
pub fn wdl_per_mille(score: i32, pos: &Position) -> [u32; 3] {
    use crate::eval::wdl::{material, MODEL};
    if score >= search::TB_BOUND {
        [1000, 0, 0]
    } else if score <= -search::TB_BOUND {
        [0, 0, 1000]
    } else {
        MODEL.per_mille(f64::from(score), material(pos))
    }
}

impl Listener for Printer {
    fn info(&mut self, i: &SearchInfo) {
        let score = match mate_in(i.score) {
            Some(m) => format!("mate {m}"),
            None => format!("cp {}", i.score),
        };
        let score = if self.show_wdl {
            let [w, d, l] = wdl_per_mille(i.score, &self.pos);
            format!("{score} wdl {w} {d} {l}")
        } else {
            score
        };
        let bound = match i.bound {
            Some(Bound::Lower) => " lowerbound",
            Some(Bound::Upper) => " upperbound",
            _ => "",
        };
        let ms = i.time.as_millis().max(1) as u64;
        let mut pv = String::new();
        let mut p = self.pos.clone();
        for &m in &i.pv {
            if p.try_play(m).is_err() {
                break;
            }
            pv.push(' ');
            pv.push_str(&m.to_uci(self.mode).to_string());
        }
        output::emit(&format!(
            "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} tbhits {} time {} pv{pv}",
            i.depth,
            i.seldepth.max(i.depth),
            i.multipv,
            i.nodes,
            i.nodes * 1000 / ms,
            i.hashfull,
            i.tbhits,
            i.time.as_millis(),
        ));
    }

    fn currmove(&mut self, depth: u32, mv: Move, number: usize) {
        output::emit(&format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            mv.to_uci(self.mode)
        ));
    }

    fn message(&mut self, text: &str) {
        output::emit(&format!("info string {text}"));
    }
}
