//! The UCI front end.
//!
//! The main thread reads stdin and parses each line into a typed
//! [`Command`]; a search runs on its own thread and is stopped through the
//! atomic flag in [`Shared`]. Problems — an unknown command, a bad FEN, an
//! illegal move in `position`, an option value out of range — are reported
//! as `info string` and the loop goes on with its previous state.
//! `stop`, `ponderhit`, `isready` and `quit` are answered during a search;
//! any other command first ends the running search (printing its
//! `bestmove`), as a well-behaved GUI would have asked anyway.

use crate::book::EngineBook;
use crate::search::{self, mate_in, Limits, Listener, SearchInfo, Shared};
use hashmate::tt::{Bound, TranspositionTable};
use hashmate::{CastlingMode, Color, Move, Position};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Parameters of `go`.
#[derive(Debug, Default, PartialEq)]
pub struct Go {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub mate: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
}

/// One parsed UCI command.
#[derive(Debug, PartialEq)]
pub enum Command {
    Uci,
    IsReady,
    UciNewGame,
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Display,
    Bench {
        depth: Option<u32>,
    },
    Quit,
}

/// Why a line was not understood.
#[derive(Debug, PartialEq)]
pub enum CommandError {
    Unknown(String),
    Malformed(String),
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Unknown(w) => write!(f, "unknown command '{w}'"),
            CommandError::Malformed(why) => write!(f, "malformed command: {why}"),
        }
    }
}

fn malformed(s: &str) -> CommandError {
    CommandError::Malformed(s.to_string())
}

const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

fn parse_go(rest: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let word = rest[i];
        let mut number = || -> Result<u64, CommandError> {
            i += 1;
            let v = rest
                .get(i)
                .ok_or_else(|| CommandError::Malformed(format!("go {word} needs a number")))?;
            // Negative clocks happen in real GUIs after a time loss; read them as 0.
            if let Some(neg) = v.strip_prefix('-') {
                if neg.parse::<u64>().is_ok() {
                    return Ok(0);
                }
            }
            v.parse::<u64>().map_err(|_| {
                CommandError::Malformed(format!("go {word}: '{}' is not a number", clip(v)))
            })
        };
        match word {
            "wtime" => go.wtime = Some(number()?),
            "btime" => go.btime = Some(number()?),
            "winc" => go.winc = Some(number()?),
            "binc" => go.binc = Some(number()?),
            "movestogo" => go.movestogo = Some(number()?),
            "depth" => go.depth = Some(number()?),
            "nodes" => go.nodes = Some(number()?),
            "movetime" => go.movetime = Some(number()?),
            "mate" => go.mate = Some(number()?),
            "perft" => {
                let d = number()?;
                if !(1..=20).contains(&d) {
                    return Err(malformed("go perft needs a depth from 1 to 20"));
                }
                go.perft = Some(d as u32);
            }
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i + 1 < rest.len() && !GO_KEYWORDS.contains(&rest[i + 1]) {
                    i += 1;
                    go.searchmoves.push(rest[i].to_string());
                }
            }
            other => {
                return Err(CommandError::Malformed(format!(
                    "unknown go parameter '{}'",
                    clip(other)
                )))
            }
        }
        i += 1;
    }
    Ok(go)
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Parse one line of input (`None` for a blank line).
pub fn parse(line: &str) -> Option<Result<Command, CommandError>> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    Some(match first {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "bench" => match rest.first() {
            None => Ok(Command::Bench { depth: None }),
            Some(d) => d
                .parse()
                .ok()
                .filter(|d| (1..=30).contains(d))
                .map(|d| Command::Bench { depth: Some(d) })
                .ok_or_else(|| malformed("bench takes a depth from 1 to 30")),
        },
        "position" => parse_position(&rest),
        "go" => parse_go(&rest).map(Command::Go),
        "setoption" => parse_setoption(&rest),
        other => Err(CommandError::Unknown(clip(other))),
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let fen = match setup {
        ["startpos"] => None,
        ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
        ["fen"] => return Err(malformed("position fen needs a FEN")),
        _ => {
            return Err(malformed(
                "expected 'position startpos' or 'position fen <FEN>'",
            ))
        }
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|s| s.to_string()).collect(),
    })
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(malformed("expected 'setoption name <id> [value <x>]'"));
    }
    let value_at = rest.iter().position(|&w| w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(malformed("option name missing"));
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value: value_at.map(|i| rest[i + 1..].join(" ")),
    })
}

/// Engine options.
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead: u64,
    /// How castling is written (the `UCI_Chess960` option).
    pub castling: CastlingMode,
    /// Research switch: search without the transposition table.
    pub use_tt: bool,
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
            use_tt: true,
        }
    }
}

/// Engine state owned by the UCI loop.
pub struct Engine {
    pub position: Position,
    /// Keys of the game so far, for repetition detection.
    pub history: Vec<u64>,
    pub options: Options,
    pub shared: Arc<Shared>,
    pub book: EngineBook,
    search: Option<JoinHandle<()>>,
    /// Set by `stop`/`quit`: ends an infinite or pondering search's wait.
    gui_stop: Arc<AtomicBool>,
}

impl Engine {
    pub fn new() -> Engine {
        let position = Position::startpos();
        let opts = Options::default();
        let tt = TranspositionTable::new(opts.hash_mb).expect("16 MB can be allocated");
        Engine {
            history: vec![position.key()],
            position,
            options: opts,
            shared: Arc::new(Shared::new(tt)),
            book: EngineBook::default(),
            search: None,
            gui_stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Set up a position; on any error the old one stays.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        let mut pos = match fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f).map_err(|e| e.to_string())?,
        };
        let mut history = vec![pos.key()];
        for (i, text) in moves.iter().enumerate() {
            let mv: Move = pos
                .parse_uci(text)
                .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
            pos.play_unchecked(mv);
            history.push(pos.key());
        }
        self.position = pos;
        self.history = history;
        Ok(())
    }

    /// Wait for a running search to finish (after asking it to stop).
    fn finish_search(&mut self) {
        if let Some(h) = self.search.take() {
            self.shared.stop.store(true, Relaxed);
            self.shared.pondering.store(false, Relaxed);
            self.gui_stop.store(true, Relaxed);
            let _ = h.join();
        }
    }

    fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Apply `setoption`; returns a message for the GUI on error.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let lname = name.to_ascii_lowercase();
        let int = |lo: u64, hi: u64| -> Result<u64, String> {
            let v = value.ok_or(format!("option {name} needs a value"))?;
            v.trim()
                .parse::<u64>()
                .ok()
                .filter(|x| (lo..=hi).contains(x))
                .ok_or(format!(
                    "option {name} takes an integer from {lo} to {hi}, not '{}'",
                    clip(v)
                ))
        };
        let check = || -> Result<bool, String> {
            match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
                Some("true") => Ok(true),
                Some("false") => Ok(false),
                _ => Err(format!("option {name} takes true or false")),
            }
        };
        match lname.as_str() {
            "hash" => {
                let mb = int(1, 65536)? as usize;
                let shared = Arc::get_mut(&mut self.shared)
                    .ok_or("the hash table is in use; try again after the search")?;
                shared.tt.resize(mb).map_err(|e| e.to_string())?;
                self.options.hash_mb = mb;
            }
            "threads" => self.options.threads = int(1, 64)? as usize,
            "multipv" => self.options.multipv = int(1, 64)? as usize,
            "move overhead" => self.options.move_overhead = int(0, 5000)?,
            "ponder" => self.options.ponder = check()?,
            "uci_chess960" => {
                self.options.castling = if check()? {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                }
            }
            "usett" => self.options.use_tt = check()?,
            "clear hash" => self.shared.tt.clear(),
            "ownbook" => self.book.enabled = check()?,
            "bookfile" => {
                let path = value.unwrap_or("").trim();
                self.book.set_file(path)?;
            }
            "bookbestmove" => self.book.best_move = check()?,
            _ => return Err(format!("unknown option '{}'", clip(name))),
        }
        Ok(())
    }

    fn limits(&self, go: &Go) -> Result<Limits, String> {
        let mut limits = Limits {
            depth: go.depth.map(|d| d.clamp(1, 127) as u32),
            nodes: go.nodes,
            mate: go.mate.map(|m| m.min(100) as u32),
            multipv: self.options.multipv,
            no_tt: !self.options.use_tt,
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
            let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
            limits.soft_time = Some(t);
            limits.hard_time = Some(t);
        } else if !go.infinite {
            let (time, inc) = match self.position.side_to_move() {
                Color::White => (go.wtime, go.winc),
                Color::Black => (go.btime, go.binc),
            };
            if let Some(time) = time {
                let (soft, hard) = time_budget(time, inc.unwrap_or(0), go.movestogo, overhead);
                limits.soft_time = Some(soft);
                limits.hard_time = Some(hard);
            }
        }
        Ok(limits)
    }

    fn go(&mut self, mut go: Go, out: &mut impl Write) {
        if let Some(depth) = go.perft {
            let pos = self.position.clone();
            let mode = if pos.is_chess960() {
                CastlingMode::Chess960
            } else {
                self.options.castling
            };
            crate::perft_cmd::report(
                &pos,
                depth,
                true,
                mode,
                &mut |p: &Position, d| hashmate::perft::perft(p, d),
                out,
            );
            return;
        }
        let limits = match self.limits(&go) {
            Ok(l) => l,
            Err(e) => {
                let _ = writeln!(out, "info string {e}; searching all moves");
                go.searchmoves.clear();
                self.limits(&go).unwrap_or_default()
            }
        };
        let mode = self.options.castling;
        if !go.ponder && !go.infinite && limits.searchmoves.is_empty() {
            match self.book.pick(&self.position) {
                Ok(Some((mv, weight))) => {
                    let text = mv.to_uci(mode);
                    let _ = writeln!(out, "info string book move {text} (weight {weight})");
                    let _ = writeln!(out, "bestmove {text}");
                    return;
                }
                Ok(None) => {}
                Err(e) => {
                    let _ = writeln!(out, "info string book: {e}; playing without it");
                }
            }
        }
        let _ = out.flush();
        let shared = self.shared.clone();
        shared.stop.store(false, Relaxed);
        shared.pondering.store(go.ponder, Relaxed);
        shared.start_clock();
        self.gui_stop.store(false, Relaxed);
        let gui_stop = self.gui_stop.clone();
        let pos = self.position.clone();
        let history = self.history.clone();
        let threads = self.options.threads;
        let infinite = go.infinite;
        self.search = Some(std::thread::spawn(move || {
            let mut listener = Printer {
                pos: pos.clone(),
                mode,
            };
            let result = search::search(&pos, &history, &limits, &shared, threads, &mut listener);
            // UCI: no bestmove before `stop` in infinite mode, nor before
            // `ponderhit`/`stop` while pondering.
            while !gui_stop.load(Relaxed) && (infinite || shared.pondering.load(Relaxed)) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let mut line = match result.best {
                Some(m) => format!("bestmove {}", m.to_uci(mode)),
                None => "bestmove 0000".to_string(),
            };
            if let (Some(b), Some(p)) = (result.best, result.ponder) {
                let mut after = pos.clone();
                after.play_unchecked(b);
                if after.is_legal(p) {
                    line.push_str(&format!(" ponder {}", p.to_uci(mode)));
                }
            }
            let stdout = std::io::stdout();
            let mut o = stdout.lock();
            let _ = writeln!(o, "{line}");
            let _ = o.flush();
        }));
    }
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

/// Soft and hard time limits for a move from the clock.
///
/// Plan for `movestogo` moves (40 when unknown) plus most of the increment;
/// never plan more than a third of what is left (half on the last move
/// before a time control), and never let one move run past half of it
/// (four fifths on the last move). The GUI's latency is `overhead`.
pub fn time_budget(
    time: u64,
    inc: u64,
    movestogo: Option<u64>,
    overhead: u64,
) -> (Duration, Duration) {
    let left = time.saturating_sub(overhead).max(1);
    let mtg = movestogo.unwrap_or(40).clamp(1, 60);
    let (soft_cap, hard_cap) = if mtg == 1 {
        (left / 2, left * 4 / 5)
    } else {
        (left / 3, left / 2)
    };
    let soft = (left / mtg + inc * 3 / 4).min(soft_cap).max(1);
    let hard = (soft * 3).min(hard_cap).max(1);
    (Duration::from_millis(soft), Duration::from_millis(hard))
}

/// Prints `info` lines.
struct Printer {
    pos: Position,
    mode: CastlingMode,
}

impl Listener for Printer {
    fn info(&mut self, i: &SearchInfo) {
        let score = match mate_in(i.score) {
            Some(m) => format!("mate {m}"),
            None => format!("cp {}", i.score),
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
        let stdout = std::io::stdout();
        let mut o = stdout.lock();
        let _ = writeln!(
            o,
            "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} time {} pv{pv}",
            i.depth,
            i.seldepth.max(i.depth),
            i.multipv,
            i.nodes,
            i.nodes * 1000 / ms,
            i.hashfull,
            i.time.as_millis(),
        );
        let _ = o.flush();
    }
}

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

fn print_uci(out: &mut impl Write) {
    let _ = writeln!(out, "id name {NAME}");
    let _ = writeln!(out, "id author the hashmate developers");
    let _ = writeln!(out, "option name Hash type spin default 16 min 1 max 65536");
    let _ = writeln!(out, "option name Threads type spin default 1 min 1 max 64");
    let _ = writeln!(out, "option name Clear Hash type button");
    let _ = writeln!(out, "option name MultiPV type spin default 1 min 1 max 64");
    let _ = writeln!(out, "option name Ponder type check default false");
    let _ = writeln!(
        out,
        "option name Move Overhead type spin default 30 min 0 max 5000"
    );
    let _ = writeln!(out, "option name UCI_Chess960 type check default false");
    let _ = writeln!(out, "option name OwnBook type check default false");
    let _ = writeln!(out, "option name BookFile type string default <empty>");
    let _ = writeln!(out, "option name BookBestMove type check default false");
    let _ = writeln!(out, "option name UseTT type check default true");
    let _ = writeln!(out, "uciok");
}

/// Run the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    println!("{NAME} by the hashmate developers");
    let mut engine = Engine::new();
    crate::input::for_each_line(|line| {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let cmd = match parse(line) {
            None => return true,
            Some(Err(e)) => {
                let _ = writeln!(out, "info string {e}");
                let _ = out.flush();
                return true;
            }
            Some(Ok(cmd)) => cmd,
        };
        match &cmd {
            Command::Stop => {
                engine.gui_stop.store(true, Relaxed);
                engine.shared.stop.store(true, Relaxed);
                return true;
            }
            Command::PonderHit => {
                engine.shared.start_clock();
                engine.shared.pondering.store(false, Relaxed);
                return true;
            }
            Command::IsReady => {
                let _ = writeln!(out, "readyok");
                let _ = out.flush();
                return true;
            }
            Command::Quit => return false,
            _ => {}
        }
        if engine.searching() || engine.search.is_some() {
            drop(out);
            engine.finish_search();
            out = stdout.lock();
        }
        match cmd {
            Command::Uci => print_uci(&mut out),
            Command::UciNewGame => {
                engine.set_position(None, &[]).ok();
                engine.shared.tt.clear();
            }
            Command::Position { fen, moves } => {
                if let Err(e) = engine.set_position(fen.as_deref(), &moves) {
                    let _ = writeln!(out, "info string {e}; position unchanged");
                }
            }
            Command::Go(go) => {
                drop(out);
                let stdout = std::io::stdout();
                let mut o = stdout.lock();
                engine.go(go, &mut o);
                let _ = o.flush();
                return true;
            }
            Command::SetOption { name, value } => {
                if let Err(e) = engine.set_option(&name, value.as_deref()) {
                    let _ = writeln!(out, "info string {e}");
                }
            }
            Command::Display => {
                let _ = writeln!(out, "{}", engine.position.diagram());
            }
            Command::Bench { depth } => {
                drop(out);
                crate::bench::run(depth.unwrap_or(crate::bench::DEFAULT_DEPTH), 16, 1, false);
                return true;
            }
            Command::Stop | Command::PonderHit | Command::IsReady | Command::Quit => {}
        }
        let _ = out.flush();
        true
    });
    engine.finish_search();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("uci"), Some(Ok(Command::Uci)));
        assert!(matches!(
            parse("go perft 3"),
            Some(Ok(Command::Go(Go { perft: Some(3), .. })))
        ));
        assert!(matches!(
            parse("go perft x"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("go perft 0"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("go wtime"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("go wtime abc"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("bogus"),
            Some(Err(CommandError::Unknown(_)))
        ));
        let Some(Ok(Command::Go(g))) =
            parse("go wtime 1000 btime -5 winc 10 movestogo 3 searchmoves e2e4 d2d4 depth 4")
        else {
            panic!("go did not parse");
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.movestogo, g.depth),
            (Some(1000), Some(0), Some(10), Some(3), Some(4))
        );
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Some(Ok(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }))
        );
        assert!(matches!(parse("position"), Some(Err(_))));
        assert!(matches!(parse("position fen"), Some(Err(_))));
        assert_eq!(
            parse("setoption name Clear Hash"),
            Some(Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
    }

    #[test]
    fn bad_position_keeps_state() {
        let mut e = Engine::new();
        e.set_position(None, &["e2e4".into()]).unwrap();
        let before = e.position.clone();
        assert!(e
            .set_position(None, &["e2e4".into(), "e2e4".into()])
            .is_err());
        assert!(e
            .set_position(Some("8/8/8/8/8/8/8/8 w - - 0 1"), &[])
            .is_err());
        assert_eq!(e.position, before);
        assert_eq!(e.history.len(), 2);
    }

    #[test]
    fn options_validate() {
        let mut e = Engine::new();
        assert!(e.set_option("Hash", Some("0")).is_err());
        assert!(e.set_option("Hash", Some("lots")).is_err());
        assert!(e.set_option("Hash", Some("32")).is_ok());
        assert_eq!(e.shared.tt.bytes(), 32 << 20);
        assert!(e.set_option("Threads", Some("65")).is_err());
        assert!(e.set_option("Threads", Some("2")).is_ok());
        assert!(e.set_option("UCI_Chess960", Some("maybe")).is_err());
        assert!(e.set_option("Nonsense", Some("1")).is_err());
        assert_eq!(e.options.threads, 2);
    }

    #[test]
    fn time_budget_is_safe() {
        for (t, inc, mtg) in [
            (1000, 10, None),
            (50, 0, None),
            (1, 0, Some(1)),
            (60_000, 0, Some(1)),
        ] {
            let (soft, hard) = time_budget(t, inc, mtg, 30);
            assert!(soft <= hard);
            assert!(
                hard.as_millis() as u64 <= t.max(1),
                "{t} {inc} {mtg:?}: {hard:?}"
            );
        }
    }
}
