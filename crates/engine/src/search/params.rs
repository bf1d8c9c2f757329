//! Every tunable constant of the search, named in one place.
//!
//! Margins are in centipawns, depths in plies. Each heuristic that was
//! added has its switch here; docs/STRENGTH.md records the match that kept
//! (or rejected) it.

// --- Root -----------------------------------------------------------------

/// First aspiration half-window around the previous iteration's score
/// (doubled after each fail). 15 against 30: +15 ± 11 over 1,464 games
/// at 2+0.02 (docs/STRENGTH.md row 66).
pub const ASPIRATION_DELTA: i32 = 15;
/// Aspiration windows start at this depth.
pub const ASPIRATION_DEPTH: i32 = 5;
/// Past this half-window the search falls back to an open window.
pub const ASPIRATION_MAX: i32 = 1000;
/// When the clock stops an iteration midway, play the best root move it
/// completed (the first move is searched first, so any move that beat
/// it is better by a deeper search) instead of discarding the iteration.
pub const USE_PARTIAL_ITERATION: bool = false;

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

/// Razoring: at depth ≤ `RAZOR_DEPTH`, a static evaluation `RAZOR_MARGIN`
/// per ply below alpha drops into quiescence. Off: measured alone at
/// 2+0.02, +5 ± 11 over 1,773 games, LLR stopped near zero
/// (docs/STRENGTH.md row 39).
pub const USE_RAZORING: bool = false;
pub const RAZOR_DEPTH: i32 = 3;
pub const RAZOR_MARGIN: i32 = 250;

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
/// Futility pruning by the reduced depth: the depth compared with
/// `FP_DEPTH`, and in the margin, is the node's depth less the move's
/// late-move reduction (`depth − r`, at least 1), so late quiet moves are
/// judged with smaller margins and at deeper nodes too. Off: −4 ± 22 over
/// 414 games at 2+0.02, stopped heading down (docs/STRENGTH.md row 42).
pub const USE_FP_LMR_DEPTH: bool = false;
pub const FP_BASE: i32 = 90;
pub const FP_MARGIN: i32 = 110;

/// Static-exchange pruning in the main search: at depth ≤ `SEE_DEPTH`,
/// quiet moves losing more than `SEE_QUIET × depth` and captures losing
/// more than `SEE_NOISY × depth²` are skipped.
pub const USE_SEE_PRUNING: bool = true;
pub const SEE_DEPTH: i32 = 8;
pub const SEE_QUIET: i32 = 60;
pub const SEE_NOISY: i32 = 25;

/// History pruning: at depth ≤ `HISTORY_PRUNE_DEPTH`, quiet moves whose
/// history is below `-HISTORY_PRUNE × depth`.
/// Off: alone at 2+0.02 it measured level (SPRT 50, −2 ± 22 over 352
/// games), bundled with ProbCut at 20k nodes it lost (SPRT 07).
pub const USE_HISTORY_PRUNING: bool = false;
pub const HISTORY_PRUNE_DEPTH: i32 = 4;
pub const HISTORY_PRUNE: i32 = 3000;

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
/// Reduce captures and bad quiet moves too, and adjust by history, by the
/// improving flag, by "cut node" and for moves that give check.
pub const USE_LMR_ADJUSTMENTS: bool = false;
/// Reduce quiet moves by their history alone (less for a good history, more
/// for a bad one), without the rest of `USE_LMR_ADJUSTMENTS`. Off: +9 ± 19
/// at 20k nodes (row 10), −15 ± 17 at 2+0.02 (row 31); with the divisor
/// 16,384, −21 ± 18 at 2+0.02 (row 47, H0).
pub const USE_LMR_HISTORY: bool = false;
/// One ply more reduction for late quiet moves at expected cut nodes
/// (without the rest of `USE_LMR_ADJUSTMENTS`). Off: −26 ± 49 over 106
/// games at 20k nodes (row 18), −34 ± 44 over 124 at 2+0.02 (row 52).
pub const USE_LMR_CUT_NODE: bool = false;
/// One ply more reduction where the static evaluation is not improving
/// on that of two plies before (the position is likely getting worse).
pub const USE_LMR_IMPROVING: bool = true;
/// One ply more reduction for late quiet moves where the table move is a
/// capture or promotion: the node's best line is likely tactical, and a
/// quiet alternative seldom beats it. Level: +4 ± 17 over 653 games
/// (row 58).
pub const USE_LMR_TT_NOISY: bool = false;
/// Late captures that lose material by static exchange are reduced like
/// late quiet moves. Unmeasured: stopped after 52 games (−27 ± 65,
/// row 61) for a likelier candidate.
pub const USE_LMR_BAD_NOISY: bool = false;
/// After a reduced move fails high, search it again one ply deeper where
/// it beat the best score by more than `LMR_DEEPER_MARGIN + 2 × depth`,
/// one ply shallower where by less than `LMR_SHALLOWER_MARGIN`. Losing
/// with these margins: −16 ± 21 over 357 games (row 60).
pub const USE_LMR_DEEPER: bool = false;
/// See [`USE_LMR_DEEPER`].
pub const LMR_DEEPER_MARGIN: i32 = 50;
/// See [`USE_LMR_DEEPER`].
pub const LMR_SHALLOWER_MARGIN: i32 = 10;
/// One ply more reduction when more than `LMR_CUTOFFS` of the moves
/// searched so far had a reply that cut off: this node's moves keep
/// being refuted, so it is likely an all-node. Level: +4 ± 20 over 504
/// games (row 63).
pub const USE_LMR_CUTOFFS: bool = false;
/// See [`USE_LMR_CUTOFFS`].
pub const LMR_CUTOFFS: u32 = 3;
/// Remember in the transposition table which positions were searched on
/// a principal variation, and reduce such a position's late moves one ply
/// less, as at a PV node, when it is met again in a null window. Lost:
/// −14 ± 25 over 317 games (row 64).
pub const USE_TT_PV: bool = false;
/// One ply less reduction per this much history.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

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
/// A cut-off from the transposition table by a quiet table move rewards
/// that move's histories too, as a cut-off found by searching it would.
/// Off: level at 2+0.02 (SPRT 51, +5 ± 15 over 857 games).
pub const USE_TT_CUTOFF_HISTORY: bool = false;
/// Where every move of a node fails low, the quiet move that led to it
/// (the parent's best so far) earns the history bonus of a cut-off.
/// Undecided: +9 ± 14 over 1,033 games, LLR +0.76 (row 59).
pub const USE_PRIOR_BONUS: bool = false;
/// Teach the butterfly history by how much each quiet move changed the
/// static evaluation: at every node not in check, the opponent's quiet
/// move that led there earns `−EVAL_DIFF_SCALE × (its eval + ours)`,
/// within `±EVAL_DIFF_MAX`. Level: −3 ± 21 over 448 games (row 65).
pub const USE_EVAL_DIFF_HISTORY: bool = false;
/// See [`USE_EVAL_DIFF_HISTORY`].
pub const EVAL_DIFF_SCALE: i32 = 10;
/// See [`USE_EVAL_DIFF_HISTORY`].
pub const EVAL_DIFF_MAX: i32 = 1600;
/// Order quiet moves by a pawn history too: a history row per pawn
/// structure, found by the pawn key (see `history.rs`). Lost: −31 ± 31
/// over 204 games (row 62).
pub const USE_PAWN_HISTORY: bool = false;
/// Continuation history four plies back as well as one and two: a quiet
/// move is also ordered by how it fared after our own move two turns ago
/// (with the same piece on the same square), and learns there too.
/// Level: +4 ± 13 over 1,195 games at 2+0.02 (docs/STRENGTH.md row 67).
pub const USE_CONT_HIST_4: bool = false;
/// A cut-off by more than [`BIG_CUTOFF_MARGIN`] above beta updates the
/// histories with the bonus of one ply more. Not measured yet (off).
pub const USE_BIG_CUTOFF_BONUS: bool = false;
/// See [`USE_BIG_CUTOFF_BONUS`].
pub const BIG_CUTOFF_MARGIN: i32 = 80;

// --- Quiescence and evaluation ------------------------------------------------

/// Probe and store the transposition table in quiescence.
pub const USE_QSEARCH_TT: bool = true;
/// Futility (delta) pruning in quiescence: a capture that gives no check
/// and whose victim, added to the stand-pat score and `QS_FUTILITY_MARGIN`,
/// still does not reach alpha is not searched. Off: level at 2+0.02 after
/// 957 games (+5 ± 15, docs/STRENGTH.md row 30).
pub const USE_QS_FUTILITY: bool = false;
pub const QS_FUTILITY_MARGIN: i32 = 150;
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
/// Scale the corrected evaluation by `(FIFTY_MOVE_DAMPING − halfmove
/// clock) / FIFTY_MOVE_DAMPING`: an advantage that makes no progress
/// fades towards the fifty-move draw. Not measured yet.
pub const USE_FIFTY_MOVE_DAMPING: bool = false;
/// See [`USE_FIFTY_MOVE_DAMPING`]; above 100, the clock's largest value.
pub const FIFTY_MOVE_DAMPING: i32 = 200;
/// At most this correction, in centipawns; a larger error
/// teaches only this much. 127 measured level with 64: +1 ± 20 over 482
/// games (row 56).
pub const CORRECTION_LIMIT: i32 = 64;
/// An update moves an entry `min(depth + 1, CORRECTION_MAX_WEIGHT)` / 256
/// of the way towards the error it saw: deeper searches teach faster.
pub const CORRECTION_MAX_WEIGHT: i32 = 16;
