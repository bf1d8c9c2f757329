//! `hashmate book make|probe|stats`: build Polyglot books from PGN the way
//! `polyglot make-book` does, and look inside books.

use crate::book::load;
use crate::{files, output};
use clap::{Args, Subcommand};
use hashmate::book::{encode_move, Book, BookEntry};
use hashmate::pgn::{GameResult, PgnStream};
use hashmate::{Color, Position};
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, IsTerminal};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a book from PGN games (weights: win 2, draw 1, loss 0).
    Make(MakeArgs),
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
    /// PGN file to read.
    #[arg(long)]
    pub pgn: String,
    /// Book file to write.
    #[arg(long)]
    pub out: String,
    /// Only the first N plies of each game.
    #[arg(long, default_value_t = 1024)]
    pub max_ply: usize,
    /// Keep a move only if it was played in at least N games.
    #[arg(long, default_value_t = 3)]
    pub min_games: u32,
    /// Only moves played by White.
    #[arg(long, conflicts_with = "only_black")]
    pub only_white: bool,
    /// Only moves played by Black.
    #[arg(long)]
    pub only_black: bool,
}

pub fn run(cmd: &BookCommand) -> ExitCode {
    let result = match cmd {
        BookCommand::Make(a) => make(a),
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

/// Accumulate (games, score) per (position key, move) over the games of
/// `input` (`size`: its length in bytes, for the progress bar), read one
/// game at a time: memory holds the counts and one game, not the PGN.
pub fn build(
    input: impl BufRead,
    size: u64,
    a: &MakeArgs,
    mut on_error: impl FnMut(String),
) -> (Book, usize) {
    let mut stats: HashMap<(u64, u16), (u32, u64)> = HashMap::new();
    let mut reader = PgnStream::new(input);
    let progress = std::io::stderr().is_terminal() && size > 1 << 20;
    let mut games = 0;
    let mut last_pct = 0;
    while let Some(game) = reader.next() {
        if progress {
            let pct = (reader.bytes_read() * 100 / size.max(1)) as usize;
            if pct != last_pct {
                last_pct = pct;
                let bar = "#".repeat(pct / 4);
                eprint!("\r[{bar:<25}] {pct:3}% {games} games");
            }
        }
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                on_error(e.to_string());
                continue;
            }
        };
        games += 1;
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
                let score = match (game.result, us) {
                    (GameResult::WhiteWins, Color::White)
                    | (GameResult::BlackWins, Color::Black) => 2,
                    (GameResult::Draw, _) => 1,
                    _ => 0,
                };
                let e = stats.entry((pos.key(), encode_move(mv))).or_insert((0, 0));
                e.0 += 1;
                e.1 += score;
            }
            pos.play_unchecked(mv);
        }
    }
    if progress {
        eprintln!();
    }
    let max = stats.values().map(|v| v.1).max().unwrap_or(0);
    let entries: Vec<BookEntry> = stats
        .into_iter()
        .filter(|(_, (n, sum))| *n >= a.min_games && *sum > 0)
        .map(|((key, mv), (_, sum))| BookEntry {
            key,
            mv,
            // Scale into 16 bits only when some weight would not fit.
            weight: if max > 0xffff {
                (sum * 0xffff / max).max(1) as u16
            } else {
                sum as u16
            },
            learn: 0,
        })
        .collect();
    let mut entries = entries;
    // Within a position: heaviest first, then by move, for a stable file.
    entries.sort_by(|x, y| {
        x.key
            .cmp(&y.key)
            .then(y.weight.cmp(&x.weight))
            .then(x.mv.cmp(&y.mv))
    });
    (Book::from_entries(entries), games)
}

fn make(a: &MakeArgs) -> Result<(), String> {
    let (pgn, out) = (std::path::Path::new(&a.pgn), std::path::Path::new(&a.out));
    if files::same_file(pgn, out) {
        return Err(format!(
            "the output '{}' is the input PGN; refusing to overwrite it",
            a.out
        ));
    }
    files::check_output(out)?;
    let meta = files::require_regular(pgn, "PGN file")?;
    let file =
        std::fs::File::open(pgn).map_err(|e| format!("cannot read PGN file '{}': {e}", a.pgn))?;
    let mut bad = 0;
    let (book, games) = build(BufReader::new(file), meta.len(), a, |e| {
        bad += 1;
        eprintln!("{}: {e}; game skipped", a.pgn);
    });
    files::write_atomically(out, &book.to_bytes())?;
    eprintln!(
        "{games} games used, {bad} skipped, {} entries written to {}",
        book.len(),
        a.out
    );
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
