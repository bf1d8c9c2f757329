//! A compact form of training data: each game as its first record and the
//! moves that lead from one recorded position to the next, about 4 bytes a
//! position where [`record`](crate::record) takes 32.
//!
//! `hashmate datagen` records consecutive positions of a game: each
//! recorded position's best move is the move played, and the position it
//! leads to is the next record. So a game is its first record and, for
//! every later position, the move that reached it and its score; the rest
//! of each record (half-move clock, full-move number, castling rights,
//! en passant, the result, the game-boundary bits, the "noisy best move"
//! bit) follows from playing the moves. Unpacking gives back the 32-byte
//! records byte for byte.
//!
//! | bytes | field |
//! | --- | --- |
//! | 0–7 | the file's magic, `HMCHAIN1` |
//!
//! then, for each game:
//!
//! | bytes | field |
//! | --- | --- |
//! | 32 | the game's first record, as [`Record::encode`] writes it |
//! | 2 | bits 0–14: `n`, the positions after the first; bit 15: the last position's best move was a capture or a promotion |
//! | 4 × `n` | for each later position: the move that reached it ([`Move::to_u16`]), then its search score (i16) |
//!
//! All numbers little-endian. The "noisy" bit of every position but the
//! last is whether the move played from it captured or promoted, so it is
//! not stored; a record sequence where it differs, or whose positions do
//! not follow by legal moves, cannot be packed and is refused.

use crate::record::{Record, RecordError, RECORD_BYTES};
use hashmate::{Move, Position};
use std::fmt;

/// The first bytes of a chained file.
pub const MAGIC: &[u8; 8] = b"HMCHAIN1";

/// Positions after the first that one game may hold.
pub const MAX_LATER: usize = 0x7fff;

const LAST_NOISY: u16 = 1 << 15;

/// Why records cannot be packed, or bytes unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChainError {
    /// A record of the game does not decode.
    Record(RecordError),
    /// The records are not one game as `datagen` writes it.
    NotAGame(String),
    /// The bytes end inside a game.
    Truncated,
    /// A stored move is not legal in the position it is played from.
    IllegalMove {
        /// Index of the position (0 = the game's first) the move leaves.
        from_position: usize,
        /// The move's bits.
        bits: u16,
    },
}

impl fmt::Display for ChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainError::Record(e) => write!(f, "{e}"),
            ChainError::NotAGame(why) => write!(f, "not one datagen game: {why}"),
            ChainError::Truncated => write!(f, "the data ends inside a game"),
            ChainError::IllegalMove {
                from_position,
                bits,
            } => write!(
                f,
                "move bits {bits:#06x} are not a legal move in the game's position {from_position}"
            ),
        }
    }
}

impl std::error::Error for ChainError {}

impl From<RecordError> for ChainError {
    fn from(e: RecordError) -> ChainError {
        ChainError::Record(e)
    }
}

/// Whether a move captures or promotes in `pos` (a "noisy" best move).
fn noisy(pos: &Position, mv: Move) -> bool {
    pos.is_capture(mv) || mv.promotion().is_some()
}

/// The legal move of `from` that leads to `to`, if any.
fn move_between(from: &Position, to: &Position) -> Option<Move> {
    from.legal_moves().iter().copied().find(|&mv| {
        let mut p = from.clone();
        p.play_unchecked(mv);
        p.key() == to.key() && p == *to
    })
}

/// Pack one game's records (first to last, as `datagen` wrote them) and
/// append the bytes to `out`.
///
/// # Errors
/// [`ChainError::NotAGame`] when the records are not one whole game of
/// consecutive positions with one result (each position reached from the
/// one before by a legal move, the noisy bit that move's), or too long.
pub fn pack_game(records: &[Record], out: &mut Vec<u8>) -> Result<(), ChainError> {
    let bad = |why: String| Err(ChainError::NotAGame(why));
    let (Some(first), Some(last)) = (records.first(), records.last()) else {
        return bad("no record".into());
    };
    if records.len() - 1 > MAX_LATER {
        return bad(format!(
            "{} positions (at most {} in one game)",
            records.len(),
            MAX_LATER + 1
        ));
    }
    if !first.first_of_game || !last.last_of_game {
        return bad("the first and last records do not carry the game-boundary bits".into());
    }
    let start = out.len();
    out.extend_from_slice(&first.encode());
    let n = (records.len() - 1) as u16;
    out.extend_from_slice(&(n | if last.noisy { LAST_NOISY } else { 0 }).to_le_bytes());
    for (i, pair) in records.windows(2).enumerate() {
        let mv = match link(&pair[0], &pair[1], first.result) {
            Ok(mv) => mv,
            Err(why) => {
                out.truncate(start);
                return bad(format!("position {} of the game: {why}", i + 1));
            }
        };
        out.extend_from_slice(&mv.to_u16().to_le_bytes());
        out.extend_from_slice(&pair[1].score.to_le_bytes());
    }
    Ok(())
}

/// The move that joins two consecutive records of a game with `result`,
/// or why there is none.
fn link(prev: &Record, next: &Record, result: crate::record::Wdl) -> Result<Move, &'static str> {
    if next.first_of_game || prev.last_of_game {
        return Err("a game boundary inside the game");
    }
    if next.result != result {
        return Err("a result unlike the game's");
    }
    let mv = move_between(&prev.pos, &next.pos)
        .ok_or("no legal move leads to it from the position before")?;
    if noisy(&prev.pos, mv) != prev.noisy {
        return Err("the position before is marked unlike the move played from it");
    }
    Ok(mv)
}

/// Unpack the game at the start of `bytes`: push its records onto `out`
/// and return how many bytes it took.
///
/// # Errors
/// [`ChainError`] when the bytes end inside the game, its first record
/// does not decode or a move is not legal.
pub fn unpack_game(bytes: &[u8], out: &mut Vec<Record>) -> Result<usize, ChainError> {
    let len = game_len(bytes)?;
    let head: &[u8; RECORD_BYTES] = bytes[..RECORD_BYTES].try_into().expect("length checked");
    let mut rec = Record::decode(head)?;
    if !rec.first_of_game {
        return Err(ChainError::NotAGame(
            "its first record lacks the first-of-game bit".into(),
        ));
    }
    let word = u16::from_le_bytes([bytes[RECORD_BYTES], bytes[RECORD_BYTES + 1]]);
    let n = usize::from(word & !LAST_NOISY);
    rec.last_of_game = n == 0;
    let base = out.len();
    for i in 0..n {
        let at = RECORD_BYTES + 2 + 4 * i;
        let bits = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let mv = Move::from_u16(bits);
        let mut next = rec.clone();
        if mv.to_u16() != bits || next.pos.try_play(mv).is_err() {
            out.truncate(base);
            return Err(ChainError::IllegalMove {
                from_position: i,
                bits,
            });
        }
        rec.noisy = noisy(&rec.pos, mv);
        rec.last_of_game = false;
        next.score = i16::from_le_bytes([bytes[at + 2], bytes[at + 3]]);
        next.first_of_game = false;
        next.last_of_game = i + 1 == n;
        out.push(rec);
        rec = next;
    }
    rec.noisy = word & LAST_NOISY != 0;
    out.push(rec);
    Ok(len)
}

/// The bytes the game at the start of `bytes` takes, from its header
/// alone (to index a file without replaying it).
///
/// # Errors
/// [`ChainError::Truncated`] when `bytes` ends inside the game.
pub fn game_len(bytes: &[u8]) -> Result<usize, ChainError> {
    let len = RECORD_BYTES + 2 + 4 * (game_positions(bytes)? - 1);
    if bytes.len() < len {
        return Err(ChainError::Truncated);
    }
    Ok(len)
}

/// Positions in the game at the start of `bytes`, from its header alone.
///
/// # Errors
/// [`ChainError::Truncated`] when `bytes` ends inside the header.
pub fn game_positions(bytes: &[u8]) -> Result<usize, ChainError> {
    if bytes.len() < RECORD_BYTES + 2 {
        return Err(ChainError::Truncated);
    }
    let word = u16::from_le_bytes([bytes[RECORD_BYTES], bytes[RECORD_BYTES + 1]]);
    Ok(1 + usize::from(word & !LAST_NOISY))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Wdl;

    /// A short game's records as `datagen` would write them.
    fn game(fen: &str, moves: &[&str], result: Wdl) -> Vec<Record> {
        let mut pos: Position = fen.parse().unwrap();
        let mut out = Vec::new();
        for (i, uci) in moves.iter().enumerate() {
            let mv = pos.parse_uci(uci).unwrap();
            out.push(Record {
                pos: pos.clone(),
                score: (i as i16 - 3) * 37,
                result,
                first_of_game: i == 0,
                last_of_game: i + 1 == moves.len(),
                noisy: noisy(&pos, mv),
            });
            pos.try_play(mv).unwrap();
        }
        out
    }

    fn bytes_of(records: &[Record]) -> Vec<u8> {
        records.iter().flat_map(Record::encode).collect()
    }

    #[test]
    fn a_game_comes_back_byte_for_byte() {
        // Castling both ways, en passant, a capture and a promotion.
        let records = game(
            "r3k2r/8/8/8/3p4/8/1p2P3/4K2R w Kkq - 0 30",
            &[
                "e2e4", "d4e3", "e1g1", "e8c8", "f1f7", "b2b1q", "g1g2", "d8d2",
            ],
            Wdl::Win,
        );
        let mut packed = Vec::new();
        pack_game(&records, &mut packed).unwrap();
        assert_eq!(packed.len(), 32 + 2 + 4 * 7);
        let mut back = Vec::new();
        assert_eq!(unpack_game(&packed, &mut back), Ok(packed.len()));
        assert_eq!(bytes_of(&back), bytes_of(&records));
        let noisy: Vec<bool> = back.iter().map(|r| r.noisy).collect();
        assert_eq!(
            noisy,
            [false, true, false, false, false, true, false, false]
        );
    }

    #[test]
    fn a_game_of_one_position_and_a_noisy_last_move() {
        let mut one = game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4"],
            Wdl::Draw,
        );
        one[0].noisy = true;
        let mut packed = Vec::new();
        pack_game(&one, &mut packed).unwrap();
        let mut back = Vec::new();
        unpack_game(&packed, &mut back).unwrap();
        assert_eq!(back, one);
    }

    #[test]
    fn records_that_are_not_one_game_are_refused_and_nothing_is_written() {
        let records = game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4", "e7e5", "g1f3", "b8c6"],
            Wdl::Loss,
        );
        let mut skipped = records.clone();
        skipped.remove(2);
        let mut marked = records.clone();
        marked[1].noisy = true;
        let mut other_result = records.clone();
        other_result[2].result = Wdl::Draw;
        let mut packed = vec![9u8];
        for (bad, why) in [
            (&skipped[..], "no legal move"),
            (&marked[..], "marked unlike"),
            (&other_result[..], "result"),
            (&records[1..], "boundary"),
            (&records[..0], "no record"),
        ] {
            let e = pack_game(bad, &mut packed).unwrap_err();
            assert!(e.to_string().contains(why), "{e}");
            assert_eq!(packed, [9]);
        }
    }

    #[test]
    fn damaged_bytes_are_errors_not_panics() {
        let records = game(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4", "e7e5", "g1f3"],
            Wdl::Draw,
        );
        let mut packed = Vec::new();
        pack_game(&records, &mut packed).unwrap();
        let mut out = Vec::new();
        for cut in 0..packed.len() {
            assert_eq!(
                unpack_game(&packed[..cut], &mut out),
                Err(ChainError::Truncated)
            );
        }
        let mut illegal = packed.clone();
        illegal[34] ^= 0x3f; // the first move's origin square
        assert!(matches!(
            unpack_game(&illegal, &mut out),
            Err(ChainError::IllegalMove {
                from_position: 0,
                ..
            })
        ));
        assert!(out.is_empty());
        // Every single-byte change decodes or is an error.
        for i in 0..packed.len() {
            for v in [0u8, 0x55, 0xff] {
                let mut b = packed.clone();
                b[i] = v;
                let _ = unpack_game(&b, &mut out);
            }
        }
    }
}
