//! Time management: how long to think about one move.
//!
//! From a clock, the plan is `time / movestogo + ¾ · increment`
//! ([`DEFAULT_MOVES_TO_GO`] moves when `movestogo` is unknown), at most a
//! third of what is left (half on the last move before a time control);
//! one move may never run past half the clock (four fifths on the last
//! move), the hard limit. The GUI's latency (`Move Overhead`) comes off
//! first.
//!
//! The soft limit decides whether to start another iteration. With
//! [`ADJUST`] (on), it moves with the search: a best move that keeps
//! changing, or a score that falls, earns more time; a best move that has
//! stood for several iterations, less. Without [`ADJUST`], no iteration
//! starts past half the plan, since the next one takes longer than all
//! before it together. (The stability scaling and a 30-move default,
//! against 40 before, were kept together: +38 ± 21 Elo at 2+0.02, SPRT 11
//! in docs/STRENGTH.md; the default is 22 since row 36.)
//!
//! `go movetime T` uses the whole of `T` less the overhead, stopping in the
//! middle of an iteration when the time is up.

use std::time::Duration;

/// The time limits of one search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeManager {
    /// The planned time; `None` means no time limit on iterations.
    optimum: Option<Duration>,
    /// Stop in the middle of an iteration after this long.
    hard: Option<Duration>,
}

/// What the last iterations said, for the soft limit.
#[derive(Copy, Clone, Debug, Default)]
pub struct Stability {
    /// Iterations in a row with the same best move.
    pub best_move_iterations: u32,
    /// The score of the last iteration less that of the one before (a
    /// negative number: the score fell).
    pub score_change: i32,
}

/// Scale the soft limit by the search's stability (see the module docs).
pub const ADJUST: bool = true;

/// The moves a plan spreads the clock over when the GUI does not say.
/// 40 → 30 was part of docs/STRENGTH.md row 11; 30 → 22 (about a third
/// more time per move early on, less held back for late in the game) won
/// +28 ± 17 over 748 games at 2+0.02 (row 36).
pub const DEFAULT_MOVES_TO_GO: u64 = 22;

impl TimeManager {
    /// No time limit (depth, nodes, mate or `infinite` decide).
    pub fn unlimited() -> TimeManager {
        TimeManager::default()
    }

    /// Exactly `movetime` ms less `overhead` (at least 1 ms).
    pub fn fixed(movetime: u64, overhead: u64) -> TimeManager {
        TimeManager {
            optimum: None,
            hard: Some(Duration::from_millis(
                movetime.saturating_sub(overhead).max(1),
            )),
        }
    }

    /// Limits from a clock: `time` left and `inc` per move, in ms.
    pub fn from_clock(time: u64, inc: u64, movestogo: Option<u64>, overhead: u64) -> TimeManager {
        let left = time.saturating_sub(overhead).max(1);
        let mtg = movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 60);
        let (soft_cap, hard_cap) = if mtg == 1 {
            (left / 2, left * 4 / 5)
        } else {
            (left / 3, left / 2)
        };
        // GUIs may send any number: saturate rather than overflow.
        let optimum = (left / mtg)
            .saturating_add(inc / 4 * 3)
            .min(soft_cap)
            .max(1);
        let hard = optimum.saturating_mul(3).min(hard_cap).max(1);
        TimeManager {
            optimum: Some(Duration::from_millis(optimum)),
            hard: Some(Duration::from_millis(hard)),
        }
    }

    /// The limit that stops a search in mid-iteration.
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// The planned time, if the search plays under a clock.
    pub fn optimum(&self) -> Option<Duration> {
        self.optimum
    }

    /// May another iteration start after `elapsed`?
    pub fn another_iteration(&self, elapsed: Duration, stability: Stability) -> bool {
        let Some(optimum) = self.optimum else {
            return true;
        };
        let scale = if ADJUST {
            let stable = match stability.best_move_iterations {
                0 | 1 => 1.4,
                2 => 1.1,
                3 => 0.9,
                _ => 0.75,
            };
            let falling = (1.0 - f64::from(stability.score_change.min(0)) / 100.0).min(1.6);
            0.55 * stable * falling
        } else {
            0.5
        };
        elapsed.as_secs_f64() < optimum.as_secs_f64() * scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_safe() {
        for (t, inc, mtg) in [
            (1000, 10, None),
            (50, 0, None),
            (1, 0, Some(1)),
            (60_000, 0, Some(1)),
            (u64::MAX, u64::MAX, Some(u64::MAX)),
        ] {
            let tm = TimeManager::from_clock(t, inc, mtg, 30);
            let (soft, hard) = (tm.optimum().unwrap(), tm.hard().unwrap());
            assert!(soft <= hard);
            assert!(
                hard.as_millis() as u64 <= t.max(1),
                "{t} {inc} {mtg:?}: {hard:?}"
            );
        }
    }

    #[test]
    fn a_changing_best_move_earns_more_time_than_a_stable_one() {
        // Plan: 60 s / 30 moves = 2 s; the soft limit is a fraction of it.
        let tm = TimeManager::from_clock(60_000, 0, Some(30), 0);
        let at = |iterations: u32, ms: u64| {
            let stability = Stability {
                best_move_iterations: iterations,
                score_change: 0,
            };
            tm.another_iteration(Duration::from_millis(ms), stability)
        };
        // 0.55 × 1.1 × 2 s = 1.21 s after two iterations with one move.
        assert!(at(2, 1200) && !at(2, 1220));
        // 0.55 × 1.4 × 2 s = 1.54 s when it just changed; 0.825 s when
        // it stood for four iterations.
        assert!(at(0, 1530) && !at(0, 1550));
        assert!(at(4, 820) && !at(4, 830));
    }

    #[test]
    fn without_movestogo_the_clock_is_planned_over_the_default() {
        let plan = |mtg| TimeManager::from_clock(60_000, 1000, mtg, 0).optimum();
        assert_eq!(plan(None), plan(Some(DEFAULT_MOVES_TO_GO)));
        assert_eq!(
            plan(None),
            Some(Duration::from_millis(60_000 / DEFAULT_MOVES_TO_GO + 750))
        );
    }

    #[test]
    fn movetime_uses_the_whole_time() {
        let tm = TimeManager::fixed(1000, 30);
        assert_eq!(tm.hard(), Some(Duration::from_millis(970)));
        assert!(tm.another_iteration(Duration::from_millis(960), Stability::default()));
        assert_eq!(
            TimeManager::fixed(10, 30).hard(),
            Some(Duration::from_millis(1))
        );
    }
}
