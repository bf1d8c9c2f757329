//! Every tunable constant of the search, named in one place.
//!
//! Margins are in centipawns, depths in plies. Each heuristic that plays
//! has its constants here, with the match that kept it; a rejected
//! experiment is deleted, and docs/STRENGTH.md keeps its verdict and the
//! commit that held its code.
//!
//! The numeric parameters are declared once, in `params!`, with a
//! default, a range and an SPSA step. A plain build compiles each to a
//! constant ([`Param::get`] folds away); a build with the `tune` feature
//! keeps them in atomics, lists them as UCI spin options (`setoption name
//! RFP_MARGIN value 80`) and prints them in OpenBench's SPSA input format
//! (`hashmate tunables`), so that an SPSA driver can fit them by self-play.
//! The first such run (800 iterations on the ten pruning and reduction
//! margins, docs/STRENGTH.md row 70) moved them by one or two units and
//! its SPRT did not decide after 3,362 games: the defaults below stand.
//! A second, with the network as the evaluation (ten margins on the
//! evaluation's scale, 4,000 games, docs/NNUE.md), moved none by more than
//! about one step and measured −1 ± 12 over 1,200 games (row 83): they
//! stand for the network too.

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

// --- Root -----------------------------------------------------------------

// --- Node pruning ---------------------------------------------------------

/// The "improving" flag (static evaluation above that of two plies ago)
/// takes a ply off the RFP margin and loosens late-move pruning; when not
/// improving, late-move pruning keeps half as many quiets. Kept after an
/// SPRT at 2+0.02: +27 ± 17 over 759 games, H1 (docs/STRENGTH.md row 29).
pub const USE_IMPROVING: bool = true;

pub const USE_NMP_EVAL_REDUCTION: bool = true;

/// ProbCut: from `PROBCUT_DEPTH`, a capture that beats beta by
/// `PROBCUT_MARGIN` in a search `PROBCUT_REDUCTION` plies shallower cuts.
/// Bundled with history pruning it lost at 20k nodes (row 07); alone, at
/// 2+0.02: +21 ± 14 over 992 games, H1 (docs/STRENGTH.md row 34).
pub const USE_PROBCUT: bool = true;

/// Internal iterative reduction: without a table move, nodes from
/// `IIR_DEPTH` are searched one ply shallower.
pub const USE_IIR: bool = true;

// --- Move pruning -----------------------------------------------------------

/// Static-exchange pruning in the main search: at depth ≤ `SEE_DEPTH`,
/// quiet moves losing more than `SEE_QUIET × depth` and captures losing
/// more than `SEE_NOISY × depth²` are skipped.
pub const USE_SEE_PRUNING: bool = true;

// --- Extensions and reductions ----------------------------------------------

/// Singular extensions: from `SINGULAR_DEPTH`, a table move whose score
/// beats every alternative by `SINGULAR_MARGIN × depth / 16` is extended,
/// twice when by `DOUBLE_EXTENSION_MARGIN` more (at most
/// `DOUBLE_EXTENSIONS` times on a line). On since SPRT 25 (+42 ± 22 at
/// 2+0.02, depth 6); at 20,000 nodes a move, where depth-8 singular
/// searches were rare, it had measured level (08).
pub const USE_SINGULAR: bool = true;

/// One ply more reduction where the static evaluation is not improving
/// on that of two plies before (the position is likely getting worse).
pub const USE_LMR_IMPROVING: bool = true;

// --- Move ordering ------------------------------------------------------------

// --- Quiescence and evaluation ------------------------------------------------

/// Probe and store the transposition table in quiescence.
pub const USE_QSEARCH_TT: bool = true;
/// Where the table holds a score whose bound says the position is worth
/// more (lower bound) or less (upper bound) than the static evaluation,
/// prune with that score instead (reverse futility, null move, futility,
/// quiescence stand-pat). Level at 20k nodes before the evaluation was
/// corrected (−5 ± 24, row 16); on top of the correction history, at
/// 2+0.02: +15 ± 11 over 1,498 games, H1 (row 57).
pub const USE_TT_EVAL: bool = true;
/// Correct the static evaluation by what searches learned about positions
/// with the same pawns (correction history keyed by the pawn key). It
/// measured level four times (rows 08, 17, 28, 44) while each update
/// compared the search's score with the already corrected evaluation, so
/// that entries settled at half the error; learning from the raw
/// evaluation it won +48 ± 24 at 2+0.02 (row 53, H1). A second table
/// keyed by the material signature lost twice beside it (rows 54, 55) and
/// was removed.
pub const USE_CORRECTION_HISTORY: bool = true;
/// Two more correction tables beside the pawn one, each indexed by the
/// key of one colour's pieces other than pawns; the correction is the sum
/// of the three, which learn it jointly (each update steps all three
/// towards what their sum leaves of the error). +20 ± 14 over 940 games
/// at 2+0.02 (docs/STRENGTH.md row 68, H1).
pub const USE_NON_PAWN_CORRECTION: bool = true;
/// At most this correction, in centipawns; a larger error
/// teaches only this much. 127 measured level with 64: +1 ± 20 over 482
/// games (row 56).
pub const CORRECTION_LIMIT: i32 = 64;
/// An update moves an entry `min(depth + 1, CORRECTION_MAX_WEIGHT)` / 256
/// of the way towards the error it saw: deeper searches teach faster.
pub const CORRECTION_MAX_WEIGHT: i32 = 16;

// --- Tunable parameters -------------------------------------------------------

params! {
    /// First aspiration half-window around the previous iteration's score
    /// (doubled after each fail). 15 against 30: +15 ± 11 over 1,464 games
    /// at 2+0.02 (docs/STRENGTH.md row 66).
    ASPIRATION_DELTA = 15, 5..=60, step 3;
    /// Aspiration windows start at this depth.
    ASPIRATION_DEPTH = 5, 1..=10, step 1;
    /// Past this half-window the search falls back to an open window.
    ASPIRATION_MAX = 1000, 200..=3000, step 100;
    /// Reverse futility pruning: at depth ≤ `RFP_DEPTH`, a static evaluation
    /// `RFP_MARGIN` per ply above beta fails high.
    RFP_DEPTH = 6, 2..=12, step 1;
    RFP_MARGIN = 90, 30..=200, step 8;
    /// Null-move pruning from `NMP_DEPTH`; reduction `NMP_BASE + depth /
    /// NMP_DIVISOR`, plus one per `NMP_EVAL_DIVISOR` of static evaluation above
    /// beta (at most 3) when `USE_NMP_EVAL_REDUCTION`.
    NMP_DEPTH = 3, 1..=6, step 1;
    NMP_BASE = 3, 1..=6, step 1;
    NMP_DIVISOR = 4, 2..=8, step 1;
    NMP_EVAL_DIVISOR = 200, 80..=400, step 15;
    PROBCUT_DEPTH = 5, 3..=10, step 1;
    PROBCUT_MARGIN = 200, 80..=400, step 15;
    PROBCUT_REDUCTION = 4, 2..=6, step 1;
    IIR_DEPTH = 4, 2..=8, step 1;
    /// Late-move pruning: at depth ≤ `LMP_DEPTH`, quiet moves after
    /// `LMP_BASE + LMP_SCALE × depth²` are skipped (half as many when not
    /// improving). Depth 8 with 3 + depth² won SPRT 32 (+33 ± 20 at 2+0.02)
    /// but prunes quiet checks at depths 4–8 and so missed a mate in two at
    /// depth 5 (the `finds_mate_in_two` test). The same with quiet checks
    /// spared above depth 3 (`LMP_ALL_QUIETS_DEPTH`) measured level (SPRT 33,
    /// +5 ± 17 over 747 games), and 32 again on top of 46 too (SPRT 49, +3 ±
    /// 18 over 551 games), so depth 3 stays.
    LMP_DEPTH = 3, 1..=8, step 1;
    /// Up to this depth late-move pruning drops all remaining quiet moves;
    /// above it (to `LMP_DEPTH`) quiet moves that give check are still searched.
    LMP_ALL_QUIETS_DEPTH = 3, 1..=8, step 1;
    LMP_BASE = 3, 0..=10, step 1;
    LMP_SCALE = 2, 1..=4, step 1;
    /// Futility pruning of quiet moves that give no check: at depth ≤
    /// `FP_DEPTH`, when static evaluation + `FP_BASE` + `FP_MARGIN` × depth is
    /// still at most alpha.
    FP_DEPTH = 3, 1..=8, step 1;
    FP_BASE = 90, 0..=250, step 10;
    FP_MARGIN = 110, 40..=250, step 10;
    SEE_DEPTH = 8, 2..=12, step 1;
    SEE_QUIET = 60, 20..=150, step 6;
    SEE_NOISY = 25, 5..=80, step 4;
    SINGULAR_DEPTH = 6, 4..=10, step 1;
    SINGULAR_MARGIN = 32, 8..=64, step 3;
    DOUBLE_EXTENSION_MARGIN = 20, 5..=60, step 3;
    DOUBLE_EXTENSIONS = 6, 0..=12, step 1;
    /// Late-move reductions: `LMR_BASE + ln(depth)·ln(moves) / LMR_DIVISOR`.
    /// A base of 1.0 measured level against 0.75 at 2+0.02 (−1 ± 15 over 871
    /// games, docs/STRENGTH.md row 40).
    /// In hundredths.
    LMR_BASE = 75, 25..=150, step 5;
    /// In hundredths.
    LMR_DIVISOR = 225, 150..=350, step 10;
    /// Moves searched at full depth before reductions begin: at PV nodes,
    /// and at the others.
    LMR_FIRST_PV = 4, 1..=8, step 1;
    /// See [`LMR_FIRST_PV`].
    LMR_FIRST = 2, 1..=6, step 1;
    /// History bonus for a move that caused a cut-off at `depth`:
    /// `HISTORY_BONUS_LINEAR × depth + HISTORY_BONUS_SCALE × depth² +
    /// HISTORY_BONUS_BASE`, at most `HISTORY_BONUS_MAX` (and at least 1).
    /// The linear form 160 × depth − 80, at most 2,400, measured level at
    /// 2+0.02 (+6 ± 11 over 1,480 games, docs/STRENGTH.md row 48).
    HISTORY_BONUS_LINEAR = 0, 0..=300, step 15;
    HISTORY_BONUS_SCALE = 16, 0..=48, step 2;
    HISTORY_BONUS_BASE = 32, -200..=200, step 15;
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
