//! The UCI front end.
//!
//! The main thread reads stdin and parses each line into a typed
//! [`Command`]; a search runs on its own thread and is stopped through the
//! search's [`SearchControl`](crate::search::SearchControl). Problems — an
//! unknown command, a bad FEN, an illegal move in `position`, an option
//! value out of range, a line too long — are reported as `info string` and
//! the loop goes on with its previous state. `stop`, `ponderhit`, `isready`
//! and `quit` are answered during a search; any other command first ends
//! the running search (printing its `bestmove`), as a well-behaved GUI
//! would have asked anyway. Every `go` ends with a `bestmove`, whatever
//! fails on the way. When stdout is gone (the GUI died), the engine quits.

pub mod command;
mod evaluation;
pub use evaluation::report as eval_report;
pub mod options;
pub mod perft;
mod report;
mod tablebase;

pub use command::{parse, Command, CommandError, Go};
pub use report::wdl_per_mille;

use report::{bestmove, SearchJob};
use tablebase::load_tablebase;

use crate::book::EngineBook;
use crate::output;
use crate::search::{self, Limits, Shared, TimeManager};
use crate::strength::Strength;
use crate::threads::ParkedThread;
use hashmate::tt::TranspositionTable;
use hashmate::{CastlingMode, Color, Move, Position};
use hashmate_nnue::Network;
use options::{OptionId, Value};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The version and the slider backend the build uses, as `--version` and
/// the `uci` banner state them (a test checks that it names
/// [`hashmate::DEFAULT_BACKEND`]).
#[cfg(not(any(feature = "magic", feature = "pext")))]
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (sliders: fl-fast)");
/// The version and the slider backend the build uses.
#[cfg(all(feature = "magic", not(feature = "pext")))]
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (sliders: magic)");
/// The version and the slider backend the build uses.
#[cfg(feature = "pext")]
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (sliders: pext)");

/// The engine's name as `id name` gives it.
pub const NAME: &str = concat!("hashmate ", env!("CARGO_PKG_VERSION"));

/// Input lines longer than this are refused (a `position` line of a
/// thousand-move game is about 5,000 bytes).
pub const MAX_LINE: usize = 1 << 20;

/// Engine options (the values `setoption` set).
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations reported.
    pub multipv: usize,
    /// Whether the GUI lets the engine ponder.
    pub ponder: bool,
    /// The GUI's latency in ms, kept off every time budget.
    pub move_overhead: u64,
    /// How castling is written (the `UCI_Chess960` option).
    pub castling: CastlingMode,
    /// Evaluate with the network (`UseNNUE`).
    pub use_nnue: bool,
    /// Report win/draw/loss estimates (`UCI_ShowWDL`).
    pub show_wdl: bool,
    /// Play at the strength of `elo` (`UCI_LimitStrength`).
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: i32,
    /// `Skill Level` (below 20: limited, unless `UCI_LimitStrength` names
    /// the level instead).
    pub skill_level: i32,
    /// `SyzygyProbeDepth`.
    pub syzygy_depth: i32,
    /// `SyzygyProbeLimit`.
    pub syzygy_limit: u32,
    /// `Syzygy50MoveRule`.
    pub syzygy_rule50: bool,
}

impl Options {
    /// The limited strength the options ask for: `UCI_Elo`'s where
    /// `UCI_LimitStrength` is on (as in Stockfish, it then decides),
    /// else `Skill Level`'s below 20; `None` at full strength.
    pub fn strength(&self) -> Option<Strength> {
        if self.limit_strength {
            Strength::new(self.elo)
        } else {
            Strength::new(crate::strength::skill_elo(self.skill_level))
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead: 30,
            castling: CastlingMode::Standard,
            use_nnue: true,
            show_wdl: false,
            limit_strength: false,
            elo: crate::strength::ELO_MIN,
            skill_level: crate::strength::SKILL_MAX,
            syzygy_depth: 1,
            syzygy_limit: 7,
            syzygy_rule50: true,
        }
    }
}

/// Engine state owned by the UCI loop.
pub struct Engine {
    /// The position to search.
    pub position: Position,
    /// Repetition keys ([`Position::repetition_key`]) of the game so far.
    pub history: Vec<u64>,
    /// Option values.
    pub options: Options,
    /// The table and the search control, shared with the search thread.
    pub shared: Arc<Shared>,
    /// The opening book.
    pub book: EngineBook,
    /// The network `UseNNUE` evaluates with (`EvalFile`); `None` only when
    /// not even the embedded one could be had (memory), and then the
    /// classical evaluation plays.
    network: Option<Arc<Network>>,
    /// The network's name: its path, or `<internal>`.
    network_name: String,
    /// The thread that runs jobs beside the UCI loop, started by the first
    /// one and parked between them.
    runner: Option<ParkedThread>,
    /// The Syzygy tables of `SyzygyPath`, if any.
    tablebase: Option<Arc<hashmate_syzygy::Tablebase>>,
    job: Option<Job>,
}

/// What runs on the runner thread beside the UCI loop: a search, or a
/// count (`go perft`, `bench`).
struct Job {
    /// The search state the job runs on (the engine's, or the bench's
    /// own).
    control: Arc<dyn JobControl>,
    /// Set by `stop`: ends a count.
    abort: Arc<AtomicBool>,
    /// A count runs to its end unless stopped; a search is stopped by any
    /// command that needs the engine.
    count: bool,
}

impl Job {
    fn stop(&self) {
        // Before the control's stop: the bench clears that between searches.
        self.abort.store(true, Ordering::Relaxed);
        self.control.stop();
    }
}

/// What the UCI loop asks of the search state a job runs on, whatever its
/// table.
trait JobControl: Send + Sync {
    fn stop(&self);
    fn ponderhit(&self);
}

impl<T: Send + Sync> JobControl for Shared<T> {
    fn stop(&self) {
        self.control.stop();
    }
    fn ponderhit(&self) {
        self.control.ponderhit();
    }
}

/// Why `position` was refused; the engine keeps its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetPositionError {
    /// The FEN does not describe a legal position.
    Fen(hashmate::FenError),
    /// The move list's move `number` (from 1) is not legal where it stands.
    Move {
        /// Its number in the list, from 1.
        number: usize,
        /// Why it is not a move there.
        error: hashmate::MoveParseError,
    },
}

impl std::fmt::Display for SetPositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetPositionError::Fen(e) => write!(f, "{e}"),
            SetPositionError::Move { number, error } => {
                write!(f, "move {number} of the list: {error}")
            }
        }
    }
}

impl std::error::Error for SetPositionError {}

/// Why the engine could not start.
#[derive(Debug)]
pub enum StartError {
    /// Not even a 1 MB transposition table could be allocated.
    Table(hashmate::tt::TtError),
    /// The embedded network is not one this build reads.
    Network(hashmate_nnue::NetError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Table(e) => write!(f, "{e}"),
            StartError::Network(e) => write!(f, "the embedded network: {e}"),
        }
    }
}

impl std::error::Error for StartError {}

impl Engine {
    /// An engine with default options and a 16 MB table (1 MB if 16 MB
    /// cannot be had).
    ///
    /// # Errors
    /// [`StartError`] when not even a 1 MB table can be allocated.
    pub fn new() -> Result<Engine, StartError> {
        let position = Position::startpos();
        let mut options = Options::default();
        let tt = TranspositionTable::new(options.hash_mb)
            .or_else(|_| {
                options.hash_mb = 1;
                TranspositionTable::new(1)
            })
            .map_err(StartError::Table)?;
        Ok(Engine {
            history: vec![position.repetition_key()],
            position,
            options,
            shared: Arc::new(Shared::new(tt)),
            book: EngineBook::default(),
            network: match hashmate_data::net::embedded() {
                Ok(net) => Some(Arc::new(net)),
                Err(e @ hashmate_nnue::NetError::OutOfMemory { .. }) => {
                    output::emit(&format!(
                        "info string the embedded network: {e}; the classical evaluation plays"
                    ));
                    None
                }
                Err(e) => return Err(StartError::Network(e)),
            },
            network_name: hashmate_data::net::INTERNAL.to_string(),
            // Started now, while memory is plentiful: a thread started later,
            // under a memory limit, may not get its stack.
            runner: ParkedThread::spawn("engine-job").ok(),
            tablebase: None,
            job: None,
        })
    }

    /// Set up a position; on any error the old one stays.
    ///
    /// # Errors
    /// [`SetPositionError`]: the bad FEN, or the illegal move and its
    /// number.
    pub fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<(), SetPositionError> {
        let mut pos = match fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f).map_err(SetPositionError::Fen)?,
        };
        let mut history = vec![pos.repetition_key()];
        for (i, text) in moves.iter().enumerate() {
            let mv: Move = pos
                .parse_uci(text)
                .map_err(|error| SetPositionError::Move {
                    number: i + 1,
                    error,
                })?;
            pos.play_unchecked(mv);
            history.push(pos.repetition_key());
        }
        self.position = pos;
        self.history = history;
        Ok(())
    }

    /// Stop what runs (`stop`): a search prints its `bestmove`, a count
    /// ends early.
    fn stop(&self) {
        if let Some(job) = &self.job {
            job.stop();
        }
    }

    /// Before a command that needs the engine: stop a running search and
    /// wait for its `bestmove`; let a count finish, unless `abort`.
    fn finish_job(&mut self, abort: bool) {
        if let Some(job) = self.job.take() {
            if abort || !job.count {
                job.stop();
            }
            if let Some(runner) = &self.runner {
                runner.wait();
            }
        }
    }

    /// Start `work` as the running job on the runner thread (started now
    /// if this is the first job).
    fn start_job<T: Send + Sync + 'static>(
        &mut self,
        shared: Arc<Shared<T>>,
        count: bool,
        work: impl FnOnce(&Arc<Shared<T>>, &AtomicBool) + Send + 'static,
    ) -> std::io::Result<()> {
        let runner = match &mut self.runner {
            Some(r) => r,
            empty => empty.insert(ParkedThread::spawn("engine-job")?),
        };
        let abort = Arc::new(AtomicBool::new(false));
        let (s, a) = (shared.clone(), abort.clone());
        runner.run(move || work(&s, &a));
        self.job = Some(Job {
            control: shared,
            abort,
            count,
        });
        Ok(())
    }

    /// How the next search uses the tablebases: not at all without
    /// tables or with `SyzygyProbeLimit` 0.
    fn tablebase_config(&self) -> Option<Arc<search::TbConfig>> {
        let tables = self.tablebase.clone()?;
        (self.options.syzygy_limit > 0).then(|| {
            Arc::new(search::TbConfig {
                tables,
                probe_depth: self.options.syzygy_depth,
                probe_limit: self.options.syzygy_limit,
                rule50: self.options.syzygy_rule50,
            })
        })
    }

    /// Forget what was learned: the table and each thread's histories.
    fn new_game(&self) {
        self.shared.new_game();
    }

    /// `ponderhit`: the running search goes on under the clock.
    fn ponderhit(&self) {
        if let Some(job) = &self.job {
            job.control.ponderhit();
        }
    }

    /// `go perft N` on its own thread: `stop` ends it, `isready` is
    /// answered meanwhile.
    fn perft(&mut self, depth: u32, mode: CastlingMode) {
        let pos = self.position.clone();
        let mode = if pos.is_chess960() {
            CastlingMode::Chess960
        } else {
            mode
        };
        let started = self.start_job(self.shared.clone(), true, move |_, abort| {
            let mut count = |p: &Position, d| perft::perft_until(p, d, abort).unwrap_or(0);
            let stopped = || abort.load(Ordering::Relaxed);
            let mut out = output::Stdout;
            perft::report(&pos, depth, true, mode, &mut count, &stopped, &mut out);
            let _ = out.flush();
        });
        if let Err(e) = started {
            output::emit(&format!("info string cannot start perft: {e}"));
        }
    }

    /// `bench` on its own thread, on a table of its own (the signature is
    /// that of a 16 MB table): `stop` ends it without a summary.
    fn bench(&mut self, depth: u32) {
        let shared = match TranspositionTable::new(16) {
            Ok(tt) => Arc::new(Shared::new(tt)),
            Err(e) => {
                output::emit(&format!("info string bench: {e}"));
                return;
            }
        };
        // The evaluation the engine plays with (`UseNNUE`, `EvalFile`).
        shared.set_network(self.network.clone().filter(|_| self.options.use_nnue));
        let started = self.start_job(shared, true, move |shared, abort| {
            crate::bench::run_on(shared, depth, 1, abort);
        });
        if let Err(e) = started {
            output::emit(&format!("info string cannot start bench: {e}"));
        }
    }

    /// Apply `setoption`.
    ///
    /// # Errors
    /// [`OptionError`](options::OptionError), for the GUI; the option
    /// keeps its value.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), options::OptionError> {
        use options::OptionError::Failed;
        let (spec, value) = options::parse(name, value)?;
        let int = || match value {
            Value::Int(v) => v,
            _ => 0,
        };
        let flag = || value == Value::Bool(true);
        match spec.id {
            OptionId::Hash => {
                let mb = int() as usize;
                let shared = Arc::get_mut(&mut self.shared).ok_or_else(|| {
                    Failed("the hash table is in use; try again after the search".into())
                })?;
                shared.tt.resize(mb).map_err(|e| {
                    Failed(format!(
                        "{e}; the table keeps its {} MB",
                        self.options.hash_mb
                    ))
                })?;
                self.options.hash_mb = mb;
            }
            OptionId::Threads => self.options.threads = int() as usize,
            OptionId::LimitStrength => self.options.limit_strength = flag(),
            OptionId::Elo => self.options.elo = int() as i32,
            OptionId::SkillLevel => self.options.skill_level = int() as i32,
            OptionId::MultiPv => self.options.multipv = int() as usize,
            OptionId::MoveOverhead => self.options.move_overhead = int() as u64,
            OptionId::Ponder => self.options.ponder = flag(),
            OptionId::Chess960 => {
                self.options.castling = if flag() {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                }
            }
            OptionId::UseNnue => {
                if self.options.use_nnue != flag() {
                    // The table's entries hold the other evaluation's scores.
                    self.new_game();
                }
                self.options.use_nnue = flag();
            }
            OptionId::EvalFile => {
                if let Value::Text(path) = &value {
                    let net = hashmate_data::net::load(path)
                        .map_err(|e| Failed(format!("{e}; the network stays as it was")))?;
                    // Say which net is now loaded, as Stockfish does: a GUI
                    // user otherwise cannot tell a typo'd path from success.
                    let plays = if self.options.use_nnue {
                        "in use"
                    } else {
                        "loaded; UseNNUE is false, so the classical evaluation plays"
                    };
                    // The embedded net has one name however it was asked for.
                    let name = if hashmate_data::net::is_internal(path) {
                        hashmate_data::net::INTERNAL
                    } else {
                        path.as_str()
                    };
                    output::emit(&format!(
                        "info string EvalFile {}: {plays}",
                        hashmate_data::net::describe(name, &net)
                    ));
                    self.network = Some(Arc::new(net));
                    self.network_name = name.to_string();
                    if self.options.use_nnue {
                        self.new_game();
                    }
                }
            }
            OptionId::SyzygyPath => {
                if let Value::Text(path) = &value {
                    self.tablebase = load_tablebase(path).map(Arc::new);
                    // The table's entries may hold scores of the tables
                    // that were there before.
                    self.new_game();
                }
            }
            OptionId::ShowWdl => self.options.show_wdl = flag(),
            OptionId::SyzygyProbeDepth => self.options.syzygy_depth = int() as i32,
            OptionId::SyzygyProbeLimit => self.options.syzygy_limit = int() as u32,
            OptionId::Syzygy50MoveRule => self.options.syzygy_rule50 = flag(),
            OptionId::ClearHash => self.new_game(),
            OptionId::OwnBook => self.book.enabled = flag(),
            OptionId::BookFile => {
                if let Value::Text(path) = &value {
                    self.book.set_file(path).map_err(Failed)?;
                }
            }
            OptionId::BookBestMove => self.book.best_move = flag(),
            #[cfg(feature = "tune")]
            OptionId::Param(i) => crate::search::params::TUNABLES[i].param.set(int() as i32),
        }
        Ok(())
    }

    /// Carry out one command, as the UCI loop does; `false` for `quit`.
    /// `stop`, `ponderhit` and `isready` are answered at once, also while
    /// a job runs; any other command first ends the running search (or
    /// waits for a running count, see [`Engine::finish`]).
    pub fn execute(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Stop => {
                self.stop();
                return true;
            }
            Command::PonderHit => {
                self.ponderhit();
                return true;
            }
            Command::IsReady => {
                output::emit("readyok");
                return true;
            }
            Command::Quit => return false,
            _ => {}
        }
        self.finish_job(false);
        match cmd {
            Command::Uci => print_uci(),
            Command::UciNewGame => {
                self.set_position(None, &[]).ok();
                self.new_game();
            }
            Command::Position { fen, moves } => {
                if let Err(e) = self.set_position(fen.as_deref(), &moves) {
                    output::emit(&format!("info string {e}; position unchanged"));
                }
            }
            Command::Go(go) => self.go(go),
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    output::emit(&format!("info string {e}"));
                }
            }
            Command::Display => output::emit(&self.position.diagram()),
            Command::Eval => output::emit(&evaluation::report(
                &self.position,
                self.network
                    .as_deref()
                    .map(|net| (net, self.network_name.as_str())),
                self.options.use_nnue,
            )),
            Command::Bench { depth } => {
                self.bench(depth.unwrap_or(crate::bench::DEFAULT_DEPTH));
            }
            Command::Stop | Command::PonderHit | Command::IsReady | Command::Quit => {}
        }
        true
    }

    /// End what runs and wait for it: with `abort` (for `quit`) a count
    /// is stopped too, without it (the end of input) a count finishes and
    /// a search is stopped. Every `go` has had its `bestmove` when this
    /// returns.
    pub fn finish(&mut self, abort: bool) {
        self.finish_job(abort);
    }

    fn limits(&self, go: &Go) -> Result<Limits, String> {
        let mut limits = Limits {
            depth: go.depth.map(|d| d.clamp(1, 127) as u32),
            nodes: go.nodes,
            mate: go.mate.map(|m| m.min(100) as u32),
            multipv: self.options.multipv,
            ..Limits::default()
        };
        for text in &go.searchmoves {
            let mv = self
                .position
                .parse_uci(text)
                .map_err(|e| format!("searchmoves: {e}"))?;
            limits.searchmoves.push(mv);
        }
        let overhead = self.options.move_overhead;
        if let Some(mt) = go.movetime {
            limits.time = TimeManager::fixed(mt, overhead);
        } else if !go.infinite {
            let (time, inc) = match self.position.side_to_move() {
                Color::White => (go.wtime, go.winc),
                Color::Black => (go.btime, go.binc),
            };
            // Only the opponent's clock given: ours counts as 0 (move at
            // once, as Stockfish does), not as no limit.
            let any_clock = go.wtime.is_some() || go.btime.is_some();
            if let Some(time) = time.or(any_clock.then_some(0)) {
                limits.time =
                    TimeManager::from_clock(time, inc.unwrap_or(0), go.movestogo, overhead);
            }
        }
        Ok(limits)
    }

    fn go(&mut self, mut go: Go) {
        for note in go.notes.drain(..) {
            output::emit(&format!("info string {note}"));
        }
        let mode = self.options.castling;
        if let Some(depth) = go.perft {
            self.perft(depth, mode);
            return;
        }
        let own_clock = match self.position.side_to_move() {
            Color::White => go.wtime,
            Color::Black => go.btime,
        };
        if own_clock.is_none() && (go.wtime.is_some() || go.btime.is_some()) {
            output::emit("info string go: no clock for the side to move; it counts as 0");
        }
        let limits = match self.limits(&go) {
            Ok(l) => l,
            Err(e) => {
                output::emit(&format!("info string {e}; searching all moves"));
                go.searchmoves.clear();
                self.limits(&go).unwrap_or_default()
            }
        };
        if !go.ponder && !go.infinite && limits.searchmoves.is_empty() {
            match self.book.pick(&self.position) {
                Ok(Some((mv, weight))) => {
                    let text = mv.to_uci(mode);
                    output::emit(&format!("info string book move {text} (weight {weight})"));
                    output::emit(&format!("bestmove {text}"));
                    return;
                }
                Ok(None) => {}
                Err(e) => output::emit(&format!("info string book: {e}; playing without it")),
            }
        }
        let mut limits = limits;
        let mut threads = self.options.threads;
        let strength = self.options.strength();
        if let Some(s) = strength {
            // A weaker level: its node budget, one thread (so that the
            // level does not depend on the machine), and the candidates
            // its choice is drawn from.
            limits.nodes = Some(limits.nodes.map_or(s.nodes(), |n| n.min(s.nodes())));
            limits.multipv = limits.multipv.max(s.candidates());
            threads = 1;
        }
        let job = SearchJob {
            pos: self.position.clone(),
            history: self.history.clone(),
            limits,
            threads,
            strength,
            infinite: go.infinite,
            mode,
            show_wdl: self.options.show_wdl,
        };
        let net = self.network.clone().filter(|_| self.options.use_nnue);
        self.shared.set_network(net);
        self.shared.set_tablebase(self.tablebase_config());
        self.shared.control.begin(go.ponder);
        match self.start_job(self.shared.clone(), false, move |s, _| job.run(s)) {
            Ok(()) => {}
            Err(e) => {
                // No thread, no search: still answer, as the GUI waits.
                output::emit(&format!("info string cannot start the search: {e}"));
                let first = self.position.legal_moves().first().copied();
                let result = search::SearchResult::unsearched(first);
                output::emit(&bestmove(&self.position, &result, mode));
            }
        }
    }
}

impl Drop for Engine {
    /// A running job is stopped (a search, an infinite one included, and a
    /// count) before the runner thread is ended and joined.
    fn drop(&mut self) {
        self.finish_job(true);
    }
}

fn print_uci() {
    let mut lines = vec![
        format!("id name {NAME}"),
        "id author the hashmate developers".to_string(),
    ];
    lines.extend(options::all().iter().map(|o| o.to_string()));
    lines.push("uciok".to_string());
    output::emit(&lines.join("\n"));
}

/// Run the UCI loop on stdin/stdout until `quit`, end of input, or until
/// stdout is closed.
pub fn run() -> std::process::ExitCode {
    output::emit(&format!("{NAME} by the hashmate developers"));
    let mut engine = match Engine::new() {
        Ok(e) => e,
        Err(e) => {
            output::emit(&format!("info string cannot start: {e}"));
            return std::process::ExitCode::from(2);
        }
    };
    // `quit` ends whatever runs; at the end of input a running count
    // (`go perft`, `bench`) is finished first, as a script piping it in
    // expects, and a search is stopped.
    let mut quit = false;
    crate::input::for_each_line(MAX_LINE, |line| {
        let line = match line {
            crate::input::Line::Text(t) => t,
            crate::input::Line::TooLong { bytes } => {
                output::emit(&format!(
                    "info string line of {bytes} bytes refused (at most {MAX_LINE})"
                ));
                return !output::closed();
            }
        };
        let cmd = match parse(line) {
            None => return true,
            Some(Err(e)) => {
                output::emit(&format!("info string {e}"));
                return !output::closed();
            }
            Some(Ok(cmd)) => cmd,
        };
        if !engine.execute(cmd) {
            quit = true;
            return false;
        }
        !output::closed()
    });
    engine.finish(quit);
    output::status(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests;
