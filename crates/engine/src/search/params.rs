//! Every tunable constant of the search, named in one place.
//!
//! Margins are in centipawns, depths in plies. Each heuristic that plays
//! has its constants here, with the match that kept it; a rejected
//! experiment is deleted, and docs/STRENGTH.md keeps its verdict and the
//! commit that held its code.

// --- Root -----------------------------------------------------------------

/// First aspiration half-window around the previous iteration's score
/// (doubled after each fail). 15 against 30: +15 ± 11 over 1,464 games
/// at 2+0.02 (docs/STRENGTH.md row 66).
pub const ASPIRATION_DELTA: i32 = 15;
/// Aspiration windows start at this depth.
pub const ASPIRATION_DEPTH: i32 = 5;
/// Past this half-window the search falls back to an open window.
pub const ASPIRATION_MAX: i32 = 1000;

// --- Node pruning ---------------------------------------------------------

/// Reverse futility pruning: at depth ≤ `RFP_DEPTH`, a static evaluation
/// `RFP_MARGIN` per ply above beta fails high.
pub const RFP_DEPTH: i32 = 6;
pub const RFP_MARGIN: i32 = 90;
/// The "improving" flag (static evaluation above that of two plies ago)
/// takes a ply off the RFP margin and loosens late-move pruning; when not
/// improving, late-move pruning keeps half as many quiets. Kept after an
/// SPRT at 2+0.02: +27 ± 17 over 759 games, H1 (docs/STRENGTH.md row 29).
pub const USE_IMPROVING: bool = true;

/// Null-move pruning from `NMP_DEPTH`; reduction `NMP_BASE + depth /
/// NMP_DIVISOR`, plus one per `NMP_EVAL_DIVISOR` of static evaluation above
/// beta (at most 3) when `USE_NMP_EVAL_REDUCTION`.
pub const NMP_DEPTH: i32 = 3;
pub const NMP_BASE: i32 = 3;
pub const NMP_DIVISOR: i32 = 4;
pub const USE_NMP_EVAL_REDUCTION: bool = true;
pub const NMP_EVAL_DIVISOR: i32 = 200;

/// ProbCut: from `PROBCUT_DEPTH`, a capture that beats beta by
/// `PROBCUT_MARGIN` in a search `PROBCUT_REDUCTION` plies shallower cuts.
/// Bundled with history pruning it lost at 20k nodes (row 07); alone, at
/// 2+0.02: +21 ± 14 over 992 games, H1 (docs/STRENGTH.md row 34).
pub const USE_PROBCUT: bool = true;
pub const PROBCUT_DEPTH: i32 = 5;
pub const PROBCUT_MARGIN: i32 = 200;
pub const PROBCUT_REDUCTION: i32 = 4;

/// Internal iterative reduction: without a table move, nodes from
/// `IIR_DEPTH` are searched one ply shallower.
pub const USE_IIR: bool = true;
pub const IIR_DEPTH: i32 = 4;

// --- Move pruning -----------------------------------------------------------

/// Late-move pruning: at depth ≤ `LMP_DEPTH`, quiet moves after
/// `LMP_BASE + LMP_SCALE × depth²` are skipped (half as many when not
/// improving). Depth 8 with 3 + depth² won SPRT 32 (+33 ± 20 at 2+0.02)
/// but prunes quiet checks at depths 4–8 and so missed a mate in two at
/// depth 5 (the `finds_mate_in_two` test). The same with quiet checks
/// spared above depth 3 (`LMP_ALL_QUIETS_DEPTH`) measured level (SPRT 33,
/// +5 ± 17 over 747 games), and 32 again on top of 46 too (SPRT 49, +3 ±
/// 18 over 551 games), so depth 3 stays.
pub const LMP_DEPTH: i32 = 3;
/// Up to this depth late-move pruning drops all remaining quiet moves;
/// above it (to `LMP_DEPTH`) quiet moves that give check are still searched.
pub const LMP_ALL_QUIETS_DEPTH: i32 = 3;
pub const LMP_BASE: i32 = 3;
pub const LMP_SCALE: i32 = 2;

/// Futility pruning of quiet moves that give no check: at depth ≤
/// `FP_DEPTH`, when static evaluation + `FP_BASE` + `FP_MARGIN` × depth is
/// still at most alpha.
pub const FP_DEPTH: i32 = 3;
pub const FP_BASE: i32 = 90;
pub const FP_MARGIN: i32 = 110;

/// Static-exchange pruning in the main search: at depth ≤ `SEE_DEPTH`,
/// quiet moves losing more than `SEE_QUIET × depth` and captures losing
/// more than `SEE_NOISY × depth²` are skipped.
pub const USE_SEE_PRUNING: bool = true;
pub const SEE_DEPTH: i32 = 8;
pub const SEE_QUIET: i32 = 60;
pub const SEE_NOISY: i32 = 25;

// --- Extensions and reductions ----------------------------------------------

/// Singular extensions: from `SINGULAR_DEPTH`, a table move whose score
/// beats every alternative by `SINGULAR_MARGIN × depth / 16` is extended,
/// twice when by `DOUBLE_EXTENSION_MARGIN` more (at most
/// `DOUBLE_EXTENSIONS` times on a line). On since SPRT 25 (+42 ± 22 at
/// 2+0.02, depth 6); at 20,000 nodes a move, where depth-8 singular
/// searches were rare, it had measured level (08).
pub const USE_SINGULAR: bool = true;
pub const SINGULAR_DEPTH: i32 = 6;
pub const SINGULAR_MARGIN: i32 = 32;
pub const DOUBLE_EXTENSION_MARGIN: i32 = 20;
pub const DOUBLE_EXTENSIONS: i32 = 6;

/// Late-move reductions: `LMR_BASE + ln(depth)·ln(moves) / LMR_DIVISOR`.
/// A base of 1.0 measured level against 0.75 at 2+0.02 (−1 ± 15 over 871
/// games, docs/STRENGTH.md row 40).
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// Moves searched at full depth before reductions begin: at PV nodes,
/// and at the others.
pub const LMR_FIRST_PV: usize = 4;
/// See [`LMR_FIRST_PV`].
pub const LMR_FIRST: usize = 2;
/// One ply more reduction where the static evaluation is not improving
/// on that of two plies before (the position is likely getting worse).
pub const USE_LMR_IMPROVING: bool = true;

// --- Move ordering ------------------------------------------------------------

/// History bonus for a move that caused a cut-off at `depth`:
/// `HISTORY_BONUS_LINEAR × depth + HISTORY_BONUS_SCALE × depth² +
/// HISTORY_BONUS_BASE`, at most `HISTORY_BONUS_MAX` (and at least 1).
/// The linear form 160 × depth − 80, at most 2,400, measured level at
/// 2+0.02 (+6 ± 11 over 1,480 games, docs/STRENGTH.md row 48).
pub const HISTORY_BONUS_LINEAR: i32 = 0;
pub const HISTORY_BONUS_SCALE: i32 = 16;
pub const HISTORY_BONUS_BASE: i32 = 32;
pub const HISTORY_BONUS_MAX: i32 = 1600;

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
