//! The win/draw/loss model: how often a position with a given search score
//! is won, drawn and lost, fitted on the engine's own games (the UCI
//! option `UCI_ShowWDL`).
//!
//! The model is logistic in the score, with the material on the board as
//! a second input, the form Stockfish uses:
//!
//! ```text
//! P(win)  = σ((v − a(m)) / b(m))
//! P(loss) = σ((−v − a(m)) / b(m))
//! P(draw) = 1 − P(win) − P(loss)
//! ```
//!
//! `v` is the score in centipawns from the side to move's view; `m` the
//! material (pawn 1, knight and bishop 3, rook 5, queen 9, both sides,
//! clamped to 17–78) divided by 58; `a` and `b` are cubic polynomials in
//! `m`. `a(m)` is the score at which a win and a draw are equally likely,
//! `b(m)` how quickly the outcome follows the score. In the engine's games
//! `a` falls from about 440 cp in bare endings to about 200 cp with all
//! pieces on: an ending's advantage holds for a draw more often.
//!
//! The coefficients of [`MODEL`] come from `hashmate wdl-fit`
//! (docs/STRENGTH.md, "Win/draw/loss model", has the data, the command and
//! the calibration on held-out games).

use hashmate::{Position, Role};

/// A fitted model: the coefficients of `a(m)` and `b(m)`, constant term
/// first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a(m) = a[0] + a[1]·m + a[2]·m² + a[3]·m³`, centipawns.
    pub a: [f64; 4],
    /// `b(m)`, centipawns.
    pub b: [f64; 4],
}

/// The model of the embedded network's games (docs/STRENGTH.md).
pub const MODEL: WdlModel = WdlModel {
    a: [525.539, -208.436, -398.564, 278.743],
    b: [107.584, 128.912, 54.665, -56.567],
};

/// The least and the most material the model distinguishes.
pub const MATERIAL_RANGE: (u32, u32) = (17, 78);

/// The material on the board: pawn 1, knight and bishop 3, rook 5, queen
/// 9, both sides together (kings not counted).
pub fn material(pos: &Position) -> u32 {
    let count = |r| pos.by_role(r).count();
    count(Role::Pawn)
        + 3 * (count(Role::Knight) + count(Role::Bishop))
        + 5 * count(Role::Rook)
        + 9 * count(Role::Queen)
}

/// `m`: the material clamped to [`MATERIAL_RANGE`], over 58.
pub fn material_input(material: u32) -> f64 {
    f64::from(material.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1)) / 58.0
}

fn poly(c: &[f64; 4], m: f64) -> f64 {
    ((c[3] * m + c[2]) * m + c[1]) * m + c[0]
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel {
    /// `(a(m), b(m))` for the material input `m`.
    pub fn params(&self, m: f64) -> (f64, f64) {
        (poly(&self.a, m), poly(&self.b, m))
    }

    /// Probabilities of a win, a draw and a loss for the side to move, at
    /// `score` centipawns (its view) with `material` on the board.
    pub fn probabilities(&self, score: f64, material: u32) -> [f64; 3] {
        let (a, b) = self.params(material_input(material));
        let b = b.max(1.0);
        let win = sigmoid((score - a) / b);
        let loss = sigmoid((-score - a) / b);
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// The same in per mille, rounded so that the three sum to 1000.
    pub fn per_mille(&self, score: f64, material: u32) -> [u32; 3] {
        let [w, _, l] = self.probabilities(score, material);
        let win = (w * 1000.0).round() as u32;
        let loss = ((l * 1000.0).round() as u32).min(1000 - win);
        [win, 1000 - win - loss, loss]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_mille_sums_to_1000_and_is_symmetric() {
        for material in [0, 17, 40, 78, 100] {
            for score in (-3000..=3000).step_by(7) {
                let [w, d, l] = MODEL.per_mille(f64::from(score), material);
                assert_eq!(w + d + l, 1000, "{score} {material}");
                let [w2, _, l2] = MODEL.per_mille(f64::from(-score), material);
                assert!(w.abs_diff(l2) <= 1 && l.abs_diff(w2) <= 1, "{score}");
            }
        }
    }

    #[test]
    fn a_better_score_wins_more_and_loses_less() {
        for material in [17, 40, 78] {
            let mut last = MODEL.probabilities(-2000.0, material);
            for score in (-1990..=2000).step_by(10) {
                let p = MODEL.probabilities(f64::from(score), material);
                assert!(p[0] >= last[0] && p[2] <= last[2], "{score} {material}");
                last = p;
            }
            let even = MODEL.probabilities(0.0, material);
            assert!(even[1] > even[0], "an even score is mostly a draw");
        }
    }

    #[test]
    fn material_counts_the_pieces_of_both_sides() {
        assert_eq!(material(&Position::startpos()), 78);
        let kpk: Position = "8/8/4k3/8/8/4P3/8/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(material(&kpk), 1);
        assert_eq!(material_input(1), 17.0 / 58.0);
    }
}
