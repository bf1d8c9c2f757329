//! `hashmate data pack` and `hashmate data unpack`: training data between
//! its 32-byte records ([`hashmate_data::record`]) and the chained form
//! ([`hashmate_data::chain`], about 4 bytes a position), byte for byte
//! both ways. Inputs are streamed and outputs replaced atomically, so a
//! file of any size converts in little memory and a failure loses nothing.

use clap::{Args, Subcommand};
use hashmate_data::chain::{self, ChainError, MAGIC};
use hashmate_data::files::{self, FileError, StreamError};
use hashmate_data::record::{Record, RECORD_BYTES};
use std::fmt;
use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `hashmate data …`.
#[derive(Subcommand, Debug)]
pub enum DataCommand {
    /// Pack `datagen` records into the chained form (about 8 times smaller).
    Pack(ConvertArgs),
    /// Unpack a chained file into `datagen` records, byte for byte as they
    /// were written.
    Unpack(ConvertArgs),
}

/// Input and output of a conversion.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The file to read.
    pub input: PathBuf,
    /// The file to write (replaced atomically; never the input).
    pub output: PathBuf,
}

/// Why a conversion stopped.
#[derive(Debug)]
enum DataError {
    /// The input or output file.
    File(FileError),
    /// Reading the input failed.
    Read(std::io::Error),
    /// Writing the output failed.
    Write(std::io::Error),
    /// The input is not what the command reads, at this game or record.
    Content {
        /// Game (1-based) or record (1-based), in words.
        at: String,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::File(e) => write!(f, "{e}"),
            DataError::Read(e) => write!(f, "cannot read the input: {e}"),
            DataError::Write(e) => write!(f, "cannot write the output: {e}"),
            DataError::Content { at, why } => write!(f, "{at}: {why}"),
        }
    }
}

/// Counts of a conversion, for its last line.
struct Counts {
    games: u64,
    positions: u64,
    bytes_in: u64,
    bytes_out: u64,
}

/// Run `hashmate data …`.
pub fn run(cmd: &DataCommand) -> ExitCode {
    let (args, pack) = match cmd {
        DataCommand::Pack(a) => (a, true),
        DataCommand::Unpack(a) => (a, false),
    };
    match convert(args, pack) {
        Ok(c) => {
            eprintln!(
                "{}: {} games, {} positions, {} bytes from {} ({:.2} bytes a position)",
                args.output.display(),
                c.games,
                c.positions,
                c.bytes_out,
                c.bytes_in,
                c.bytes_out as f64 / c.positions.max(1) as f64
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "hashmate data {}: {e}; '{}' is not written",
                if pack { "pack" } else { "unpack" },
                args.output.display()
            );
            ExitCode::from(match e {
                DataError::Read(_) | DataError::Write(_) => 1,
                DataError::File(_) | DataError::Content { .. } => 2,
            })
        }
    }
}

fn convert(args: &ConvertArgs, pack: bool) -> Result<Counts, DataError> {
    let meta = files::require_regular(&args.input, "training data").map_err(DataError::File)?;
    if files::same_file(&args.input, &args.output) {
        return Err(DataError::Content {
            at: args.input.display().to_string(),
            why: "the input and the output are one file".into(),
        });
    }
    files::check_output(&args.output).map_err(DataError::File)?;
    let input = std::fs::File::open(&args.input).map_err(DataError::Read)?;
    let mut reader = BufReader::with_capacity(1 << 20, input);
    let mut counts = Counts {
        games: 0,
        positions: 0,
        bytes_in: meta.len(),
        bytes_out: 0,
    };
    let written = files::write_atomically_with(&args.output, |out| {
        let mut out = Counted {
            inner: out,
            bytes: 0,
        };
        if pack {
            pack_stream(&mut reader, &mut out, &mut counts)?;
        } else {
            unpack_stream(&mut reader, &mut out, &mut counts)?;
        }
        counts.bytes_out = out.bytes;
        Ok(())
    });
    written.map_err(|e| match e {
        StreamError::File(e) => DataError::File(e),
        StreamError::Producer(e) => e,
    })?;
    Ok(counts)
}

/// A writer that counts what passes.
struct Counted<'a> {
    inner: &'a mut dyn Write,
    bytes: u64,
}

impl Counted<'_> {
    fn put(&mut self, bytes: &[u8]) -> Result<(), DataError> {
        self.inner.write_all(bytes).map_err(DataError::Write)?;
        self.bytes += bytes.len() as u64;
        Ok(())
    }
}

/// Read until `buf` is full or the input ends; the bytes read.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> Result<usize, DataError> {
    files::read_up_to(r, buf).map_err(DataError::Read)
}

fn pack_stream(
    input: &mut impl Read,
    out: &mut Counted<'_>,
    counts: &mut Counts,
) -> Result<(), DataError> {
    out.put(MAGIC)?;
    let mut game: Vec<Record> = Vec::new();
    let mut packed = Vec::new();
    let mut raw = [0u8; RECORD_BYTES];
    loop {
        let n = read_up_to(input, &mut raw)?;
        let record_no = counts.positions + game.len() as u64 + 1;
        if n == 0 {
            break;
        }
        if n < RECORD_BYTES {
            return Err(DataError::Content {
                at: format!("record {record_no}"),
                why: format!("the input ends {n} bytes into it (records are {RECORD_BYTES} bytes)"),
            });
        }
        let r = Record::decode(&raw).map_err(|e| DataError::Content {
            at: format!("record {record_no}"),
            why: e.to_string(),
        })?;
        let last = r.last_of_game;
        game.push(r);
        if last {
            packed.clear();
            chain::pack_game(&game, &mut packed).map_err(|e| DataError::Content {
                at: format!(
                    "game {} (records {}–{record_no})",
                    counts.games + 1,
                    counts.positions + 1
                ),
                why: e.to_string(),
            })?;
            out.put(&packed)?;
            counts.games += 1;
            counts.positions += game.len() as u64;
            game.clear();
        }
    }
    if !game.is_empty() {
        return Err(DataError::Content {
            at: format!("game {}", counts.games + 1),
            why: format!(
                "the input ends inside it ({} records without its last); \
                 a run of datagen cut short is completed by running it again",
                game.len()
            ),
        });
    }
    Ok(())
}

fn unpack_stream(
    input: &mut impl Read,
    out: &mut Counted<'_>,
    counts: &mut Counts,
) -> Result<(), DataError> {
    let mut magic = [0u8; 8];
    if read_up_to(input, &mut magic)? < 8 || &magic != MAGIC {
        return Err(DataError::Content {
            at: "the start".into(),
            why: "it is not a chained file (no HMCHAIN1 at its start); `data pack` makes one"
                .into(),
        });
    }
    let mut bytes = vec![0u8; RECORD_BYTES + 2];
    let mut records = Vec::new();
    let mut encoded = Vec::new();
    loop {
        let head = RECORD_BYTES + 2;
        bytes.resize(head, 0);
        let n = read_up_to(input, &mut bytes)?;
        if n == 0 {
            break;
        }
        let at = || format!("game {}", counts.games + 1);
        let positions = match chain::game_positions(&bytes[..n]) {
            Ok(p) => p,
            Err(e) => {
                return Err(DataError::Content {
                    at: at(),
                    why: e.to_string(),
                })
            }
        };
        bytes.resize(head + 4 * (positions - 1), 0);
        let more = read_up_to(input, &mut bytes[head..])?;
        let have = head + more;
        records.clear();
        chain::unpack_game(&bytes[..have], &mut records).map_err(|e: ChainError| {
            DataError::Content {
                at: at(),
                why: e.to_string(),
            }
        })?;
        encoded.clear();
        for r in &records {
            encoded.extend_from_slice(&r.encode());
        }
        out.put(&encoded)?;
        counts.games += 1;
        counts.positions += records.len() as u64;
    }
    Ok(())
}
