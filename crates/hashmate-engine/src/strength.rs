//! Limited strength (`UCI_LimitStrength`, `UCI_Elo`): a weaker player, not
//! a strong one that blunders at random.
//!
//! Two things weaken the engine, both set by the Elo asked for:
//! - **a smaller search**: a node budget per move, so that a weaker level
//!   sees fewer plies and misses deeper tactics, as weaker players do;
//! - **a softened choice**: the search looks at the best [`CANDIDATES`]
//!   root moves (MultiPV) and one is drawn with a probability falling off
//!   exponentially with its loss against the best (a *temperature* in
//!   centipawns). A move that loses more than [`MAX_LOSS`] against the
//!   best is never drawn, and a mate or a tablebase win that the search
//!   found is always played: a recapture, a hanging queen, a mate in one
//!   are not passed over when the search sees them.
//!
//! The ladder below maps Elo to the two; it was set by matches against
//! Stockfish 15.1 at the same `UCI_Elo` (docs/STRENGTH.md, "Limited
//! strength"). From [`ELO_MAX`] up the engine plays at full strength.
//! `Skill Level` (0–20) names a level of the same ladder ([`skill_elo`]).

use crate::search::{Listener, SearchInfo, TB_BOUND};
use hashmate::Move;
use hashmate_hash::rng::SplitMix64;

/// The lowest `UCI_Elo`.
pub const ELO_MIN: i32 = 1320;
/// The highest `UCI_Elo`: full strength, no limit.
pub const ELO_MAX: i32 = 3000;

/// The highest `Skill Level`: full strength.
pub const SKILL_MAX: i32 = 20;

/// The `UCI_Elo` a `Skill Level` plays at (clamped to `0..=SKILL_MAX`): the
/// levels spread evenly over the ladder, 0 at [`ELO_MIN`], each step 84
/// Elo, [`SKILL_MAX`] at [`ELO_MAX`] (full strength). Stockfish's GUIs and
/// bots set `Skill Level` where they do not set `UCI_Elo`; the scale is
/// this engine's own, calibrated only through `UCI_Elo`.
pub const fn skill_elo(level: i32) -> i32 {
    let level = if level < 0 {
        0
    } else if level > SKILL_MAX {
        SKILL_MAX
    } else {
        level
    };
    ELO_MIN + (ELO_MAX - ELO_MIN) * level / SKILL_MAX
}

/// Root moves searched (MultiPV) for the softened choice.
pub const CANDIDATES: usize = 4;

/// The most centipawns a drawn move may lose against the best one.
pub const MAX_LOSS: i32 = 150;

/// (Elo, nodes per move, temperature in centipawns): between two rows the
/// nodes grow geometrically and the temperature falls linearly. Calibrated
/// in docs/STRENGTH.md, "Limited strength".
const LADDER: &[(i32, u64, i32)] = &[
    (ELO_MIN, 40, 140),
    (1500, 800, 50),
    (2000, 28_000, 18),
    (2500, 600_000, 0),
    (2800, 1_000_000, 0),
    (ELO_MAX, 2_500_000, 0),
];

/// One level of limited strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: i32,
}

impl Strength {
    /// The level for `UCI_Elo` `elo` (clamped to [`ELO_MIN`]..=[`ELO_MAX`]);
    /// `None` at [`ELO_MAX`]: full strength.
    pub fn new(elo: i32) -> Option<Strength> {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        (elo < ELO_MAX).then_some(Strength { elo })
    }

    /// The Elo of this level.
    pub fn elo(self) -> i32 {
        self.elo
    }

    /// The two ladder rows around this level and where it lies between
    /// them (0 at the lower, 1 at the upper).
    fn rows(self) -> ((i32, u64, i32), (i32, u64, i32), f64) {
        let i = LADDER
            .windows(2)
            .position(|w| self.elo < w[1].0)
            .unwrap_or(LADDER.len() - 2);
        let (lo, hi) = (LADDER[i], LADDER[i + 1]);
        let t = f64::from(self.elo - lo.0) / f64::from(hi.0 - lo.0);
        (lo, hi, t.clamp(0.0, 1.0))
    }

    /// Nodes a move may search.
    pub fn nodes(self) -> u64 {
        let (lo, hi, t) = self.rows();
        let (a, b) = ((lo.1 as f64).ln(), (hi.1 as f64).ln());
        (a + (b - a) * t).exp().round() as u64
    }

    /// Root moves to search (MultiPV): [`CANDIDATES`] at a temperature of
    /// 16 centipawns or more, fewer as it cools (each line searched costs
    /// nodes the others lack), one at 5 or less, where the best is played.
    pub fn candidates(self) -> usize {
        ((self.temperature() + 4) / 5).clamp(1, CANDIDATES as i32) as usize
    }

    /// The temperature of the choice, in centipawns (0: the best move).
    pub fn temperature(self) -> i32 {
        let (lo, hi, t) = self.rows();
        (f64::from(lo.2) + f64::from(hi.2 - lo.2) * t).round() as i32
    }

    /// The move to play among `lines` (each root move searched with its
    /// score and the expected reply), drawn with `rng`: the best where it
    /// mates or wins a tablebase ending or one candidate is searched, else one
    /// within [`MAX_LOSS`] of the best, with weight
    /// `exp(-(best - score) / temperature)`. `None` without lines.
    pub fn choose(self, lines: &[Line], rng: &mut SplitMix64) -> Option<Line> {
        let best = *lines.iter().max_by_key(|l| l.score)?;
        let t = self.temperature();
        // (Mates score above every tablebase win; one candidate means a
        // temperature of 5 cp or less, and a drawn move then is the best.)
        if self.candidates() == 1 || best.score >= TB_BOUND {
            return Some(best);
        }
        let weight = |l: &Line| {
            let loss = best.score - l.score;
            if loss > MAX_LOSS {
                0.0
            } else {
                (-f64::from(loss) / f64::from(t)).exp()
            }
        };
        let total: f64 = lines.iter().map(weight).sum();
        // 53 random bits as a fraction of the total weight.
        let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for l in lines {
            let w = weight(l);
            if draw < w {
                return Some(*l);
            }
            draw -= w;
        }
        Some(best)
    }
}

/// One root move as the search left it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// The root move.
    pub mv: Move,
    /// The reply the search expects.
    pub reply: Option<Move>,
    /// Its score, from the side to move's view.
    pub score: i32,
}

/// A [`Listener`] that passes every report on to `inner` and keeps the
/// root moves of the deepest iteration whose `expected` lines all
/// completed.
pub struct LineRecorder<'a> {
    inner: &'a mut dyn Listener,
    expected: usize,
    current: (u32, Vec<Line>),
    complete: Vec<Line>,
}

impl<'a> LineRecorder<'a> {
    /// Record the `expected` lines of each iteration, reporting to
    /// `inner`.
    pub fn new(inner: &'a mut dyn Listener, expected: usize) -> LineRecorder<'a> {
        LineRecorder {
            inner,
            expected: expected.max(1),
            current: (0, Vec::new()),
            complete: Vec::new(),
        }
    }

    /// The lines of the deepest complete iteration.
    pub fn lines(&self) -> &[Line] {
        &self.complete
    }
}

impl Listener for LineRecorder<'_> {
    fn info(&mut self, info: &SearchInfo) {
        self.inner.info(info);
        let Some(&mv) = info.pv.first() else { return };
        if info.bound.is_some() {
            return;
        }
        if info.multipv == 1 || info.depth != self.current.0 {
            self.current = (info.depth, Vec::new());
        }
        self.current.1.push(Line {
            mv,
            reply: info.pv.get(1).copied(),
            score: info.score,
        });
        if self.current.1.len() == self.expected {
            self.complete = self.current.1.clone();
        }
    }

    fn currmove(&mut self, depth: u32, mv: Move, number: usize) {
        self.inner.currmove(depth, mv, number);
    }

    fn message(&mut self, text: &str) {
        self.inner.message(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;
    use hashmate::Position;

    #[test]
    fn skill_levels_spread_over_the_ladder() {
        assert_eq!(skill_elo(0), ELO_MIN);
        assert_eq!(skill_elo(10), 2160);
        assert_eq!(skill_elo(SKILL_MAX), ELO_MAX);
        assert_eq!(skill_elo(-3), ELO_MIN);
        assert_eq!(skill_elo(99), ELO_MAX);
        let elos: Vec<i32> = (0..=SKILL_MAX).map(skill_elo).collect();
        assert!(elos.windows(2).all(|w| w[1] - w[0] == 84), "{elos:?}");
        // Every level below the top is limited; the top is not.
        assert!((0..SKILL_MAX).all(|l| Strength::new(skill_elo(l)).is_some()));
        assert_eq!(Strength::new(skill_elo(SKILL_MAX)), None);
    }

    fn lines(scores: &[i32]) -> Vec<Line> {
        let moves = Position::startpos().legal_moves();
        scores
            .iter()
            .zip(moves.iter())
            .map(|(&score, &mv)| Line {
                mv,
                reply: None,
                score,
            })
            .collect()
    }

    #[test]
    fn the_ladder_is_monotone_and_ends_at_full_strength() {
        let mut last = (0, i32::MAX, CANDIDATES);
        for elo in ELO_MIN..ELO_MAX {
            let s = Strength::new(elo).unwrap();
            assert!(s.nodes() >= last.0, "{elo}: nodes fall");
            assert!(s.temperature() <= last.1, "{elo}: temperature rises");
            assert!(s.candidates() <= last.2, "{elo}: more candidates");
            last = (s.nodes(), s.temperature(), s.candidates());
        }
        assert_eq!(Strength::new(ELO_MAX), None);
        assert_eq!(Strength::new(99_999), None);
        assert_eq!(Strength::new(0).unwrap().elo(), ELO_MIN);
        for &(elo, nodes, t) in LADDER.iter().take(LADDER.len() - 1) {
            let s = Strength::new(elo).unwrap();
            assert_eq!((s.nodes(), s.temperature()), (nodes, t), "{elo}");
        }
    }

    #[test]
    fn a_mate_or_a_large_gain_is_never_passed_over() {
        let weakest = Strength::new(ELO_MIN).unwrap();
        let mut rng = SplitMix64::new(1);
        let mate = lines(&[-20, MATE - 1, 0, 10]);
        let recapture = lines(&[-250, 0, -300, -400]);
        for _ in 0..2000 {
            assert_eq!(weakest.choose(&mate, &mut rng), Some(mate[1]));
            assert_eq!(weakest.choose(&recapture, &mut rng), Some(recapture[1]));
        }
        assert_eq!(weakest.choose(&[], &mut rng), None);
    }

    #[test]
    fn near_best_moves_are_drawn_by_their_loss() {
        let weakest = Strength::new(ELO_MIN).unwrap();
        // 2800: no temperature; 2450: a little, with a single candidate.
        let strong = Strength::new(2800).unwrap();
        let cool = Strength::new(2450).unwrap();
        assert!(cool.temperature() > 0 && cool.candidates() == 1);
        let four = lines(&[30, 20, -40, -119]);
        let mut rng = SplitMix64::new(7);
        let mut drawn = [0u32; 4];
        for _ in 0..20_000 {
            let l = weakest.choose(&four, &mut rng).unwrap();
            drawn[four.iter().position(|x| *x == l).unwrap()] += 1;
            assert_eq!(strong.choose(&four, &mut rng), Some(four[0]));
            assert_eq!(cool.choose(&four, &mut rng), Some(four[0]));
        }
        // Weights exp(-loss / t): each move as often as its weight says,
        // and a smaller loss more often.
        let t = f64::from(weakest.temperature());
        let w: Vec<f64> = [0, 10, 70, 149]
            .iter()
            .map(|&l| (-f64::from(l) / t).exp())
            .collect();
        let sum: f64 = w.iter().sum();
        for i in 0..4 {
            let want = 20_000.0 * w[i] / sum;
            let got = f64::from(drawn[i]);
            assert!(
                (got - want).abs() < 5.0 * want.sqrt() + 10.0,
                "{i}: {got} vs {want}"
            );
        }
        assert!(drawn.windows(2).all(|p| p[0] > p[1]), "{drawn:?}");
    }
}
