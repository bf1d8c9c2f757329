//! `hashmate book make|probe|stats`: build Polyglot books from PGN the way
//! `polyglot make-book` does, and look inside books.

pub mod counts;

use clap::{Args, Subcommand};
use counts::CountTable;
use hashmate::book::{encode_move, Book, BookEntry};
use hashmate::pgn::{GameResult, GameText, PgnStream};
use hashmate::{Color, Position};
use hashmate_data::files;
use hashmate_engine::book::load;
use hashmate_engine::output;
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, IsTerminal, Read};
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
    let estimate = base + 40 * inc;
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
        BookCommand::Make(a) => make(a),
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

/// Wins, draws and losses (for the side that played the move) per
/// (position key, Polyglot move) over the games read so far: what a book
/// is made of, exactly, so that counts of several parts add up to the
/// counts of the whole.
#[derive(Debug, Default)]
pub struct Counts {
    stats: CountTable,
    /// Games counted.
    pub games: usize,
    /// Games too long to hold, reported with the other errors.
    skipped_long: Vec<hashmate::pgn::PgnError>,
    /// Sorted runs on disk, when memory is bounded (`--memory`).
    spill: Option<std::sync::Arc<Spill>>,
}

/// Counts spilled to disk: sorted runs of counts records (the counts
/// file's record layout, no header) in a private temporary directory,
/// removed when the spill is dropped (also after an error).
#[derive(Debug)]
pub struct Spill {
    dir: std::path::PathBuf,
    runs: std::sync::Mutex<Vec<std::path::PathBuf>>,
    next: std::sync::atomic::AtomicUsize,
    /// A map holding more entries than this is written out.
    limit: usize,
}

/// Bytes a counted (position, move) costs in memory, conservatively: a
/// 16-byte record, the unmerged buffer (up to a quarter more) and the
/// room a merge makes.
const BYTES_PER_COUNT: usize = 24;

impl Spill {
    /// A spill for `memory_mb` MB shared by `maps` maps, in `parent`.
    ///
    /// # Errors
    /// When the temporary directory cannot be made.
    pub fn new(parent: &std::path::Path, memory_mb: usize, maps: usize) -> Result<Spill, String> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = parent.join(format!("hashmate-book-{}-{stamp}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot make the spill directory {}: {e}", dir.display()))?;
        Ok(Spill {
            dir,
            runs: std::sync::Mutex::new(Vec::new()),
            next: std::sync::atomic::AtomicUsize::new(0),
            limit: (memory_mb << 20) / BYTES_PER_COUNT / maps.max(1),
        })
    }

    /// Write `stats` as a sorted run and empty it.
    fn write_run(&self, stats: &mut CountTable) -> Result<(), String> {
        use std::io::Write;
        let n = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = self.dir.join(format!("run-{n:06}"));
        let mut write = || -> std::io::Result<()> {
            let mut w = std::io::BufWriter::new(std::fs::File::create(&path)?);
            for ((key, mv), wdl) in stats.sorted_counts() {
                w.write_all(&record_bytes(key, mv, wdl))?;
            }
            w.into_inner().map_err(|e| e.into_error())?.sync_all()
        };
        let written = write();
        stats.clear();
        written.map_err(|e| format!("cannot spill counts to {}: {e}", path.display()))?;
        self.runs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(path);
        Ok(())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One counts record's bytes: key, move, wins, draws, losses.
fn record_bytes(key: u64, mv: u16, wdl: [u32; 3]) -> [u8; COUNT_RECORD] {
    let mut r = [0u8; COUNT_RECORD];
    r[..8].copy_from_slice(&key.to_le_bytes());
    r[8..10].copy_from_slice(&mv.to_le_bytes());
    for (i, x) in wdl.iter().enumerate() {
        r[10 + 4 * i..14 + 4 * i].copy_from_slice(&x.to_le_bytes());
    }
    r
}

/// The record of `r`'s bytes.
fn parse_record(r: &[u8]) -> ((u64, u16), [u32; 3]) {
    let u32_at = |i: usize| u32::from_le_bytes([r[i], r[i + 1], r[i + 2], r[i + 3]]);
    let mut key = [0u8; 8];
    key.copy_from_slice(&r[..8]);
    (
        (u64::from_le_bytes(key), u16::from_le_bytes([r[8], r[9]])),
        [u32_at(10), u32_at(14), u32_at(18)],
    )
}

/// One count: (key, Polyglot move) and wins, draws, losses.
type Count = ((u64, u16), [u32; 3]);

/// Counts in (key, move) order, or an error reading them.
type Records<'a> = Box<dyn Iterator<Item = Result<Count, String>> + 'a>;

/// A run's next count, ordered by (key, move) then run.
type Head = std::cmp::Reverse<((u64, u16), usize, [u32; 3])>;

/// Sorted runs merged into one sorted sequence, equal (key, move) added.
struct Merged {
    readers: Vec<std::io::BufReader<std::fs::File>>,
    heap: std::collections::BinaryHeap<Head>,
}

impl Merged {
    fn open(runs: &[std::path::PathBuf]) -> Result<Merged, String> {
        let mut m = Merged {
            readers: Vec::new(),
            heap: std::collections::BinaryHeap::new(),
        };
        for (i, run) in runs.iter().enumerate() {
            let f = std::fs::File::open(run).map_err(|e| format!("{}: {e}", run.display()))?;
            m.readers
                .push(std::io::BufReader::with_capacity(1 << 16, f));
            m.refill(i)?;
        }
        Ok(m)
    }

    fn refill(&mut self, i: usize) -> Result<(), String> {
        let mut r = [0u8; COUNT_RECORD];
        match self.readers[i].read_exact(&mut r) {
            Ok(()) => {
                let (k, wdl) = parse_record(&r);
                self.heap.push(std::cmp::Reverse((k, i, wdl)));
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(()),
            Err(e) => Err(format!("cannot read a spilled run: {e}")),
        }
    }
}

impl Iterator for Merged {
    type Item = Result<Count, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let std::cmp::Reverse((key, i, mut wdl)) = self.heap.pop()?;
        if let Err(e) = self.refill(i) {
            return Some(Err(e));
        }
        while let Some(std::cmp::Reverse((k, _, _))) = self.heap.peek() {
            if *k != key {
                break;
            }
            let Some(std::cmp::Reverse((_, j, more))) = self.heap.pop() else {
                break;
            };
            for (x, y) in wdl.iter_mut().zip(more) {
                *x = x.saturating_add(y);
            }
            if let Err(e) = self.refill(j) {
                return Some(Err(e));
            }
        }
        Some(Ok((key, wdl)))
    }
}

/// Magic bytes of a counts file.
pub const COUNTS_MAGIC: &[u8; 8] = b"HMCOUNT1";

/// Bytes of one counts record: key, move, wins, draws, losses.
const COUNT_RECORD: usize = 8 + 2 + 4 * 3;

impl Counts {
    /// Count the games of `input` on `threads` threads: this thread cuts
    /// the input into games ([`PgnStream::next_text`]) and hands them out
    /// in batches; each worker parses and replays its games into counts
    /// of its own, added up at the end (addition commutes, so the counts,
    /// and the book, do not depend on the number of threads). Memory holds
    /// the counts and a few batches of games, not the PGN. `progress` is
    /// called with the games handed out so far; the games that cannot be
    /// read are returned, in the order of their lines.
    ///
    /// # Errors
    /// A read error of the input (a damaged compressed file, say).
    pub fn add(
        &mut self,
        input: impl BufRead,
        a: &MakeArgs,
        threads: usize,
        mut progress: impl FnMut(usize),
    ) -> Result<Vec<hashmate::pgn::PgnError>, String> {
        const BATCH: usize = 64;
        let mut stream = PgnStream::new(input);
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<GameText>>(2 * threads.max(1));
        let rx = std::sync::Mutex::new(rx);
        let (parts, fatal) = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.max(1))
                .map(|_| {
                    let rx = &rx;
                    let spill = self.spill.clone();
                    scope.spawn(move || {
                        let mut counts = Counts::default();
                        let mut errors = Vec::new();
                        let mut spill_error = None;
                        loop {
                            let batch = match rx.lock() {
                                Ok(r) => r.recv(),
                                Err(_) => break,
                            };
                            let Ok(batch) = batch else { break };
                            for text in &batch {
                                for game in text.parse(false) {
                                    match game {
                                        Ok(g) => counts.count_game(&g, a),
                                        Err(e) => errors.push(e),
                                    }
                                }
                            }
                            if let Some(sp) = &spill {
                                if counts.stats.len() > sp.limit && spill_error.is_none() {
                                    spill_error = sp.write_run(&mut counts.stats).err();
                                }
                            }
                        }
                        if let (Some(sp), None) = (&spill, &spill_error) {
                            if !counts.stats.is_empty() {
                                spill_error = sp.write_run(&mut counts.stats).err();
                            }
                        }
                        (counts, errors, spill_error)
                    })
                })
                .collect();
            let mut fatal = None;
            let mut batch = Vec::with_capacity(BATCH);
            let mut handed = 0;
            while let Some(text) = stream.next_text() {
                match text {
                    Ok(t) => batch.push(t),
                    Err(e) if matches!(e.kind, hashmate::pgn::PgnErrorKind::Read(_)) => {
                        fatal = Some(e);
                        break;
                    }
                    // A game too long: reported among the others.
                    Err(e) => self.skipped_long.push(e),
                }
                if batch.len() == BATCH {
                    handed += batch.len();
                    progress(handed);
                    if tx
                        .send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
                        .is_err()
                    {
                        break;
                    }
                }
            }
            if !batch.is_empty() {
                let _ = tx.send(batch);
            }
            drop(tx);
            let parts: Vec<_> = workers.into_iter().filter_map(|w| w.join().ok()).collect();
            (parts, fatal)
        });
        let mut errors = std::mem::take(&mut self.skipped_long);
        let mut spill_failed = None;
        for (mut counts, errs, spill_error) in parts {
            spill_failed = spill_failed.or(spill_error);
            self.games += counts.games;
            // The smaller table is merged into the larger, in place.
            self.stats.absorb(std::mem::take(&mut counts.stats));
            errors.extend(errs);
        }
        if let Some(e) = fatal {
            return Err(e.to_string());
        }
        if let Some(message) = spill_failed {
            return Err(message);
        }
        errors.sort_by_key(|e| e.line);
        Ok(errors)
    }

    /// Count one game's moves (if the tag filters keep it).
    fn count_game(&mut self, game: &hashmate::pgn::PgnGame, a: &MakeArgs) {
        if !a.wants(game) {
            return;
        }
        self.games += 1;
        let mut pos = game.start.clone();
        for (ply, &mv) in game.moves.iter().enumerate() {
            if ply >= a.max_ply {
                break;
            }
            let us = pos.side_to_move();
            let keep = match us {
                Color::White => !a.only_black,
                Color::Black => !a.only_white,
            };
            if keep {
                // 0 win, 1 draw, 2 loss, for the side to move.
                let outcome = match (game.result, us) {
                    (GameResult::WhiteWins, Color::White)
                    | (GameResult::BlackWins, Color::Black) => 0,
                    (GameResult::Draw, _) => 1,
                    _ => 2,
                };
                self.add_count(pos.key(), encode_move(mv), {
                    let mut wdl = [0; 3];
                    wdl[outcome] = 1;
                    wdl
                });
            }
            pos.play_unchecked(mv);
        }
    }

    /// Add `[wins, draws, losses]` for `(key, mv)`.
    fn add_count(&mut self, key: u64, mv: u16, wdl: [u32; 3]) {
        self.stats.add(key, mv, wdl);
    }

    /// Count with memory bounded by `spill` (sorted runs on disk).
    pub fn with_spill(spill: Spill) -> Counts {
        Counts {
            spill: Some(std::sync::Arc::new(spill)),
            ..Counts::default()
        }
    }

    /// Every count in (key, move) order: from memory, or merged from the
    /// spilled runs.
    fn records(&mut self) -> Result<Records<'_>, String> {
        let runs = match &self.spill {
            Some(sp) => sp.runs.lock().unwrap_or_else(|e| e.into_inner()).clone(),
            None => Vec::new(),
        };
        if runs.is_empty() {
            return Ok(Box::new(self.stats.sorted_counts().map(Ok)));
        }
        Ok(Box::new(Merged::open(&runs)?))
    }

    /// The counts file: `HMCOUNT1`, the number of records (`u64`), the
    /// records sorted by key and move — key `u64`, Polyglot move `u16`,
    /// wins, draws, losses `u32` — all little-endian, then the FNV-1a
    /// checksum (`u64`) of everything before it.
    ///
    /// # Errors
    /// When a spilled run cannot be read.
    pub fn to_bytes(&mut self) -> Result<Vec<u8>, String> {
        let mut b = Vec::new();
        b.extend_from_slice(COUNTS_MAGIC);
        b.extend_from_slice(&0u64.to_le_bytes());
        let mut n = 0u64;
        for r in self.records()? {
            let ((key, mv), wdl) = r?;
            b.extend_from_slice(&record_bytes(key, mv, wdl));
            n += 1;
        }
        b[8..16].copy_from_slice(&n.to_le_bytes());
        let sum = hashmate_nnue::checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        Ok(b)
    }

    /// Add the counts of a counts file.
    ///
    /// # Errors
    /// A message when the bytes are not a whole, undamaged counts file.
    pub fn add_file(&mut self, b: &[u8]) -> Result<(), String> {
        if b.len() < 24 || &b[..8] != COUNTS_MAGIC {
            return Err("not a counts file".into());
        }
        let n = u64::from_le_bytes(b[8..16].try_into().map_err(|_| "short header")?);
        let expected = (n as u128) * COUNT_RECORD as u128 + 24;
        if b.len() as u128 != expected {
            return Err(format!(
                "{} bytes where {n} records need {expected}: truncated or damaged",
                b.len()
            ));
        }
        let (body, tail) = b.split_at(b.len() - 8);
        if hashmate_nnue::checksum(body).to_le_bytes() != tail {
            return Err("checksum mismatch: the file is damaged".into());
        }
        for r in body[16..].chunks_exact(COUNT_RECORD) {
            let u32_at = |i: usize| u32::from_le_bytes([r[i], r[i + 1], r[i + 2], r[i + 3]]);
            let key = u64::from_le_bytes(r[..8].try_into().map_err(|_| "short record")?);
            let mv = u16::from_le_bytes([r[8], r[9]]);
            self.add_count(key, mv, [u32_at(10), u32_at(14), u32_at(18)]);
        }
        Ok(())
    }

    /// Add a Polyglot book's entries, approximately: weight w as w/2 wins
    /// and w mod 2 draws in max(1, ⌈w/2⌉) games.
    pub fn add_book(&mut self, book: &Book) {
        for e in book.entries() {
            let w = u32::from(e.weight);
            let (wins, draws) = (w / 2, w % 2);
            let games = w.div_ceil(2).max(1);
            self.add_count(e.key, e.mv, [wins, draws, games - wins - draws]);
        }
    }

    /// The book: moves played in at least `--min-games` games with a
    /// positive score of at least `--min-score` percent, weighted by score
    /// (win 2, draw 1; 1 each with `--uniform`), scaled into 16 bits only
    /// when some weight would not fit.
    ///
    /// # Errors
    /// When a spilled run cannot be read.
    pub fn into_book(mut self, o: &BookOptions) -> Result<Book, String> {
        let score = |[w, d, _]: [u32; 3]| 2 * u64::from(w) + u64::from(d);
        let games = |[w, d, l]: [u32; 3]| u64::from(w) + u64::from(d) + u64::from(l);
        let mut max = 0;
        for r in self.records()? {
            max = max.max(score(r?.1));
        }
        let keep = |c: [u32; 3]| {
            let (n, sum) = (games(c), score(c));
            n >= u64::from(o.min_games) && sum > 0 && sum * 100 >= u64::from(o.min_score) * 2 * n
        };
        let mut entries = Vec::new();
        for r in self.records()? {
            let ((key, mv), c) = r?;
            if !keep(c) {
                continue;
            }
            entries.push(BookEntry {
                key,
                mv,
                weight: if o.uniform {
                    1
                } else if max > 0xffff {
                    (score(c) * 0xffff / max).max(1) as u16
                } else {
                    score(c) as u16
                },
                learn: 0,
            });
        }
        // Within a position: heaviest first, then by move, for a stable file.
        entries.sort_by(|x, y| {
            x.key
                .cmp(&y.key)
                .then(y.weight.cmp(&x.weight))
                .then(x.mv.cmp(&y.mv))
        });
        Ok(Book::from_entries(entries))
    }
}

/// Counts files are read whole; larger ones are refused (16 GiB).
const MAX_COUNTS_BYTES: u64 = 16 << 30;

fn merge(a: &MergeArgs) -> Result<(), String> {
    let out = std::path::Path::new(&a.out);
    for input in &a.inputs {
        if files::same_file(std::path::Path::new(input), out) {
            return Err(format!(
                "the output '{}' is an input; refusing to overwrite it",
                a.out
            ));
        }
    }
    files::check_output(out)?;
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
    files::write_atomically(out, &book.to_bytes())?;
    eprintln!(
        "{} inputs merged, {} entries written to {}",
        a.inputs.len(),
        book.len(),
        a.out
    );
    Ok(())
}

/// One PGN input: a file (plain, `.gz`, `.zst` or `.bz2`) or `-` for
/// standard input.
struct Input {
    name: String,
    /// Size in bytes as stored (compressed), when known.
    size: Option<u64>,
}

/// The inputs named by `--pgn`: files, `-`, and patterns with `*` or `?`
/// in their last component (for shells that leave them unexpanded),
/// matched in sorted order.
fn inputs(names: &[String]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for name in names {
        if name == "-" {
            out.push(Input {
                name: name.clone(),
                size: None,
            });
            continue;
        }
        let path = std::path::Path::new(name);
        let file_name = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
        let paths = if file_name.contains(['*', '?']) {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => std::path::PathBuf::from("."),
            };
            let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let mut found: Vec<std::path::PathBuf> = entries
                .filter_map(|e| e.ok())
                .filter(|e| wildcard(file_name, &e.file_name().to_string_lossy()))
                .map(|e| e.path())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!("no file matches '{name}'"));
            }
            found
        } else {
            vec![path.to_path_buf()]
        };
        for p in paths {
            let meta = files::require_regular(&p, "PGN file")?;
            out.push(Input {
                name: p.display().to_string(),
                size: Some(meta.len()),
            });
        }
    }
    Ok(out)
}

/// Whether `name` matches `pattern` (`*` any run, `?` any one character).
fn wildcard(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// A reader that counts the bytes taken from the one below it (the
/// compressed bytes, for the progress bar).
struct Counted<R> {
    inner: R,
    count: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// The text of `input`, decompressed by its extension.
fn open(
    input: &Input,
    count: std::rc::Rc<std::cell::Cell<u64>>,
) -> Result<Box<dyn BufRead>, String> {
    let raw: Box<dyn Read> = if input.name == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(
            std::fs::File::open(&input.name)
                .map_err(|e| format!("cannot read PGN file '{}': {e}", input.name))?,
        )
    };
    let counted = Counted { inner: raw, count };
    let name = input.name.to_ascii_lowercase();
    let text: Box<dyn Read> = if name.ends_with(".zst") || name.ends_with(".zstd") {
        Box::new(
            zstd::stream::read::Decoder::new(counted)
                .map_err(|e| format!("{}: not zstd: {e}", input.name))?,
        )
    } else if name.ends_with(".gz") {
        Box::new(flate2::read::MultiGzDecoder::new(counted))
    } else if name.ends_with(".bz2") {
        Box::new(bzip2::read::MultiBzDecoder::new(counted))
    } else {
        Box::new(counted)
    };
    Ok(Box::new(BufReader::with_capacity(1 << 16, text)))
}

fn make(a: &MakeArgs) -> Result<(), String> {
    let outs: Vec<&String> = a.out.iter().chain(&a.counts_out).collect();
    let inputs = inputs(&a.pgn)?;
    for out in &outs {
        let out_path = std::path::Path::new(out.as_str());
        for input in &inputs {
            if input.name != "-" && files::same_file(std::path::Path::new(&input.name), out_path) {
                return Err(format!(
                    "the output '{out}' is an input PGN; refusing to overwrite it"
                ));
            }
        }
        files::check_output(out_path)?;
    }
    let total: u64 = inputs.iter().filter_map(|i| i.size).sum();
    let sized = inputs.iter().all(|i| i.size.is_some());
    let show = std::io::stderr().is_terminal() && total > 1 << 20 && sized;
    let start = std::time::Instant::now();
    let mut counts = match a.memory {
        None => Counts::default(),
        Some(mb) => {
            let parent = a.tmp_dir.clone().unwrap_or_else(std::env::temp_dir);
            Counts::with_spill(Spill::new(&parent, mb as usize, a.threads as usize)?)
        }
    };
    let (mut bad, mut done_before) = (0, 0u64);
    for input in &inputs {
        let count = std::rc::Rc::new(std::cell::Cell::new(0));
        let reader = open(input, count.clone())?;
        let mut last = std::time::Instant::now();
        let added = counts.add(reader, a, a.threads as usize, |games| {
            if show && last.elapsed().as_millis() >= 250 {
                last = std::time::Instant::now();
                let done = done_before + count.get();
                let secs = start.elapsed().as_secs_f64().max(1e-3);
                let pct = done as f64 * 100.0 / total.max(1) as f64;
                let eta = (total - done.min(total)) as f64 / (done as f64 / secs).max(1.0);
                eprint!(
                    "\r{pct:5.1} %  {games} games  {:.0} games/s  {:.1} MB/s  ETA {eta:.0} s   ",
                    games as f64 / secs,
                    done as f64 / secs / 1e6
                );
            }
        });
        match added {
            Ok(errors) => {
                for e in errors {
                    bad += 1;
                    eprintln!("{}: {e}; game skipped", input.name);
                }
            }
            Err(e) => return Err(format!("{}: {e}", input.name)),
        }
        done_before += count.get();
    }
    if show {
        eprintln!();
    }
    let games = counts.games;
    if let Some(path) = &a.counts_out {
        let bytes = counts.to_bytes()?;
        files::write_atomically(std::path::Path::new(path), &bytes)?;
        eprintln!(
            "{games} games used, {bad} skipped, {} counts written to {path}",
            (bytes.len() - 24) / COUNT_RECORD
        );
    }
    if let Some(path) = &a.out {
        let book = counts.into_book(&a.book)?;
        files::write_atomically(std::path::Path::new(path), &book.to_bytes())?;
        eprintln!(
            "{games} games used, {bad} skipped, {} entries written to {path}",
            book.len()
        );
    }
    Ok(())
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
