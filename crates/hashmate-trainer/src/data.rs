//! Training positions streamed from `hashmate datagen` files.
//!
//! The files are read in blocks of `block` records. Block `i` of the
//! concatenated files is a validation block when `i % val_every ==
//! val_every - 1` (a block holds hundreds of consecutive games, so
//! validation positions rarely share a game with training ones); the
//! others are training blocks. An epoch visits the training blocks in a
//! shuffled order, `buffer` blocks at a time, shuffles the positions of
//! those blocks together and cuts them into batches: memory holds `buffer`
//! blocks, never the files. Records are filtered as they are read
//! ([`Record::trainable`]: not in check, a quiet best move, no mate score).

use hashmate::Color;
use hashmate_data::record::{Record, RECORD_BYTES};
use hashmate_hash::rng::SplitMix64;
use hashmate_nnue::for_each_feature;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Most pieces on a board.
pub const MAX_PIECES: usize = 32;

/// One position as the trainer uses it.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Active features from the side to move's perspective.
    pub us: [u16; MAX_PIECES],
    /// Active features from the other side's perspective.
    pub them: [u16; MAX_PIECES],
    /// Pieces on the board (entries used in `us` and `them`).
    pub len: u8,
    /// The search score, side to move's view, centipawns.
    pub score: f32,
    /// The game's result, side to move's view: 0, ½ or 1.
    pub result: f32,
    /// No castling rights: the position mirrored left to right (a-file ↔
    /// h-file) is as good a training position ([`Sample::mirror`]).
    pub mirrorable: bool,
}

impl Sample {
    /// The sample of a record, if the record is trainable.
    pub fn from_record(r: &Record) -> Option<Sample> {
        if !r.trainable() {
            return None;
        }
        let mut s = Sample {
            us: [0; MAX_PIECES],
            them: [0; MAX_PIECES],
            len: 0,
            score: 0.0,
            result: 0.0,
            mirrorable: r.pos.castling().is_empty(),
        };
        let white = r.pos.side_to_move() == Color::White;
        let mut n = 0;
        for_each_feature(&r.pos, |w, b| {
            if n < MAX_PIECES {
                let (us, them) = if white { (w, b) } else { (b, w) };
                s.us[n] = us as u16;
                s.them[n] = them as u16;
                n += 1;
            }
        });
        s.len = n as u8;
        let (score, result) = (f32::from(r.score), r.result.score() as f32);
        (s.score, s.result) = if white {
            (score, result)
        } else {
            (-score, 1.0 - result)
        };
        Some(s)
    }

    /// Mirror the position left to right: every piece to the same rank of
    /// the opposite file. Chess without castling rights is symmetric under
    /// this, so it is a second position with the same score and result;
    /// in a feature index the file is the lowest three bits.
    pub fn mirror(&mut self) {
        let n = usize::from(self.len);
        for f in self.us[..n].iter_mut().chain(self.them[..n].iter_mut()) {
            *f ^= 7;
        }
    }

    /// The active features of both perspectives.
    pub fn features(&self) -> (&[u16], &[u16]) {
        let n = usize::from(self.len);
        (&self.us[..n], &self.them[..n])
    }
}

/// Why the data cannot be read.
#[derive(Debug)]
pub enum DataError {
    /// A file could not be opened or read.
    Io(PathBuf, std::io::Error),
    /// A file's length is not a whole number of records.
    Length(PathBuf, u64),
    /// A record is not valid.
    Record(PathBuf, u64, String),
    /// No file, or no training block.
    Empty(String),
    /// Memory for a block could not be had.
    Memory {
        /// What was to be held.
        what: &'static str,
        /// Bytes asked for.
        bytes: u64,
    },
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            DataError::Length(p, n) => write!(
                f,
                "{}: {n} bytes is not a whole number of {RECORD_BYTES}-byte records",
                p.display()
            ),
            DataError::Record(p, i, e) => write!(f, "{}: record {i}: {e}", p.display()),
            DataError::Memory { what, bytes } => {
                write!(f, "not enough memory for {what}: {bytes} bytes")
            }
            DataError::Empty(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for DataError {}

/// A block: `count` records of file `file` from record `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    file: usize,
    start: u64,
    count: u64,
}

impl Block {
    /// Records in the block.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The block's file: its index in [`DataSet::files`].
    pub fn file(&self) -> usize {
        self.file
    }
}

/// The training data: files split into training and validation blocks.
#[derive(Debug)]
pub struct DataSet {
    files: Vec<PathBuf>,
    /// Training blocks.
    pub train: Vec<Block>,
    /// Validation blocks.
    pub validation: Vec<Block>,
    /// Records in all files.
    pub records: u64,
}

impl DataSet {
    /// Split `files` into blocks of `block` records, every `val_every`-th
    /// block for validation (0: none).
    ///
    /// # Errors
    /// [`DataError`] for a missing file, a length that is not a whole
    /// number of records, or no data.
    pub fn open(files: &[PathBuf], block: u64, val_every: u64) -> Result<DataSet, DataError> {
        if files.is_empty() {
            return Err(DataError::Empty("no data file given".into()));
        }
        let block = block.max(1);
        let (mut train, mut validation) = (Vec::new(), Vec::new());
        let mut records = 0;
        let mut index = 0u64;
        for (file, path) in files.iter().enumerate() {
            let meta = std::fs::metadata(path).map_err(|e| DataError::Io(path.clone(), e))?;
            if !meta.is_file() {
                return Err(DataError::Io(
                    path.clone(),
                    std::io::Error::other("not a regular file"),
                ));
            }
            if meta.len() % RECORD_BYTES as u64 != 0 {
                return Err(DataError::Length(path.clone(), meta.len()));
            }
            let n = meta.len() / RECORD_BYTES as u64;
            records += n;
            let mut start = 0;
            while start < n {
                let b = Block {
                    file,
                    start,
                    count: block.min(n - start),
                };
                if val_every > 0 && index % val_every == val_every - 1 {
                    validation.push(b);
                } else {
                    train.push(b);
                }
                index += 1;
                start += block;
            }
        }
        if train.is_empty() {
            let why = if records == 0 {
                "the files hold no record".to_string()
            } else {
                format!(
                    "all {} blocks of {records} records are validation blocks (--val-every {val_every}); \
                     use a larger --val-every or a smaller --block",
                    validation.len()
                )
            };
            return Err(DataError::Empty(format!("no training block: {why}")));
        }
        Ok(DataSet {
            files: files.to_vec(),
            train,
            validation,
            records,
        })
    }

    /// The trainable samples of `block`, appended to `out`.
    ///
    /// # Errors
    /// [`DataError`] when the file cannot be read or holds a bad record.
    pub fn read(&self, block: Block, out: &mut Vec<Sample>) -> Result<(), DataError> {
        let path = &self.files[block.file];
        let io = |e| DataError::Io(path.clone(), e);
        let mut f = File::open(path).map_err(io)?;
        f.seek(SeekFrom::Start(block.start * RECORD_BYTES as u64))
            .map_err(io)?;
        let len = block.count as usize * RECORD_BYTES;
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len)
            .map_err(|_| DataError::Memory {
                what: "a block of records",
                bytes: len as u64,
            })?;
        bytes.resize(len, 0);
        out.try_reserve(block.count as usize)
            .map_err(|_| DataError::Memory {
                what: "the shuffle buffer (--buffer-blocks × --block positions)",
                bytes: (out.len() + block.count as usize) as u64
                    * std::mem::size_of::<Sample>() as u64,
            })?;
        f.read_exact(&mut bytes).map_err(io)?;
        for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
            let raw: &[u8; RECORD_BYTES] = chunk.try_into().expect("exact chunks");
            let r = Record::decode(raw).map_err(|e| {
                DataError::Record(path.clone(), block.start + i as u64, e.to_string())
            })?;
            out.extend(Sample::from_record(&r));
        }
        Ok(())
    }

    /// Every validation sample (the validation set is small: one block in
    /// `val_every`).
    ///
    /// # Errors
    /// As [`DataSet::read`].
    pub fn validation_samples(&self) -> Result<Vec<Sample>, DataError> {
        let mut out = Vec::new();
        for &b in &self.validation {
            self.read(b, &mut out)?;
        }
        Ok(out)
    }

    /// The file names.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }
}

/// A seedable generator for shuffling and initialisation (the project's
/// SplitMix64): the run is reproducible from its seed.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `[0, n)`.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in `[-a, a)`.
    pub fn uniform(&mut self, a: f32) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// Whether `path` names a regular file (for argument checks).
pub fn is_file(path: &Path) -> bool {
    path.metadata().is_ok_and(|m| m.is_file())
}
