//! One table file: its header, parsed and checked when it is opened, and
//! its compressed blocks, read on demand.
//!
//! A file is a header (the pieces of each side and their order), then per
//! side (and, with pawns, per file of the leading pawn) the description
//! of a compression by *pairs* — a canonical Huffman code over symbols, a
//! symbol standing for one value or for the concatenation of two other
//! symbols — then index and size tables that find the block holding an
//! entry, then the blocks. The header and the index and size tables are
//! read into memory when the table is first used (a few per cent of the
//! file); a block is read with one positioned read (`pread`) when a probe
//! needs it, and the last few blocks are kept. Every offset and length is
//! checked against the file, so a damaged file is an error, never a panic
//! or a read beyond what it holds.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a table file could not be used.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be opened or read.
    Io(PathBuf, std::io::Error),
    /// The file is not a Syzygy table of the kind its name says, or is
    /// damaged: the path and what is wrong.
    Corrupt(PathBuf, &'static str),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io(p, e) => write!(f, "cannot read '{}': {e}", p.display()),
            FileError::Corrupt(p, why) => {
                write!(f, "'{}' is not a usable Syzygy table: {why}", p.display())
            }
        }
    }
}

impl std::error::Error for FileError {}

/// Magic bytes of a WDL (`.rtbw`) file.
pub(crate) const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// Magic bytes of a DTZ (`.rtbz`) file.
pub(crate) const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Blocks kept in memory per compressed table.
const CACHED_BLOCKS: usize = 32;

/// The file and its length, read by offset.
pub(crate) struct Source {
    path: PathBuf,
    file: File,
    len: u64,
}

impl Source {
    pub(crate) fn open(path: &Path) -> Result<Source, FileError> {
        let io = |e| FileError::Io(path.to_path_buf(), e);
        let file = File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(FileError::Corrupt(path.to_path_buf(), "not a regular file"));
        }
        Ok(Source {
            path: path.to_path_buf(),
            file,
            len: meta.len(),
        })
    }

    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    pub(crate) fn corrupt(&self, why: &'static str) -> FileError {
        FileError::Corrupt(self.path.clone(), why)
    }

    /// Exactly `buf.len()` bytes at `offset`; a short read (the file
    /// changed since it was opened) is an error.
    pub(crate) fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> Result<(), FileError> {
        if offset
            .checked_add(buf.len() as u64)
            .is_none_or(|end| end > self.len)
        {
            return Err(self.corrupt("an offset past the end of the file"));
        }
        read_at(&self.file, buf, offset).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                self.corrupt("the file is shorter than when it was opened")
            } else {
                FileError::Io(self.path.clone(), e)
            }
        })
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// The start of a file, read as far as parsing needs.
pub(crate) struct Header<'a> {
    src: &'a Source,
    bytes: Vec<u8>,
}

impl<'a> Header<'a> {
    pub(crate) fn new(src: &'a Source) -> Header<'a> {
        Header {
            src,
            bytes: Vec::new(),
        }
    }

    /// Bytes `at..at + len`, reading more of the file when needed.
    pub(crate) fn slice(&mut self, at: usize, len: usize) -> Result<&[u8], FileError> {
        let end = at
            .checked_add(len)
            .ok_or_else(|| self.src.corrupt("an offset past the end of the file"))?;
        if end > self.bytes.len() {
            if end as u64 > self.src.len {
                return Err(self.src.corrupt("an offset past the end of the file"));
            }
            // Read ahead in 64 KiB steps: the header is parsed front to back.
            let want = (end.max(self.bytes.len() + (64 << 10)) as u64).min(self.src.len) as usize;
            let old = self.bytes.len();
            self.bytes
                .try_reserve_exact(want - old)
                .map_err(|_| self.src.corrupt("its header does not fit in memory"))?;
            self.bytes.resize(want, 0);
            self.src.read_exact_at(&mut self.bytes[old..], old as u64)?;
        }
        Ok(&self.bytes[at..end])
    }

    pub(crate) fn u8(&mut self, at: usize) -> Result<u8, FileError> {
        Ok(self.slice(at, 1)?[0])
    }

    pub(crate) fn u16(&mut self, at: usize) -> Result<u16, FileError> {
        let b = self.slice(at, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub(crate) fn u32(&mut self, at: usize) -> Result<u32, FileError> {
        let b = self.slice(at, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A copy of `len` bytes at `at`.
    pub(crate) fn copy(&mut self, at: usize, len: usize) -> Result<Vec<u8>, FileError> {
        Ok(self.slice(at, len)?.to_vec())
    }

    pub(crate) fn corrupt(&self, why: &'static str) -> FileError {
        self.src.corrupt(why)
    }
}

/// A compressed table (one side, one leading-pawn file): its code, the
/// tables that find an entry's block, and where its blocks are.
pub(crate) struct Pairs {
    /// The value of every entry, for a table with one value only.
    single: Option<u16>,
    /// Blocks are `1 << block_size` bytes.
    block_size: u32,
    /// An index entry covers `1 << idx_bits` table entries.
    idx_bits: u32,
    /// Shortest code length.
    min_len: u32,
    /// Per code length from `min_len`: the smallest code (left-aligned in
    /// 64 bits) and the first symbol of that length.
    base: Vec<u64>,
    first_symbol: Vec<u16>,
    /// Per symbol: the values it stands for, less one, and its definition
    /// (two symbols, or a value in the low 12 bits).
    symlen: Vec<u32>,
    sympat: Vec<[u8; 3]>,
    /// Number of blocks holding data.
    blocks: u64,
    /// Byte offsets of the index and size tables in the header, and of
    /// the blocks in the file.
    index_at: usize,
    index_len: usize,
    size_at: usize,
    size_len: usize,
    data_at: u64,
    /// The index and size tables, once the header is read.
    index: Vec<u8>,
    sizes: Vec<u8>,
    /// Recently read blocks, by block number.
    cache: Vec<Mutex<Option<CachedBlock>>>,
}

/// A block kept in memory: its number and bytes.
type CachedBlock = (u64, Box<[u8]>);

/// The sizes of the three parts a table's pairs description announces.
pub(crate) struct PairsSizes {
    pub index: usize,
    pub size: usize,
}

impl Pairs {
    /// Parse the pairs description at `at` for a table of `entries`
    /// entries; the offset after it, and the table (the positions of its
    /// index, size and data parts are set by [`Pairs::place`]).
    pub(crate) fn parse(
        h: &mut Header<'_>,
        at: usize,
        entries: u64,
        wdl: bool,
    ) -> Result<(Pairs, u8, usize, PairsSizes), FileError> {
        let flags = h.u8(at)?;
        let empty = Pairs {
            single: None,
            block_size: 0,
            idx_bits: 0,
            min_len: 0,
            base: Vec::new(),
            first_symbol: Vec::new(),
            symlen: Vec::new(),
            sympat: Vec::new(),
            blocks: 0,
            index_at: 0,
            index_len: 0,
            size_at: 0,
            size_len: 0,
            data_at: 0,
            index: Vec::new(),
            sizes: Vec::new(),
            cache: Vec::new(),
        };
        if flags & 0x80 != 0 {
            // One value for every entry.
            let value = if wdl { u16::from(h.u8(at + 1)?) } else { 0 };
            let sizes = PairsSizes { index: 0, size: 0 };
            return Ok((
                Pairs {
                    single: Some(value),
                    ..empty
                },
                flags,
                at + 2,
                sizes,
            ));
        }
        let block_size = u32::from(h.u8(at + 1)?);
        let idx_bits = u32::from(h.u8(at + 2)?);
        let real_blocks = u64::from(h.u32(at + 4)?);
        let blocks = real_blocks + u64::from(h.u8(at + 3)?);
        let max_len = u32::from(h.u8(at + 8)?);
        let min_len = u32::from(h.u8(at + 9)?);
        if !(1..=32).contains(&block_size)
            || !(1..=63).contains(&idx_bits)
            || min_len == 0
            || max_len < min_len
            || max_len > 64
        {
            return Err(h.corrupt("a compression header out of range"));
        }
        let lengths = (max_len - min_len + 1) as usize;
        let offsets: Vec<u16> = (0..lengths)
            .map(|i| h.u16(at + 10 + 2 * i))
            .collect::<Result<_, _>>()?;
        let symbols = h.u16(at + 10 + 2 * lengths)? as usize;
        let sym_at = at + 12 + 2 * lengths;
        let raw = h.copy(sym_at, 3 * symbols)?;
        let sympat: Vec<[u8; 3]> = raw.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
        let next = sym_at + 3 * symbols + (symbols & 1);
        let symlen =
            symbol_lengths(&sympat).ok_or_else(|| h.corrupt("a symbol defined by itself"))?;
        // The smallest code of each length, left-aligned in 64 bits.
        let mut base = vec![0u64; lengths];
        for i in (0..lengths - 1).rev() {
            base[i] = base[i + 1]
                .wrapping_add(u64::from(offsets[i]))
                .wrapping_sub(u64::from(offsets[i + 1]))
                / 2;
        }
        for (i, b) in base.iter_mut().enumerate() {
            *b = b.checked_shl(64 - (min_len + i as u32)).unwrap_or(0);
        }
        let index_entries = (entries + (1u64 << idx_bits) - 1) >> idx_bits;
        let sizes = PairsSizes {
            index: usize::try_from(6 * index_entries)
                .map_err(|_| h.corrupt("an index table larger than memory"))?,
            size: usize::try_from(2 * blocks)
                .map_err(|_| h.corrupt("a size table larger than memory"))?,
        };
        let table = Pairs {
            single: None,
            block_size,
            idx_bits,
            min_len,
            base,
            first_symbol: offsets,
            symlen,
            sympat,
            blocks: real_blocks,
            cache: (0..CACHED_BLOCKS).map(|_| Mutex::new(None)).collect(),
            ..empty
        };
        Ok((table, flags, next, sizes))
    }

    /// Where this table's index table, size table and blocks are.
    pub(crate) fn place(
        &mut self,
        index_at: usize,
        sizes: &PairsSizes,
        size_at: usize,
        data_at: u64,
    ) {
        self.index_at = index_at;
        self.index_len = sizes.index;
        self.size_at = size_at;
        self.size_len = sizes.size;
        self.data_at = data_at;
    }

    /// Read the index and size tables from the header.
    pub(crate) fn load(&mut self, h: &mut Header<'_>) -> Result<(), FileError> {
        if self.single.is_some() {
            return Ok(());
        }
        self.index = h.copy(self.index_at, self.index_len)?;
        self.sizes = h.copy(self.size_at, self.size_len)?;
        Ok(())
    }

    /// The offset just past this table's blocks.
    pub(crate) fn data_end(&self) -> u64 {
        self.data_at + (self.blocks << self.block_size)
    }

    fn block_len(&self, block: u64) -> Option<u16> {
        let at = usize::try_from(block).ok()?.checked_mul(2)?;
        let b = self.sizes.get(at..at + 2)?;
        Some(u16::from_le_bytes([b[0], b[1]]))
    }

    /// The value of entry `idx`.
    pub(crate) fn value(&self, src: &Source, wdl: bool, idx: u64) -> Result<u16, FileError> {
        if let Some(v) = self.single {
            return Ok(v);
        }
        let bad = || src.corrupt("an entry beyond the table's blocks");
        let main = usize::try_from(idx >> self.idx_bits).map_err(|_| bad())?;
        let half = 1i64 << (self.idx_bits - 1);
        let mut lit = (idx & ((1u64 << self.idx_bits) - 1)) as i64 - half;
        let e = self.index.get(6 * main..6 * main + 6).ok_or_else(bad)?;
        let mut block = u64::from(u32::from_le_bytes([e[0], e[1], e[2], e[3]]));
        lit += i64::from(u16::from_le_bytes([e[4], e[5]]));
        while lit < 0 {
            block = block.checked_sub(1).ok_or_else(bad)?;
            lit += i64::from(self.block_len(block).ok_or_else(bad)?) + 1;
        }
        loop {
            let len = i64::from(self.block_len(block).ok_or_else(bad)?);
            if lit <= len {
                break;
            }
            lit -= len + 1;
            block += 1;
        }
        if block >= self.blocks {
            return Err(bad());
        }
        let bytes = self.block(src, block)?;
        self.decode(src, &bytes, lit as u64, wdl)
    }

    /// Block `block`'s bytes, from the cache or the file.
    fn block(&self, src: &Source, block: u64) -> Result<Box<[u8]>, FileError> {
        let slot = &self.cache[(block % CACHED_BLOCKS as u64) as usize];
        if let Some((b, bytes)) = &*slot.lock().unwrap_or_else(|e| e.into_inner()) {
            if *b == block {
                return Ok(bytes.clone());
            }
        }
        let len = 1usize << self.block_size;
        let mut bytes = vec![0u8; len].into_boxed_slice();
        src.read_exact_at(&mut bytes, self.data_at + (block << self.block_size))?;
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some((block, bytes.clone()));
        Ok(bytes)
    }

    /// The value at position `lit` of a block: walk its codes to the
    /// symbol that covers `lit`, then the symbol's pairs down to a value.
    fn decode(
        &self,
        src: &Source,
        block: &[u8],
        mut lit: u64,
        wdl: bool,
    ) -> Result<u16, FileError> {
        let bad = || src.corrupt("a damaged compressed block");
        let word = |at: usize| -> u64 {
            let mut b = [0u8; 4];
            for (i, x) in b.iter_mut().enumerate() {
                *x = block.get(at + i).copied().unwrap_or(0);
            }
            u64::from(u32::from_be_bytes(b))
        };
        let mut code = (word(0) << 32) | word(4);
        let mut at = 8;
        let mut spare = 0u32;
        let sym = loop {
            let mut len = self.min_len;
            loop {
                let i = (len - self.min_len) as usize;
                let base = *self.base.get(i).ok_or_else(bad)?;
                if code >= base {
                    break;
                }
                len += 1;
            }
            let i = (len - self.min_len) as usize;
            let sym = u64::from(self.first_symbol[i]) + ((code - self.base[i]) >> (64 - len));
            let sym = usize::try_from(sym).map_err(|_| bad())?;
            let n = u64::from(*self.symlen.get(sym).ok_or_else(bad)?) + 1;
            if lit < n {
                break sym;
            }
            lit -= n;
            code = code.checked_shl(len).unwrap_or(0);
            spare += len;
            if spare >= 32 {
                spare -= 32;
                code |= word(at) << spare;
                at += 4;
                if at > block.len() + 8 {
                    return Err(bad());
                }
            }
        };
        let mut sym = sym;
        while self.symlen[sym] != 0 {
            let p = self.sympat[sym];
            let left = usize::from(p[0]) | (usize::from(p[1] & 0x0f) << 8);
            let n = u64::from(*self.symlen.get(left).ok_or_else(bad)?) + 1;
            if lit < n {
                sym = left;
            } else {
                lit -= n;
                sym = (usize::from(p[2]) << 4) | (usize::from(p[1]) >> 4);
                if sym >= self.symlen.len() {
                    return Err(bad());
                }
            }
        }
        let p = self.sympat[sym];
        Ok(if wdl {
            u16::from(p[0])
        } else {
            u16::from(p[0]) | (u16::from(p[1] & 0x0f) << 8)
        })
    }
}

/// Per symbol, the number of values it stands for less one: 0 for a
/// value, the sum of its halves' plus one for a pair. `None` when a symbol
/// is defined through itself (a damaged file). Depth first, without
/// recursion, so that no file can exhaust the stack.
fn symbol_lengths(sympat: &[[u8; 3]]) -> Option<Vec<u32>> {
    #[derive(Copy, Clone, PartialEq)]
    enum State {
        Unknown,
        Busy,
        Done(u32),
    }
    let halves = |p: [u8; 3]| {
        let left = usize::from(p[0]) | (usize::from(p[1] & 0x0f) << 8);
        let right = (usize::from(p[2]) << 4) | (usize::from(p[1]) >> 4);
        (left, right)
    };
    let mut state = vec![State::Unknown; sympat.len()];
    let mut stack = Vec::new();
    for s in 0..sympat.len() {
        if state[s] != State::Unknown {
            continue;
        }
        stack.push(s);
        while let Some(&top) = stack.last() {
            let (left, right) = halves(sympat[top]);
            if right == 0x0fff {
                state[top] = State::Done(0);
                stack.pop();
                continue;
            }
            state[top] = State::Busy;
            match (*state.get(left)?, *state.get(right)?) {
                (State::Done(l), State::Done(r)) => {
                    state[top] = State::Done(l.checked_add(r)?.checked_add(1)?);
                    stack.pop();
                }
                (State::Busy, _) | (_, State::Busy) => return None,
                (State::Unknown, _) => stack.push(left),
                (_, State::Unknown) => stack.push(right),
            }
        }
    }
    state
        .into_iter()
        .map(|s| match s {
            State::Done(n) => Some(n),
            _ => None,
        })
        .collect()
}

/// The next offset that is a multiple of `align`.
pub(crate) fn align(at: usize, align: usize) -> usize {
    at.div_ceil(align) * align
}
