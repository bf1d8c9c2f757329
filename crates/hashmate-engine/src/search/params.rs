//! Every tunable constant of the search, named in one place.
//!
//! Margins are in centipawns, depths in plies. Each constant has one line:
//! what it is, and the row of docs/STRENGTH.md that measured it (a
//! rejected experiment is deleted; STRENGTH.md keeps its verdict and the
//! commit that held its code).
//!
//! The numeric parameters are declared once, in `params!`, with a
//! default, a range and an SPSA step. A plain build compiles each to a
//! constant ([`Param::get`] folds away); a build with the `tune` feature
//! keeps them in atomics, lists them as UCI spin options (`setoption name
//! RFP_MARGIN value 80`) and prints them in OpenBench's SPSA input format
//! (`hashmate tunables`), so that an SPSA driver can fit them by self-play.
//! Two SPSA runs left the defaults standing (rows 70 and 83).

/// A search parameter's value: a constant in a plain build.
#[cfg(not(feature = "tune"))]
#[derive(Debug)]
pub struct Param(i32);

#[cfg(not(feature = "tune"))]
impl Param {
    /// The value.
    #[inline(always)]
    pub const fn get(&self) -> i32 {
        self.0
    }
}

/// A search parameter's value: settable at run time in a tuning build.
#[cfg(feature = "tune")]
#[derive(Debug)]
pub struct Param(std::sync::atomic::AtomicI32);

#[cfg(feature = "tune")]
impl Param {
    /// The value.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Set the value (`setoption`; searches started later see it).
    pub fn set(&self, v: i32) {
        self.0.store(v, std::sync::atomic::Ordering::Relaxed);
    }
}

/// One tunable parameter: its name, value, default, range and SPSA step.
#[derive(Debug)]
pub struct Tunable {
    /// The constant's name, which is also the UCI option's.
    pub name: &'static str,
    /// The value.
    pub param: &'static Param,
    /// Default (the value of a plain build).
    pub default: i32,
    /// Smallest value.
    pub min: i32,
    /// Largest value.
    pub max: i32,
    /// SPSA's final perturbation (`C_END`).
    pub step: i32,
}

/// Declare the tunable parameters: each becomes a constant (or, under the
/// `tune` feature, a static atomic) and a row of [`TUNABLES`].
macro_rules! params {
    ($($(#[$doc:meta])* $name:ident = $default:literal, $min:literal..=$max:literal, step $step:literal;)*) => {
        $(
            $(#[$doc])*
            #[cfg(not(feature = "tune"))]
            pub const $name: Param = Param($default);
            $(#[$doc])*
            #[cfg(feature = "tune")]
            pub static $name: Param = Param(std::sync::atomic::AtomicI32::new($default));
        )*

        /// Every tunable parameter, in declaration order.
        pub static TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            param: &$name,
            default: $default,
            min: $min,
            max: $max,
            step: $step,
        }),*];
    };
}

/// The parameters in OpenBench's SPSA input format, one a line:
/// `NAME, int, VALUE, MIN, MAX, C_END, R_END` (R_END 0.002, OpenBench's
/// usual learning rate).
pub fn spsa_input() -> String {
    TUNABLES
        .iter()
        .map(|t| {
            format!(
                "{}, int, {}, {}, {}, {}, 0.002\n",
                t.name,
                t.param.get(),
                t.min,
                t.max,
                t.step
            )
        })
        .collect()
}

/// Correction history: the most a correction entry holds, centipawns (row 56).
pub const CORRECTION_LIMIT: i32 = 64;
/// Correction history: an update moves `min(depth + 1, this) / 256` of the way (row 53).
pub const CORRECTION_MAX_WEIGHT: i32 = 16;

params! {
    /// Aspiration: first half-window around the last score, doubled per fail (row 66).
    ASPIRATION_DELTA = 15, 5..=60, step 3;
    /// Aspiration: windows from this depth (row 66).
    ASPIRATION_DEPTH = 5, 1..=10, step 1;
    /// Aspiration: past this half-window, an open window (row 66).
    ASPIRATION_MAX = 1000, 200..=3000, step 100;
    /// Reverse futility: at most this depth (row 29).
    RFP_DEPTH = 6, 2..=12, step 1;
    /// Reverse futility: margin per ply, one ply less when improving (rows 29, 83).
    RFP_MARGIN = 90, 30..=200, step 8;
    /// Null move: from this depth (row 06).
    NMP_DEPTH = 3, 1..=6, step 1;
    /// Null move: reduction `BASE + depth / DIVISOR + min(3, (eval − beta) / EVAL_DIVISOR)` (row 06).
    NMP_BASE = 3, 1..=6, step 1;
    /// Null move: see `NMP_BASE` (row 06).
    NMP_DIVISOR = 4, 2..=8, step 1;
    /// Null move: see `NMP_BASE` (rows 06, 83).
    NMP_EVAL_DIVISOR = 200, 80..=400, step 15;
    /// ProbCut: from this depth (row 34).
    PROBCUT_DEPTH = 5, 3..=10, step 1;
    /// ProbCut: a capture beating beta by this much cuts (rows 34, 83).
    PROBCUT_MARGIN = 200, 80..=400, step 15;
    /// ProbCut: its search is this many plies shallower (row 34).
    PROBCUT_REDUCTION = 4, 2..=6, step 1;
    /// Internal iterative reduction: from this depth, one ply off without a table move (row 06).
    IIR_DEPTH = 4, 2..=8, step 1;
    /// Late-move pruning: at most this depth (rows 32, 33, 49: deeper measured level).
    LMP_DEPTH = 3, 1..=8, step 1;
    /// Late-move pruning: up to this depth every late quiet goes; above it checks stay (row 33).
    LMP_ALL_QUIETS_DEPTH = 3, 1..=8, step 1;
    /// Late-move pruning: quiets kept `BASE + SCALE × depth²`, halved when not improving (row 29).
    LMP_BASE = 3, 0..=10, step 1;
    /// Late-move pruning: see `LMP_BASE` (row 29).
    LMP_SCALE = 2, 1..=4, step 1;
    /// Futility: at most this depth (row 42).
    FP_DEPTH = 3, 1..=8, step 1;
    /// Futility: a quiet non-check is skipped below `eval + BASE + MARGIN × depth` (row 83).
    FP_BASE = 90, 0..=250, step 10;
    /// Futility: see `FP_BASE` (rows 70, 83).
    FP_MARGIN = 110, 40..=250, step 10;
    /// SEE pruning: at most this depth (row 06).
    SEE_DEPTH = 8, 2..=12, step 1;
    /// SEE pruning: a quiet move losing more than this × depth is skipped (rows 70, 83).
    SEE_QUIET = 60, 20..=150, step 6;
    /// SEE pruning: a capture losing more than this × depth² is skipped (row 83).
    SEE_NOISY = 25, 5..=80, step 4;
    /// Singular extensions: from this depth (row 25).
    SINGULAR_DEPTH = 6, 4..=10, step 1;
    /// Singular extensions: the margin, × depth / 16 (rows 25, 83).
    SINGULAR_MARGIN = 32, 8..=64, step 3;
    /// Singular extensions: extended twice when beaten by this much more (row 83).
    DOUBLE_EXTENSION_MARGIN = 20, 5..=60, step 3;
    /// Singular extensions: at most this many double extensions on a line (row 25).
    DOUBLE_EXTENSIONS = 6, 0..=12, step 1;
    /// Late-move reductions: `BASE + ln(depth)·ln(moves) / DIVISOR`, hundredths (rows 09, 40).
    LMR_BASE = 75, 25..=150, step 5;
    /// Late-move reductions: see `LMR_BASE`, hundredths (row 70).
    LMR_DIVISOR = 225, 150..=350, step 10;
    /// Late-move reductions: moves at full depth first at PV nodes (row 09).
    LMR_FIRST_PV = 4, 1..=8, step 1;
    /// Late-move reductions: moves at full depth first elsewhere (row 09).
    LMR_FIRST = 2, 1..=6, step 1;
    /// History bonus: `LINEAR × depth + SCALE × depth² + BASE`, at most `MAX` (row 48).
    HISTORY_BONUS_LINEAR = 0, 0..=300, step 15;
    /// History bonus: see `HISTORY_BONUS_LINEAR` (row 48).
    HISTORY_BONUS_SCALE = 16, 0..=48, step 2;
    /// History bonus: see `HISTORY_BONUS_LINEAR` (row 48).
    HISTORY_BONUS_BASE = 32, -200..=200, step 15;
    /// History bonus: its cap (row 48).
    HISTORY_BONUS_MAX = 1600, 800..=4000, step 100;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_is_declared_sanely() {
        assert!(TUNABLES.len() >= 30);
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.step > 0 && t.step <= t.max - t.min, "{t:?}");
            assert_eq!(t.param.get(), t.default, "{}", t.name);
            assert!(TUNABLES[i + 1..].iter().all(|u| u.name != t.name));
        }
    }

    #[test]
    fn spsa_input_is_openbench_s_format() {
        let text = spsa_input();
        assert_eq!(text.lines().count(), TUNABLES.len());
        let first = text.lines().next().unwrap();
        let fields: Vec<&str> = first.split(", ").collect();
        assert_eq!(fields.len(), 7, "{first}");
        assert_eq!((fields[0], fields[1]), (TUNABLES[0].name, "int"));
        assert!(
            fields[2..].iter().all(|f| f.parse::<f64>().is_ok()),
            "{first}"
        );
    }
}
