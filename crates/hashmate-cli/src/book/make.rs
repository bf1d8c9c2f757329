//! `hashmate book make`: PGN games counted per (position, move) into
//! exact wins, draws and losses ([`Counts`]), on several threads, within a
//! memory bound (spilling sorted runs to disk), then written as a Polyglot
//! book and/or a counts file.

use super::counts::CountTable;
use super::input::{inputs, open};
use super::spill::{record_bytes, Merged, Spill, COUNT_RECORD};
use super::{check_outputs, BookOptions, MakeArgs, Output};
use hashmate::book::{encode_move, Book, BookEntry};
use hashmate::pgn::{GameResult, GameText, PgnStream};
use hashmate::Color;
use hashmate_data::files;
use std::io::{BufRead, IsTerminal};

/// Magic bytes of a counts file.
pub const COUNTS_MAGIC: &[u8; 8] = b"HMCOUNT1";

/// Wins, draws and losses (for the side that played the move) per
/// (position key, Polyglot move) over the games read so far: what a book
/// is made of, exactly, so that counts of several parts add up to the
/// counts of the whole.
#[derive(Debug, Default)]
pub struct Counts {
    stats: CountTable,
    /// Games counted (those the filters kept).
    pub games: usize,
    /// Chess games read, before the filters.
    pub read: usize,
    /// Games of other variants (`[Variant "…"]`), by variant, skipped.
    pub other_variants: std::collections::BTreeMap<String, usize>,
    /// Games too long to hold, reported with the other errors.
    skipped_long: Vec<hashmate::pgn::PgnError>,
    /// Sorted runs on disk, when memory is bounded (`--memory`).
    spill: Option<std::sync::Arc<Spill>>,
}

/// The variant a game's `Variant` tag names when it is not chess (nor
/// Chess960, whose games are chess games from another start): such a game
/// is played on another board and has no place in a chess book.
fn other_variant(game: &hashmate::pgn::PgnGame) -> Option<String> {
    let v = game.tag("Variant")?;
    let plain: String = v
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    let chess = [
        "",
        "standard",
        "chess",
        "normal",
        "chess960",
        "fischerandom",
        "fischerrandom",
        "frc",
        "fromposition",
    ];
    (!chess.contains(&plain.as_str())).then(|| v.chars().take(40).collect())
}

/// Room for `n` more items in `v` (doubling as `push` would), or a
/// message naming the memory that could not be had: the book and the
/// counts file are as large as the counts, and must not abort the run.
pub(crate) fn room<T>(v: &mut Vec<T>, n: usize) -> Result<(), String> {
    if v.capacity() - v.len() >= n {
        return Ok(());
    }
    let more = v.capacity().max(n).max(1024);
    v.try_reserve(more).map_err(|_| {
        format!(
            "not enough memory for the output ({} bytes)",
            (v.len() + more) * std::mem::size_of::<T>()
        )
    })
}

/// The book's file bytes, or a message when they do not fit in memory.
pub(crate) fn book_bytes(book: &Book) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    room(&mut bytes, 16 * book.len())?;
    for e in book.entries() {
        bytes.extend_from_slice(&e.to_bytes());
    }
    Ok(bytes)
}

/// What to say when the counts outgrow memory.
fn out_of_memory(bytes: usize) -> String {
    format!(
        "not enough memory for the counts ({bytes} bytes more); --memory MB keeps them within a bound, spilling sorted runs to disk"
    )
}

/// A batch of games is handed to a worker at 64 games or this many bytes.
const BATCH_BYTES: usize = 1 << 20;

/// The most bytes of games cut but not yet counted (queued, or being
/// counted); a batch larger than this alone still passes when nothing
/// else is held, so memory holds at most this plus one batch.
const QUEUE_BYTES: usize = 32 << 20;

/// The bytes of the games between the cutter and the workers.
#[derive(Default)]
struct QueueBudget {
    held: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

impl QueueBudget {
    /// Wait until `bytes` more fit (or nothing is held), then hold them.
    fn acquire(&self, bytes: usize) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        while *held > 0 && *held + bytes > QUEUE_BYTES {
            held = self.freed.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        *held += bytes;
    }

    /// `bytes` are counted and dropped.
    fn release(&self, bytes: usize) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        *held = held.saturating_sub(bytes);
        self.freed.notify_all();
    }
}

/// The bytes a batch of games holds.
fn batch_bytes(batch: &[GameText]) -> usize {
    batch.iter().map(|t| t.bytes.len()).sum()
}

/// One count: (key, Polyglot move) and wins, draws, losses.
pub(crate) type Count = ((u64, u16), [u32; 3]);

/// Counts in (key, move) order, or an error reading them.
type Records<'a> = Box<dyn Iterator<Item = Result<Count, String>> + 'a>;

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
        // The queue is bounded by the bytes it holds (`QueueBudget`), not
        // by the number of batches: a few games with huge comments must
        // not fill memory.
        let (tx, rx) = std::sync::mpsc::channel::<Vec<GameText>>();
        let rx = std::sync::Mutex::new(rx);
        let budget = QueueBudget::default();
        let budget = &budget;
        let (parts, fatal) = std::thread::scope(|scope| {
            let mut workers = Vec::with_capacity(threads.max(1));
            let mut start_error = None;
            for i in 0..threads.max(1) {
                // Beyond the first, a thread starts only where memory is left
                // for it and for the work (under `ulimit -v`, say).
                if i > 0 && !hashmate_engine::threads::room_for_another_thread() {
                    break;
                }
                let rx = &rx;
                let spill = self.spill.clone();
                // A thread that cannot start (its stack does not fit under a
                // memory limit) is an error when it is the first, else the
                // others do the work.
                let spawned = std::thread::Builder::new()
                    .name(format!("book-count-{i}"))
                    .spawn_scoped(scope, move || {
                        let mut counts = Counts::default();
                        let mut errors = Vec::new();
                        let mut spill_error = None;
                        loop {
                            let batch = match rx.lock() {
                                Ok(r) => r.recv(),
                                Err(_) => break,
                            };
                            let Ok(batch) = batch else { break };
                            let bytes = batch_bytes(&batch);
                            for text in &batch {
                                for game in text.parse(false) {
                                    match game {
                                        Ok(g) => match other_variant(&g) {
                                            Some(v) => {
                                                *counts.other_variants.entry(v).or_default() += 1
                                            }
                                            None => {
                                                counts.read += 1;
                                                counts.count_game(&g, a);
                                            }
                                        },
                                        Err(e) => errors.push(e),
                                    }
                                }
                            }
                            drop(batch);
                            budget.release(bytes);
                            if let Some(more) = counts.stats.out_of_memory() {
                                spill_error.get_or_insert_with(|| out_of_memory(more));
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
                    });
                match spawned {
                    Ok(w) => workers.push(w),
                    Err(e) => {
                        start_error = Some(e);
                        break;
                    }
                }
            }
            if workers.is_empty() {
                let why = start_error.map_or_else(String::new, |e| e.to_string());
                let message =
                    format!("not enough memory to start a thread that counts games ({why})");
                return (Vec::new(), Some(message));
            }
            let mut fatal = None;
            let mut batch = Vec::with_capacity(BATCH);
            let mut handed = 0;
            while let Some(text) = stream.next_text() {
                match text {
                    Ok(t) => batch.push(t),
                    Err(e) if matches!(e.kind, hashmate::pgn::PgnErrorKind::Read(_)) => {
                        fatal = Some(e.to_string());
                        break;
                    }
                    // A game too long: reported among the others.
                    Err(e) => self.skipped_long.push(e),
                }
                if batch.len() == BATCH || batch_bytes(&batch) >= BATCH_BYTES {
                    handed += batch.len();
                    progress(handed);
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    budget.acquire(batch_bytes(&full));
                    if tx.send(full).is_err() {
                        break;
                    }
                }
            }
            if !batch.is_empty() {
                budget.acquire(batch_bytes(&batch));
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
            self.read += counts.read;
            for (v, n) in std::mem::take(&mut counts.other_variants) {
                *self.other_variants.entry(v).or_default() += n;
            }
            // The smaller table is merged into the larger, in place.
            self.stats.absorb(std::mem::take(&mut counts.stats));
            errors.extend(errs);
        }
        if let Some(message) = fatal {
            return Err(message);
        }
        if let Some(more) = self.stats.out_of_memory() {
            return Err(out_of_memory(more));
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
        let (runs, buffer) = match &self.spill {
            Some(sp) => (sp.final_runs()?, sp.buffer_bytes()),
            None => (Vec::new(), 0),
        };
        if runs.is_empty() {
            return Ok(Box::new(self.stats.sorted_counts().map(Ok)));
        }
        Ok(Box::new(Merged::open(&runs, buffer)?))
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
            room(&mut b, COUNT_RECORD)?;
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
            room(&mut entries, 1)?;
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
        // (Key and move are unique, so the order is total: an unstable sort
        // gives the same file and, unlike a stable one, asks for no buffer
        // the size of the book.)
        entries.sort_unstable_by(|x, y| {
            x.key
                .cmp(&y.key)
                .then(y.weight.cmp(&x.weight))
                .then(x.mv.cmp(&y.mv))
        });
        Ok(Book::from_entries(entries))
    }
}

pub(crate) fn make(a: &MakeArgs) -> Result<(), String> {
    let inputs = inputs(&a.pgn)?;
    let outs: Vec<(&str, Output)> = a
        .out
        .iter()
        .map(|o| (o.as_str(), Output::Book))
        .chain(a.counts_out.iter().map(|o| (o.as_str(), Output::Counts)))
        .collect();
    let paths: Vec<&std::path::Path> = inputs
        .iter()
        .filter(|i| i.name != "-")
        .map(|i| std::path::Path::new(&i.name))
        .collect();
    check_outputs(&outs, &paths, "PGN", a.force)?;
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
    if !counts.other_variants.is_empty() {
        let list: Vec<String> = counts
            .other_variants
            .iter()
            .map(|(v, n)| format!("{v} {n}"))
            .collect();
        eprintln!(
            "games of other variants skipped (a chess book holds chess games): {}",
            list.join(", ")
        );
        bad += counts.other_variants.values().sum::<usize>();
    }
    if counts.read == 0 {
        return Err(format!(
            "no chess game could be read from the input ({bad} skipped); nothing written"
        ));
    }
    let games = counts.games;
    if games == 0 {
        eprintln!("no game passed the filters: the book is empty");
    }
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
        files::write_atomically(std::path::Path::new(path), &book_bytes(&book)?)?;
        eprintln!(
            "{games} games used, {bad} skipped, {} entries written to {path}",
            book.len()
        );
    }
    Ok(())
}
