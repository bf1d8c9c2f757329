//! `hashmate book make|merge|probe|stats`: build Polyglot books from PGN
//! the way `polyglot make-book` does (exactly counted, see [`make`]),
//! merge counts of shards, and look inside books.

pub mod counts;
mod input;
pub mod make;
mod spill;

use clap::{Args, Subcommand};
use hashmate::book::Book;
use hashmate::Position;
use hashmate_data::files;
use hashmate_engine::book::load;
use hashmate_engine::output;
use make::{Counts, COUNTS_MAGIC};
use std::collections::{HashMap, HashSet};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book from PGN games (weights: win 2, draw 1, loss 0).
    Make(MakeArgs),
    /// Add up counts files (from `make --counts-out`) and Polyglot books
    /// into one book.
    Merge(MergeArgs),
    /// Print the book moves of a position, highest weight first.
    Probe {
        /// The book file.
        book: String,
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Print the number of entries, distinct positions and the deepest line.
    Stats {
        /// The book file.
        book: String,
    },
}

#[derive(Args)]
pub struct MakeArgs {
    /// PGN inputs: files (plain, .gz, .zst or .bz2, by extension),
    /// patterns with * or ? in the file name, or - for standard input.
    #[arg(long, required = true, num_args = 1..)]
    pub pgn: Vec<String>,
    /// Book file to write.
    #[arg(long, required_unless_present = "counts_out")]
    pub out: Option<String>,
    /// Also (or instead) write the exact counts — wins, draws and losses
    /// per (position, move) — for `book merge`.
    #[arg(long)]
    pub counts_out: Option<String>,
    /// Only the first N plies of each game.
    #[arg(long, default_value_t = 1024)]
    pub max_ply: usize,
    /// Threads parsing and replaying games (the book is the same for any
    /// number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Keep the counts within about this many MB of memory: beyond it they
    /// are written to sorted runs on disk and merged at the end (the book
    /// is the same).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub memory: Option<u32>,
    /// Where the runs of --memory go (default: the system's temporary
    /// directory); they are removed at the end, also after an error.
    #[arg(long)]
    pub tmp_dir: Option<std::path::PathBuf>,
    /// What enters the book.
    #[command(flatten)]
    pub book: BookOptions,
    /// Only moves played by White.
    #[arg(long, conflicts_with = "only_black")]
    pub only_white: bool,
    /// Only moves played by Black.
    #[arg(long)]
    pub only_black: bool,
    /// Only games whose players are both rated at least this (WhiteElo and
    /// BlackElo tags; a game without them is left out).
    #[arg(long)]
    pub min_elo: Option<u32>,
    /// Only games with these results (any of 1-0, 0-1, 1/2-1/2; comma
    /// separated).
    #[arg(long, value_delimiter = ',', value_parser = ["1-0", "0-1", "1/2-1/2"])]
    pub result: Vec<String>,
    /// Replace an output that exists and is not what it would become (a
    /// Polyglot book for --out, a counts file for --counts-out): without
    /// it such a file is left alone and nothing is done.
    #[arg(long)]
    pub force: bool,
    /// Only games of these time-control classes (bullet, blitz, rapid,
    /// classical; comma separated), from the TimeControl tag `base+inc`
    /// in seconds by the estimated duration base + 40 × inc: under 180 s
    /// bullet, under 480 s blitz, under 1,500 s rapid, else classical; a
    /// game without a readable TimeControl is left out.
    #[arg(long, value_delimiter = ',', value_parser = ["bullet", "blitz", "rapid", "classical"])]
    pub time_control: Vec<String>,
}

/// Which counted moves enter a book, and with what weight.
#[derive(Args, Clone, Debug)]
pub struct BookOptions {
    /// Keep a move only if it was played in at least N games.
    #[arg(long, default_value_t = 3)]
    pub min_games: u32,
    /// Keep a move only if its score (win 1, draw ½, for the side that
    /// played it) is at least this many percent of its games (Polyglot's
    /// -min-score).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub min_score: u32,
    /// Every kept move gets weight 1 (Polyglot's -uniform).
    #[arg(long)]
    pub uniform: bool,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Book file to write.
    #[arg(long)]
    pub out: String,
    /// Replace an --out that exists and is not a Polyglot book.
    #[arg(long)]
    pub force: bool,
    /// What enters the book.
    #[command(flatten)]
    pub book: BookOptions,
    /// Counts files (`book make --counts-out`) and Polyglot books, told
    /// apart by their first bytes. A Polyglot entry of weight w counts as
    /// w/2 wins and w mod 2 draws in max(1, ⌈w/2⌉) games: its weights were
    /// normalised, so this is an approximation, not the games.
    #[arg(required = true)]
    pub inputs: Vec<String>,
}

/// The time-control class of a `TimeControl` tag value (`base+inc` or
/// `base`, seconds), by the estimated duration base + 40 × increment.
pub fn time_class(tc: &str) -> Option<&'static str> {
    let (base, inc) = match tc.split_once('+') {
        Some((b, i)) => (b.trim().parse::<u64>().ok()?, i.trim().parse::<u64>().ok()?),
        None => (tc.trim().parse::<u64>().ok()?, 0),
    };
    // An absurd value (one that overflows) is no time control at all.
    let estimate = inc.checked_mul(40)?.checked_add(base)?;
    Some(match estimate {
        0..=179 => "bullet",
        180..=479 => "blitz",
        480..=1499 => "rapid",
        _ => "classical",
    })
}

impl MakeArgs {
    /// Whether a game with these tags and result passes the tag filters.
    fn wants(&self, game: &hashmate::pgn::PgnGame) -> bool {
        if let Some(min) = self.min_elo {
            let rated = |tag: &str| game.tag(tag).and_then(|v| v.trim().parse::<u32>().ok());
            match (rated("WhiteElo"), rated("BlackElo")) {
                (Some(w), Some(b)) if w >= min && b >= min => {}
                _ => return false,
            }
        }
        if !self.result.is_empty() && !self.result.iter().any(|r| r == game.result.as_str()) {
            return false;
        }
        if !self.time_control.is_empty() {
            match game.tag("TimeControl").and_then(time_class) {
                Some(class) if self.time_control.iter().any(|c| c == class) => {}
                _ => return false,
            }
        }
        true
    }
}

pub fn run(cmd: &BookCommand) -> ExitCode {
    let result = match cmd {
        BookCommand::Make(a) => make::make(a),
        BookCommand::Merge(a) => merge(a),
        BookCommand::Probe { book, fen } => probe(book, fen.as_deref()),
        BookCommand::Stats { book } => stats(book),
    };
    match result {
        Ok(()) => output::status(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("hashmate book: {e}");
            ExitCode::from(2)
        }
    }
}

fn probe(path: &str, fen: Option<&str>) -> Result<(), String> {
    let book = load(path)?;
    let pos = match fen {
        Some(f) => Position::from_fen(f).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };
    let mut moves = book.moves(&pos);
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    for (m, w) in moves {
        output::emit(&format!("{} {w}", m.to_uci(pos.castling_mode())));
        if output::closed() {
            break;
        }
    }
    Ok(())
}

/// The longest line of book moves from a position, each position expanded
/// once: linear in the size of the book.
struct Deepest<'a> {
    book: &'a Book,
    /// Per position: the plies of book moves that can follow, and the first.
    memo: HashMap<u64, (u32, Option<hashmate::Move>)>,
    /// Positions of the line being walked: a move back into one of them
    /// (a cycle) ends the line there.
    on_line: HashSet<u64>,
}

/// Lines are cut at this many plies.
const MAX_BOOK_LINE: u32 = 1000;

impl Deepest<'_> {
    fn plies(&mut self, pos: &Position, depth: u32) -> u32 {
        let key = pos.key();
        if let Some(&(n, _)) = self.memo.get(&key) {
            return n;
        }
        if depth >= MAX_BOOK_LINE || !self.on_line.insert(key) {
            return 0;
        }
        let mut best = (0, None);
        for (m, _) in self.book.moves(pos) {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let n = 1 + self.plies(&child, depth + 1);
            if n > best.0 {
                best = (n, Some(m));
            }
        }
        self.on_line.remove(&key);
        self.memo.insert(key, best);
        best.0
    }
}

fn stats(path: &str) -> Result<(), String> {
    let start = std::time::Instant::now();
    let book = load(path)?;
    let positions: HashSet<u64> = book.entries().iter().map(|e| e.key).collect();
    let mut walk = Deepest {
        book: &book,
        memo: HashMap::new(),
        on_line: HashSet::new(),
    };
    let mut pos = Position::startpos();
    let plies = walk.plies(&pos, 0);
    let mut line = Vec::new();
    while let Some(&(_, Some(m))) = walk.memo.get(&pos.key()) {
        if line.len() as u32 >= plies {
            break;
        }
        line.push(pos.to_san(m).unwrap_or_else(|_| m.to_string()));
        pos.play_unchecked(m);
    }
    output::emit(&format!("entries: {}", book.len()));
    output::emit(&format!("positions: {}", positions.len()));
    output::emit(&format!(
        "positions reachable from the start by book moves: {}",
        walk.memo.len()
    ));
    output::emit(&format!(
        "deepest line: {} plies (cycles cut): {}",
        line.len(),
        line.join(" ")
    ));
    eprintln!("{:.3} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// Counts files are read whole; larger ones are refused (16 GiB).
const MAX_COUNTS_BYTES: u64 = 16 << 30;

fn merge(a: &MergeArgs) -> Result<(), String> {
    let out = std::path::Path::new(&a.out);
    let inputs: Vec<&std::path::Path> = a.inputs.iter().map(std::path::Path::new).collect();
    check_outputs(&[(a.out.as_str(), Output::Book)], &inputs, "file", a.force)?;
    let mut counts = Counts::default();
    for input in &a.inputs {
        let bytes =
            files::read_limited(std::path::Path::new(input), MAX_COUNTS_BYTES, "counts file")?;
        if bytes.starts_with(COUNTS_MAGIC) {
            counts
                .add_file(&bytes)
                .map_err(|e| format!("{input}: {e}"))?;
        } else {
            let book = Book::from_bytes(&bytes)
                .map_err(|e| format!("{input}: neither a counts file nor a Polyglot book: {e}"))?;
            eprintln!("{input}: a Polyglot book; its weights count approximately");
            counts.add_book(&book);
        }
    }
    let book = counts.into_book(&a.book)?;
    files::write_atomically(out, &make::book_bytes(&book)?)?;
    eprintln!(
        "{} inputs merged, {} entries written to {}",
        a.inputs.len(),
        book.len(),
        a.out
    );
    Ok(())
}

/// What an output of `book make` or `book merge` becomes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// A Polyglot book (`--out`).
    Book,
    /// A counts file (`--counts-out`).
    Counts,
}

/// Refuse, before any work, the outputs that would lose something: one
/// file named twice (also through links), an input, a path that cannot be
/// written, or a file that exists and is not what the output would become
/// (a PGN given as `--out` by mistake, say) unless `force`.
pub(crate) fn check_outputs(
    outs: &[(&str, Output)],
    inputs: &[&std::path::Path],
    input_kind: &str,
    force: bool,
) -> Result<(), String> {
    for (i, &(out, kind)) in outs.iter().enumerate() {
        let path = std::path::Path::new(out);
        if let Some((other, _)) = outs[..i]
            .iter()
            .find(|(o, _)| files::same_file(std::path::Path::new(o), path))
        {
            return Err(format!(
                "'{out}' and '{other}' are the same file: the book and the counts need two"
            ));
        }
        if let Some(input) = inputs.iter().find(|p| files::same_file(p, path)) {
            return Err(format!(
                "the output '{out}' is the input {input_kind} '{}'; refusing to overwrite it",
                input.display()
            ));
        }
        files::check_output(path)?;
        if !force {
            if let Some(why) = not_ours(path, kind) {
                return Err(format!(
                    "'{out}' exists and is not {why}; refusing to replace it (--force replaces it)"
                ));
            }
        }
    }
    Ok(())
}

/// Why the file at `path` is not a `kind` file that an output may replace,
/// or `None` when it may (nothing there, an empty file, a device, or a
/// file of that kind). Only the start of a book is read.
fn not_ours(path: &std::path::Path, kind: Output) -> Option<&'static str> {
    if files::is_standard_stream(path) {
        // Written as a stream (appended to, or piped): nothing is replaced.
        return None;
    }
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() == 0 {
        return None;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 16), &mut head));
    if read.is_err() {
        return Some("readable");
    }
    match kind {
        Output::Counts => (!head.starts_with(COUNTS_MAGIC)).then_some("a counts file"),
        Output::Book => {
            let whole = head.len() - head.len() % 16;
            let looks = meta.len() % 16 == 0 && Book::from_bytes(&head[..whole]).is_ok();
            (!looks || head.starts_with(COUNTS_MAGIC)).then_some("a Polyglot book")
        }
    }
}
