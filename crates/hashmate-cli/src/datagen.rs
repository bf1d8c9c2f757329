//! `hashmate datagen`: self-play games that become training data for the
//! evaluation tuner.
//!
//! Each game starts from a few plies drawn from a Polyglot book (weighted
//! by the book's weights) followed by a few random legal plies, so that
//! games differ (and, with `--max-opening-score`, drawn again until the
//! first search finds them near balance); then both sides search a fixed
//! number of nodes per move.
//! The positions the engine reached are recorded with the search score and,
//! once the game is over, its result (see [`hashmate_data::record`] for the format).
//! Every position is written, with a flag when the best move was a capture
//! or a promotion; the reader filters (in check, noisy best move, mate
//! score), so one data set serves several filters.
//!
//! Game `i` is played from a generator seeded with `(seed, i)` and a cleared
//! table, so the output depends only on the arguments, not on the number of
//! threads or on interruptions. Games are written in order, each with one
//! write; a run that was interrupted is continued by running the same
//! command again (the file is first cut back to its last complete game, and
//! the games in it are counted), and gives the same file as a run that was
//! never interrupted.

use clap::Args;
use hashmate::book::{Book, Pick};
use hashmate::tt::TranspositionTable;
use hashmate::{Color, Game, Outcome, Position};
use hashmate_data::record::{Record, Wdl, RECORD_BYTES};
use hashmate_engine::search::{self, Limits, Shared, MATE};
use hashmate_hash::rng::SplitMix64;
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{IsTerminal, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `hashmate datagen`.
#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    /// File to write (created, or continued if it already holds games).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of games the file should hold when done.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub games: u64,
    /// Nodes per move at most: a search stops there, mid-iteration.
    #[arg(long, default_value_t = 6000, value_parser = clap::value_parser!(u64).range(100..=100_000_000))]
    pub nodes: u64,
    /// Soft node limit per move: no iteration starts past it (the
    /// iteration under way ends, up to --nodes). Off by default.
    #[arg(long, value_parser = clap::value_parser!(u64).range(100..=100_000_000))]
    pub soft_nodes: Option<u64>,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Polyglot book for the first plies (default: none, random plies only).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Plies taken from the book at most.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub book_plies: u32,
    /// Random legal plies after the book.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Draw the opening again while the game's first search scores it
    /// beyond ±CP centipawns, so that games start near balance (random
    /// plies often give material away); the 100th opening drawn for a
    /// game is played whatever its score. Off by default: every opening
    /// is played.
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(i32).range(0..=30_000))]
    pub max_opening_score: Option<i32>,
    /// Hash table per game, MB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Stop starting games after this many seconds: the games under way
    /// are finished and written, so the file ends on a whole game (a
    /// prefix of the full run, continued later by the same command).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub time_limit: Option<u64>,
    /// Evaluate with this network (`<internal>`: the embedded one) instead
    /// of the classical evaluation: the next generation of data, from the
    /// engine as it now plays.
    #[arg(long)]
    pub nnue: Option<String>,
}

/// Adjudication: a side ahead by this much for this many plies wins.
const WIN_SCORE: i32 = 1500;
const WIN_PLIES: u32 = 6;
/// After `DRAW_AFTER` plies, a score this close to zero for this many
/// plies is a draw; a game longer than `MAX_PLIES` is a draw.
const DRAW_SCORE: i32 = 8;
const DRAW_PLIES: u32 = 12;
const DRAW_AFTER: usize = 80;
const MAX_PLIES: usize = 400;

/// Openings drawn for one game at most under `--max-opening-score`.
const OPENING_DRAWS: u32 = 100;

/// The generator of game `index`.
fn game_rng(seed: u64, index: u64) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03));
    SplitMix64::new(mix.next_u64())
}

/// The opening of game `index`: book plies, then random plies; a line that
/// ends the game is thrown away and another drawn.
fn opening(args: &DatagenArgs, book: Option<&Book>, rng: &mut SplitMix64) -> Game {
    loop {
        let mut game = Game::new(Position::startpos());
        if let Some(book) = book {
            for _ in 0..args.book_plies {
                let pick = Pick::Weighted {
                    random: rng.next_u64(),
                };
                match book.choose(game.position(), pick) {
                    Some((mv, _)) if game.try_play(mv).is_ok() => {}
                    _ => break,
                }
            }
        }
        for _ in 0..args.random_plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            // A generated move is legal.
            let _ = game.try_play(mv);
        }
        if game.outcome().is_none() {
            return game;
        }
    }
}

/// Play game `index` to its end and return its records.
fn play_game(
    args: &DatagenArgs,
    book: Option<&Book>,
    shared: &Arc<Shared>,
    index: u64,
) -> Vec<Record> {
    let mut rng = game_rng(args.seed, index);
    let limits = Limits {
        nodes: Some(args.nodes),
        soft_nodes: args.soft_nodes,
        multipv: 1,
        ..Limits::default()
    };
    let think = |game: &Game| {
        shared.control.begin(false);
        let keys: Vec<u64> = game.repetition_keys().collect();
        search::search(game.position(), &keys, &limits, shared, 1, &mut ())
    };
    // The opening and the game's first search from it, on a cleared table;
    // an opening scored beyond the limit is drawn again.
    let mut draws = 0;
    let (mut game, mut first) = loop {
        let game = opening(args, book, &mut rng);
        shared.new_game();
        let r = think(&game);
        draws += 1;
        let balanced = args.max_opening_score.is_none_or(|m| r.score.abs() <= m);
        if balanced || draws >= OPENING_DRAWS {
            break (game, Some(r));
        }
    };
    let mut records = Vec::new();
    let (mut winning, mut drawn) = (0u32, 0u32);
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome {
                Outcome::Checkmate {
                    winner: Color::White,
                } => Wdl::Win,
                Outcome::Checkmate { .. } => Wdl::Loss,
                Outcome::Draw(_) => Wdl::Draw,
            };
        }
        if game.moves().len() >= MAX_PLIES {
            break Wdl::Draw;
        }
        let pos = game.position().clone();
        let r = first.take().unwrap_or_else(|| think(&game));
        let Some(best) = r.best else {
            // Only without legal moves, which `outcome` has caught.
            break Wdl::Draw;
        };
        let white = if pos.side_to_move() == Color::White {
            r.score
        } else {
            -r.score
        };
        // Adjudication, from the scores of both sides' searches.
        winning = if white.abs() >= WIN_SCORE {
            winning + 1
        } else {
            0
        };
        drawn = if white.abs() <= DRAW_SCORE {
            drawn + 1
        } else {
            0
        };
        if winning >= WIN_PLIES {
            break if white > 0 { Wdl::Win } else { Wdl::Loss };
        }
        if game.moves().len() >= DRAW_AFTER && drawn >= DRAW_PLIES {
            break Wdl::Draw;
        }
        records.push(Record {
            pos: pos.clone(),
            score: white.clamp(-MATE, MATE) as i16,
            result: Wdl::Draw,
            first_of_game: records.is_empty(),
            last_of_game: false,
            noisy: pos.is_capture(best) || best.promotion().is_some(),
        });
        if game.try_play(best).is_err() {
            // The search only returns legal moves; stop rather than loop.
            break Wdl::Draw;
        }
    };
    if records.is_empty() {
        // The opening itself ended the game: keep one record all the same,
        // so that the game is counted.
        records.push(Record {
            pos: game.position().clone(),
            score: 0,
            result,
            first_of_game: true,
            last_of_game: false,
            noisy: false,
        });
    }
    for r in &mut records {
        r.result = result;
    }
    if let Some(last) = records.last_mut() {
        last.last_of_game = true;
    }
    records
}

/// Check that `file` holds training data (every whole record decodes,
/// and the first/last-of-game marks pair up), then cut it back to its last
/// complete game; return the number of games and records it holds. A file
/// that is not training data is refused and left exactly as it was.
fn resume(file: &mut std::fs::File) -> Result<(u64, u64), DatagenError> {
    let io = |e: std::io::Error| DatagenError::Io(format!("cannot read it: {e}"));
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    let (mut games, mut records, mut complete) = (0u64, 0u64, 0u64);
    let mut in_game = false;
    let mut buf = vec![0u8; RECORD_BYTES * 4096];
    let mut reader = std::io::BufReader::new(&mut *file);
    loop {
        let n = hashmate_data::files::read_up_to(&mut reader, &mut buf).map_err(io)?;
        for rec in buf[..n].chunks_exact(RECORD_BYTES) {
            let foreign = |why: String| {
                DatagenError::Usage(format!(
                    "it is not hashmate training data (record {}, byte {}: {why}); it is left as it was",
                    records + 1,
                    records * RECORD_BYTES as u64
                ))
            };
            let bytes: &[u8; RECORD_BYTES] = rec.try_into().map_err(|_| foreign("short".into()))?;
            let r = Record::decode(bytes).map_err(|e| foreign(e.to_string()))?;
            if r.first_of_game == in_game {
                return Err(foreign(if in_game {
                    "a game starts before the last one ended".into()
                } else {
                    "a record outside any game".into()
                }));
            }
            in_game = !r.last_of_game;
            records += 1;
            if r.last_of_game {
                complete = records;
                games += 1;
            }
        }
        if n < buf.len() {
            break;
        }
    }
    drop(reader);
    // What follows the last complete game (an interrupted write) goes.
    let keep = complete * RECORD_BYTES as u64;
    if file.metadata().map_err(io)?.len() != keep {
        file.set_len(keep).map_err(io)?;
    }
    file.seek(SeekFrom::End(0)).map_err(io)?;
    Ok((games, complete))
}

/// Why `datagen` stopped.
#[derive(Debug)]
enum DatagenError {
    /// Bad arguments or an output that is not ours to write (exit 2).
    Usage(String),
    /// Reading or writing failed (exit 1).
    Io(String),
}

/// Run `hashmate datagen`.
pub fn run(args: &DatagenArgs) -> ExitCode {
    match generate(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(DatagenError::Usage(e)) => {
            eprintln!("hashmate datagen: {e}");
            ExitCode::from(2)
        }
        Err(DatagenError::Io(e)) => {
            eprintln!("hashmate datagen: {e}");
            ExitCode::from(1)
        }
    }
}

/// Open the output: a regular file (new, or continued after its games), or
/// a character device written from the start (`/dev/null` to measure
/// speed, `/dev/full` to see a full disk); anything else is refused.
fn open_output(out: &Path) -> Result<(std::fs::File, u64, u64), DatagenError> {
    let shown = out.display();
    let meta = match std::fs::metadata(out) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(DatagenError::Io(format!("cannot open '{shown}': {e}"))),
    };
    let regular = meta.as_ref().is_none_or(|m| m.is_file());
    #[cfg(unix)]
    let device = {
        use std::os::unix::fs::FileTypeExt;
        meta.as_ref()
            .is_some_and(|m| m.file_type().is_char_device())
    };
    #[cfg(not(unix))]
    let device = false;
    if device {
        let file = OpenOptions::new()
            .write(true)
            .open(out)
            .map_err(|e| DatagenError::Io(format!("cannot open '{shown}': {e}")))?;
        return Ok((file, 0, 0));
    }
    if !regular {
        let what = if meta.as_ref().is_some_and(|m| m.is_dir()) {
            "a directory"
        } else {
            "not a regular file"
        };
        return Err(DatagenError::Usage(format!(
            "--out '{shown}' is {what}; training data goes to a regular file"
        )));
    }
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(out)
        .map_err(|e| DatagenError::Io(format!("cannot open '{shown}': {e}")))?;
    let (games, records) = resume(&mut file).map_err(|e| match e {
        DatagenError::Usage(why) => DatagenError::Usage(format!("'{shown}': {why}")),
        DatagenError::Io(why) => DatagenError::Io(format!("'{shown}': {why}")),
    })?;
    Ok((file, games, records))
}

fn generate(args: &DatagenArgs) -> Result<(), DatagenError> {
    let book = match &args.book {
        Some(p) => {
            Some(hashmate_engine::book::load(&p.to_string_lossy()).map_err(DatagenError::Usage)?)
        }
        None => None,
    };
    let net = match &args.nnue {
        Some(path) => Some(Arc::new(
            hashmate_data::net::load(path).map_err(|e| DatagenError::Usage(e.to_string()))?,
        )),
        None => None,
    };
    let (mut file, done, positions) = open_output(&args.out)?;
    if done >= args.games {
        eprintln!(
            "{}: already {done} games ({positions} positions); nothing to do",
            args.out.display()
        );
        return Ok(());
    }
    if done > 0 {
        eprintln!("{}: continuing after {done} games", args.out.display());
    }
    let next = AtomicU64::new(done);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Vec<Record>)>();
    let start = Instant::now();
    let deadline = args
        .time_limit
        .map(|secs| start + std::time::Duration::from_secs(secs));
    let progress = std::io::stderr().is_terminal();
    std::thread::scope(|scope| -> Result<(), DatagenError> {
        let mut started = 0;
        for t in 0..args.threads {
            let tx = tx.clone();
            let (next, failed, book, net) = (&next, &failed, book.as_ref(), &net);
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{t}"))
                .spawn_scoped(scope, move || {
                    let Ok(tt) = TranspositionTable::new(args.hash as usize) else {
                        return;
                    };
                    let shared = Arc::new(Shared::new(tt));
                    shared.set_network(net.clone());
                    while !failed.load(Ordering::Relaxed)
                        && deadline.is_none_or(|d| Instant::now() < d)
                    {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= args.games {
                            break;
                        }
                        let records = play_game(args, book, &shared, i);
                        if tx.send((i, records)).is_err() {
                            break;
                        }
                    }
                });
            if spawned.is_ok() {
                started += 1;
            }
        }
        drop(tx);
        if started == 0 {
            return Err(DatagenError::Io("could not start any thread".into()));
        }
        // Write games in order as they finish.
        let mut pending = BTreeMap::new();
        let mut want = done;
        let mut written = positions;
        for (i, records) in rx {
            pending.insert(i, records);
            while let Some(records) = pending.remove(&want) {
                let bytes: Vec<u8> = records.iter().flat_map(|r| r.encode()).collect();
                if let Err(e) = file.write_all(&bytes) {
                    failed.store(true, Ordering::Relaxed);
                    return Err(DatagenError::Io(format!(
                        "cannot write '{}': {e}",
                        args.out.display()
                    )));
                }
                written += records.len() as u64;
                want += 1;
                let played = want - done;
                if progress || played % 1000 == 0 || want == args.games {
                    let secs = start.elapsed().as_secs_f64().max(1e-3);
                    let rate = played as f64 / secs;
                    let per_s = (written - positions) as f64 / secs;
                    let eta = (args.games - want) as f64 / rate.max(1e-9);
                    eprint!(
                        "{}games {want}/{} ({:.0}%), positions {written}, {per_s:.0} positions/s, {rate:.1} games/s, ETA {}{}",
                        if progress { "\r" } else { "" },
                        args.games,
                        // Of the whole run, not of this invocation: a continued run
                        // reads "games 114611/1000000 (11%)", as the counts do.
                        100.0 * want as f64 / args.games as f64,
                        format_duration(eta),
                        if progress { "   " } else { "\n" }
                    );
                }
            }
        }
        if progress {
            eprintln!();
        }
        // A device (`/dev/null`) cannot be synced, and need not be.
        if let Err(e) = file.sync_all() {
            if std::fs::metadata(&args.out).is_ok_and(|m| m.is_file()) {
                return Err(DatagenError::Io(format!(
                    "cannot write '{}': {e}",
                    args.out.display()
                )));
            }
        }
        eprintln!(
            "{}: {want} games, {written} positions, {:.0} s{}",
            args.out.display(),
            start.elapsed().as_secs_f64(),
            if want < args.games {
                "; stopped at --time-limit (the same command continues)"
            } else {
                ""
            }
        );
        Ok(())
    })
}

fn format_duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}
