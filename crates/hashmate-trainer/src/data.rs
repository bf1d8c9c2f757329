//! Training positions streamed from `hashmate datagen` files: 32-byte
//! records, or the same games packed by `hashmate data pack` (the chained
//! form of [`hashmate_data::chain`], told apart by its magic bytes).
//!
//! The files are read in blocks of `block` records (in a chained file,
//! whole games adding up to at least `block` positions). Block `i` of the
//! concatenated files is a validation block when `i % val_every ==
//! val_every - 1` (a block holds hundreds of consecutive games, so
//! validation positions rarely share a game with training ones); the
//! others are training blocks. An epoch visits the training blocks in a
//! shuffled order, `buffer` blocks at a time, shuffles the positions of
//! those blocks together and cuts them into batches: memory holds `buffer`
//! blocks, never the files. Records are filtered as they are read
//! ([`Record::trainable`]: not in check, a quiet best move, no mate score).

use hashmate::Color;
use hashmate_data::chain;
use hashmate_data::record::{Record, RECORD_BYTES};
use hashmate_hash::rng::SplitMix64;
use hashmate_nnue::{for_each_feature, KingBuckets};
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
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
    /// The side to move's king square, from its perspective (as
    /// [`hashmate_nnue::feature`] numbers squares).
    pub us_king: u8,
    /// The other side's king square, from its perspective.
    pub them_king: u8,
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
            us_king: 0,
            them_king: 0,
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
        let stm = r.pos.side_to_move();
        let own = |c: Color| {
            let k = r.pos.king(c).index();
            (if c == Color::White { k } else { k ^ 56 }) as u8
        };
        (s.us_king, s.them_king) = (own(stm), own(!stm));
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
        self.us_king ^= 7;
        self.them_king ^= 7;
    }

    /// Where each perspective's inputs lie in a net with king buckets
    /// `kings` ([`KingBuckets::transform`] of its own king): input
    /// `offset + (feature ^ flip)` for each feature of [`Sample::features`].
    #[inline]
    pub fn transforms(&self, kings: &KingBuckets) -> ((usize, usize), (usize, usize)) {
        (
            kings.transform(usize::from(self.us_king)),
            kings.transform(usize::from(self.them_king)),
        )
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

/// A block: `count` records of file `file` from record `start`, which
/// take `bytes` bytes from byte `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    file: usize,
    start: u64,
    count: u64,
    offset: u64,
    bytes: u64,
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
    /// Whether each file is in the chained form.
    chained: Vec<bool>,
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
        let mut chained = Vec::new();
        for (file, path) in files.iter().enumerate() {
            let meta = std::fs::metadata(path).map_err(|e| DataError::Io(path.clone(), e))?;
            if !meta.is_file() {
                return Err(DataError::Io(
                    path.clone(),
                    std::io::Error::other("not a regular file"),
                ));
            }
            let is_chained = starts_with_magic(path)?;
            chained.push(is_chained);
            let blocks = if is_chained {
                chained_blocks(path, file, block, meta.len())?
            } else {
                record_blocks(path, file, block, meta.len())?
            };
            for b in blocks {
                records += b.count;
                if val_every > 0 && index % val_every == val_every - 1 {
                    validation.push(b);
                } else {
                    train.push(b);
                }
                index += 1;
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
            chained,
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
        f.seek(SeekFrom::Start(block.offset)).map_err(io)?;
        let len = block.bytes as usize;
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
        if self.chained[block.file] {
            let mut records = Vec::new();
            let (mut at, mut index) = (0, block.start);
            while at < bytes.len() {
                records.clear();
                at += chain::unpack_game(&bytes[at..], &mut records).map_err(|e| {
                    DataError::Record(path.clone(), index, format!("in its game: {e}"))
                })?;
                index += records.len() as u64;
                out.extend(records.iter().filter_map(Sample::from_record));
            }
            return Ok(());
        }
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

/// Whether the file at `path` starts with the chained form's magic.
fn starts_with_magic(path: &Path) -> Result<bool, DataError> {
    let mut f = File::open(path).map_err(|e| DataError::Io(path.to_path_buf(), e))?;
    let mut magic = [0u8; 8];
    let n = hashmate_data::files::read_up_to(&mut f, &mut magic)
        .map_err(|e| DataError::Io(path.to_path_buf(), e))?;
    Ok(n == magic.len() && &magic == chain::MAGIC)
}

/// The blocks of a file of 32-byte records, `len` bytes long.
fn record_blocks(path: &Path, file: usize, block: u64, len: u64) -> Result<Vec<Block>, DataError> {
    if !len.is_multiple_of(RECORD_BYTES as u64) {
        return Err(DataError::Length(path.to_path_buf(), len));
    }
    let n = len / RECORD_BYTES as u64;
    let mut blocks = Vec::new();
    let mut start = 0;
    while start < n {
        let count = block.min(n - start);
        blocks.push(Block {
            file,
            start,
            count,
            offset: start * RECORD_BYTES as u64,
            bytes: count * RECORD_BYTES as u64,
        });
        start += block;
    }
    Ok(blocks)
}

/// The blocks of a chained file, `len` bytes long: whole games, at least
/// `block` positions a block (the last may hold fewer), found from the
/// games' headers without replaying them.
fn chained_blocks(path: &Path, file: usize, block: u64, len: u64) -> Result<Vec<Block>, DataError> {
    let io = |e| DataError::Io(path.to_path_buf(), e);
    let mut r = BufReader::with_capacity(1 << 16, File::open(path).map_err(io)?);
    r.seek(SeekFrom::Start(chain::MAGIC.len() as u64))
        .map_err(io)?;
    let mut at = chain::MAGIC.len() as u64;
    let mut blocks = Vec::new();
    let mut current = Block {
        file,
        start: 0,
        count: 0,
        offset: at,
        bytes: 0,
    };
    let mut head = [0u8; RECORD_BYTES + 2];
    while at < len {
        let cut =
            |why: String| DataError::Record(path.to_path_buf(), current.start + current.count, why);
        if len - at < head.len() as u64 {
            return Err(cut(format!("the file ends {} bytes into a game", len - at)));
        }
        r.read_exact(&mut head).map_err(io)?;
        let positions = chain::game_positions(&head).map_err(|e| cut(e.to_string()))? as u64;
        let game_bytes = head.len() as u64 + 4 * (positions - 1);
        if len - at < game_bytes {
            return Err(cut(format!(
                "the file ends inside a game of {positions} positions"
            )));
        }
        r.seek_relative(game_bytes as i64 - head.len() as i64)
            .map_err(io)?;
        at += game_bytes;
        current.count += positions;
        current.bytes += game_bytes;
        if current.count >= block {
            blocks.push(current);
            current = Block {
                file,
                start: current.start + current.count,
                count: 0,
                offset: at,
                bytes: 0,
            };
        }
    }
    if current.count > 0 {
        blocks.push(current);
    }
    Ok(blocks)
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
