//! Polyglot opening books: read, probe, write.
//!
//! A Polyglot book is a sequence of 16-byte big-endian entries — key (u64),
//! move (u16), weight (u16), learn (u32) — sorted by key. Because the key is
//! the standard Polyglot Zobrist key of the position, a book made on one
//! machine works on every other. The library parses bytes (the
//! caller reads or maps the file) and never trusts them: a length that is
//! not a multiple of 16 or keys out of order are errors, and a stored move
//! that is not legal in the position is skipped.
//!
//! Moves are 16 bits: to-file (bits 0–2), to-rank (3–5), from-file (6–8),
//! from-rank (9–11), promotion (12–14: 1 knight … 4 queen). Castling is
//! stored as king-takes-rook (`e1h1`), which is also hashmate's internal
//! form, so it decodes without a special case.
//!
//! ```
//! use hashmate::book::{encode_move, Book, BookEntry, Pick};
//! use hashmate::Position;
//!
//! let pos = Position::startpos();
//! let e4 = pos.parse_uci("e2e4")?;
//! let d4 = pos.parse_uci("d2d4")?;
//! let entry = |mv, weight| BookEntry { key: pos.key(), mv: encode_move(mv), weight, learn: 0 };
//! let bytes = Book::from_entries(vec![entry(e4, 3), entry(d4, 1)]).to_bytes();
//!
//! let book = Book::from_bytes(&bytes)?; // what a program reads from disk
//! assert_eq!(book.moves(&pos), vec![(e4, 3), (d4, 1)]);
//! assert_eq!(book.choose(&pos, Pick::Heaviest), Some((e4, 3)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Square;
use core::fmt;

/// One book entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BookEntry {
    /// The Polyglot key of the position.
    pub key: u64,
    /// The move in Polyglot's encoding ([`encode_move`]).
    pub mv: u16,
    /// The move's weight; 0 means "never play".
    pub weight: u16,
    /// Learning data, unused by readers.
    pub learn: u32,
}

impl BookEntry {
    /// The 16 big-endian bytes of the entry.
    pub fn to_bytes(&self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.mv.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> BookEntry {
        let mut k = [0u8; 8];
        k.copy_from_slice(&b[0..8]);
        BookEntry {
            key: u64::from_be_bytes(k),
            mv: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes([b[12], b[13], b[14], b[15]]),
        }
    }
}

/// Why bytes are not a Polyglot book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The length is not a multiple of 16 (a truncated or foreign file).
    BadLength {
        /// The length found.
        bytes: usize,
    },
    /// Entry `index` has a smaller key than the one before it.
    Unsorted {
        /// The first entry out of order.
        index: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::BadLength { bytes } => write!(
                f,
                "not a Polyglot book: {bytes} bytes is not a whole number of 16-byte entries"
            ),
            BookError::Unsorted { index } => write!(
                f,
                "not a Polyglot book: entry {index} is out of key order (the file must be sorted)"
            ),
        }
    }
}

impl core::error::Error for BookError {}

/// How [`Book::choose`] picks among a position's book moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The heaviest move (the first on ties).
    Heaviest,
    /// At random in proportion to weight, `random` being uniform in
    /// `0..2^64` (the caller's generator, so that choices can be seeded).
    Weighted {
        /// The random draw.
        random: u64,
    },
}

/// A Polyglot book held in memory.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<BookEntry>,
}

/// Decode a Polyglot move into a move of `pos`, if it is legal there.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let sq = |file: u16, rank: u16| Square::new((rank * 8 + file) as u8);
    let to = sq(raw & 7, (raw >> 3) & 7)?;
    let from = sq((raw >> 6) & 7, (raw >> 9) & 7)?;
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    // Castling is king-takes-rook in both encodings, so comparing origin,
    // destination and promotion finds it like any other move.
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
}

/// Encode a legal move of a position in Polyglot form (castling is already
/// king-takes-rook internally).
pub fn encode_move(mv: Move) -> u16 {
    let p = match mv.promotion() {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(_) => 4,
    };
    let (f, t) = (mv.from().index() as u16, mv.to().index() as u16);
    (t & 7) | ((t >> 3) << 3) | ((f & 7) << 6) | ((f >> 3) << 9) | (p << 12)
}

impl Book {
    /// Parse a whole book file.
    ///
    /// # Errors
    /// [`BookError`] when the length is not a multiple of 16 or the keys
    /// are not sorted.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if !bytes.len().is_multiple_of(16) {
            return Err(BookError::BadLength { bytes: bytes.len() });
        }
        let entries: Vec<BookEntry> = bytes.chunks_exact(16).map(BookEntry::from_bytes).collect();
        if let Some(i) = entries.windows(2).position(|w| w[1].key < w[0].key) {
            return Err(BookError::Unsorted { index: i + 1 });
        }
        Ok(Book { entries })
    }

    /// Build a book from entries (sorted here by key unless they already
    /// are; equal keys keep their order).
    pub fn from_entries(mut entries: Vec<BookEntry>) -> Book {
        if !entries.is_sorted_by_key(|e| e.key) {
            entries.sort_by_key(|e| e.key);
        }
        Book { entries }
    }

    /// The file contents.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Has the book no entries?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All entries, sorted by key.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// All raw entries with `key`, in file order (binary search).
    pub fn entries_for_key(&self, key: u64) -> &[BookEntry] {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = lo + self.entries[lo..].partition_point(|e| e.key == key);
        &self.entries[lo..hi]
    }

    /// The book moves of `pos` with their weights, in file order: entries
    /// with weight 0 or a move that is not legal here are skipped (as
    /// python-chess does by default).
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        self.entries_for_key(pos.key())
            .iter()
            .filter(|e| e.weight > 0)
            .filter_map(|e| decode_move(pos, e.mv).map(|m| (m, e.weight)))
            .collect()
    }

    /// Pick a book move of `pos` as `pick` says; `None` when the book has
    /// none.
    pub fn choose(&self, pos: &Position, pick: Pick) -> Option<(Move, u16)> {
        let moves = self.moves(pos);
        let random = match pick {
            Pick::Heaviest => {
                return moves
                    .iter()
                    .copied()
                    .reduce(|a, b| if b.1 > a.1 { b } else { a })
            }
            Pick::Weighted { random } => random,
        };
        let total: u64 = moves.iter().map(|m| m.1 as u64).sum();
        if total == 0 {
            return None;
        }
        let mut pick = ((random as u128 * total as u128) >> 64) as u64;
        for &(m, w) in &moves {
            if pick < w as u64 {
                return Some((m, w));
            }
            pick -= w as u64;
        }
        moves.last().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_decode_round_trip() {
        let pos = Position::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for &m in pos.legal_moves().iter() {
            assert_eq!(decode_move(&pos, encode_move(m)), Some(m));
        }
        // e1h1 is castling, king-takes-rook.
        // to h1 = file 7 rank 0, from e1 = file 4 rank 0.
        let castle = decode_move(&pos, 7 | (4 << 6)).unwrap();
        assert!(castle.is_castling());
        // Promotion bits 5-7 mean nothing: rejected, not trusted.
        assert_eq!(
            decode_move(
                &pos,
                encode_move(Move::new(Square::B7, Square::B8, None)) | 7 << 12
            ),
            None
        );
    }

    #[test]
    fn hostile_bytes() {
        assert_eq!(
            Book::from_bytes(&[0; 17]).err(),
            Some(BookError::BadLength { bytes: 17 })
        );
        let mut b = BookEntry {
            key: 5,
            mv: 0,
            weight: 1,
            learn: 0,
        }
        .to_bytes()
        .to_vec();
        b.extend(
            BookEntry {
                key: 3,
                mv: 0,
                weight: 1,
                learn: 0,
            }
            .to_bytes(),
        );
        assert_eq!(
            Book::from_bytes(&b).err(),
            Some(BookError::Unsorted { index: 1 })
        );
        assert!(Book::from_bytes(&[]).unwrap().is_empty());
        // Random sorted garbage parses but yields no legal moves, no panic.
        let mut rng = hashmate_hash::rng::SplitMix64::new(1);
        let entries: Vec<_> = (0..1000)
            .map(|_| BookEntry {
                key: Position::startpos().key() ^ (rng.next_u64() & 1),
                mv: rng.next_u64() as u16,
                weight: rng.next_u64() as u16,
                learn: 0,
            })
            .collect();
        let book = Book::from_bytes(&Book::from_entries(entries).to_bytes()).unwrap();
        let pos = Position::startpos();
        for (m, _) in book.moves(&pos) {
            assert!(pos.legal_moves().contains(m));
        }
        let _ = book.choose(&pos, Pick::Weighted { random: 12345 });
    }

    #[test]
    fn weighted_choice() {
        let pos = Position::startpos();
        let e4 = encode_move(pos.parse_uci("e2e4").unwrap());
        let d4 = encode_move(pos.parse_uci("d2d4").unwrap());
        let key = pos.key();
        let book = Book::from_entries(vec![
            BookEntry {
                key,
                mv: e4,
                weight: 3,
                learn: 0,
            },
            BookEntry {
                key,
                mv: d4,
                weight: 1,
                learn: 0,
            },
        ]);
        assert_eq!(book.choose(&pos, Pick::Heaviest).unwrap().1, 3);
        assert_eq!(
            book.choose(&pos, Pick::Weighted { random: 0 }).unwrap().1,
            3
        );
        assert_eq!(
            book.choose(&pos, Pick::Weighted { random: u64::MAX })
                .unwrap()
                .1,
            1
        );
    }
}
