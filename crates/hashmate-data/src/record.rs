//! The training-data format of `hashmate datagen` and `hashmate tune`: one
//! position per fixed 32-byte record, little-endian, no header.
//!
//! | bytes | field |
//! | --- | --- |
//! | 0–7 | occupancy: bit `n` set when square `n` (a1 = 0 … h8 = 63) holds a piece |
//! | 8–23 | the pieces of the occupied squares in square order, one nibble each (low nibble first): `color × 8 + role`, role 0 = pawn … 5 = king, color 0 = White; unused nibbles 0 |
//! | 24 | bit 0: side to move (1 = Black); bits 1–4: castling rights K, Q, k, q; bit 5: the search's best move was a capture or a promotion; bit 6: last position of a game; bit 7: first position of a game |
//! | 25 | en-passant square (0–63), or 64 for none |
//! | 26 | half-move clock (saturating at 255) |
//! | 27 | game result from White's point of view: 0 loss, 1 draw, 2 win |
//! | 28–29 | search score in centipawns, White's point of view (i16); a mate score is ±(32,000 − plies to mate) |
//! | 30–31 | full-move number (saturating at 65,535) |
//!
//! `datagen` writes every position its games reach; which ones to learn
//! from (not in check, a quiet best move, no mate score) is decided by the
//! reader ([`Record::trainable`]), so that one data set serves several
//! filters. Files written before bit 5 existed hold only positions that
//! pass that filter.
//!
//! Castling rights are the standard ones (rooks on the a- and h-files):
//! `datagen` plays standard chess only. The "first" and "last position"
//! bits mark game boundaries, which makes an interrupted run resumable:
//! everything after the last complete game is cut, and the games before it
//! are counted. Every game has at least one record (its first position is
//! always written), so the count is exact.

use hashmate::builder::PositionBuilder;
use hashmate::{CastlingSide, Color, Position, Role, Square};
use std::fmt;

/// Bytes per record.
pub const RECORD_BYTES: usize = 32;

/// A game result, from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// White lost.
    Loss = 0,
    /// A draw.
    Draw = 1,
    /// White won.
    Win = 2,
}

impl Wdl {
    /// The result as White's score: 0, ½ or 1.
    pub fn score(self) -> f64 {
        self as u8 as f64 / 2.0
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position.
    pub pos: Position,
    /// The search score, White's point of view, in centipawns.
    pub score: i16,
    /// How the game ended.
    pub result: Wdl,
    /// Whether this is the first recorded position of its game.
    pub first_of_game: bool,
    /// Whether this is the last recorded position of its game.
    pub last_of_game: bool,
    /// Whether the search's best move was a capture or a promotion.
    pub noisy: bool,
}

/// Scores at or beyond this size are mate scores.
pub const MATE_SCORE: i16 = 31_000;

/// Bit of byte 24 that marks the first record of a game.
pub const FIRST_BIT: u8 = 1 << 7;
/// Bit of byte 24 that marks a record whose best move was noisy.
pub const NOISY_BIT: u8 = 1 << 5;
/// Bit of byte 24 that marks the last record of a game.
pub const LAST_BIT: u8 = 1 << 6;

/// Why bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 occupied squares, a nibble that is no piece, or an
    /// illegal position.
    BadPosition(String),
    /// A result byte other than 0, 1 or 2.
    BadResult(u8),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadPosition(why) => write!(f, "not a training record: {why}"),
            RecordError::BadResult(r) => {
                write!(
                    f,
                    "not a training record: result byte {r} (0, 1 or 2 expected)"
                )
            }
        }
    }
}

impl std::error::Error for RecordError {}

const CASTLING_BITS: [(Color, CastlingSide, u8); 4] = [
    (Color::White, CastlingSide::Short, 1 << 1),
    (Color::White, CastlingSide::Long, 1 << 2),
    (Color::Black, CastlingSide::Short, 1 << 3),
    (Color::Black, CastlingSide::Long, 1 << 4),
];

impl Record {
    /// The 32 bytes of the record.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        let occ = self.pos.occupied();
        b[0..8].copy_from_slice(&occ.0.to_le_bytes());
        for (i, sq) in occ.iter().take(32).enumerate() {
            let p = self
                .pos
                .piece_at(sq)
                .map_or(0, |p| p.color as u8 * 8 + p.role as u8);
            b[8 + i / 2] |= p << (4 * (i % 2));
        }
        let mut flags = u8::from(self.pos.side_to_move() == Color::Black);
        for (color, side, bit) in CASTLING_BITS {
            if self.pos.castling().rook(color, side).is_some() {
                flags |= bit;
            }
        }
        if self.first_of_game {
            flags |= FIRST_BIT;
        }
        if self.last_of_game {
            flags |= LAST_BIT;
        }
        if self.noisy {
            flags |= NOISY_BIT;
        }
        b[24] = flags;
        b[25] = self.pos.ep_square().map_or(64, |s| s as u8);
        b[26] = self.pos.halfmove_clock().min(255) as u8;
        b[27] = self.result as u8;
        b[28..30].copy_from_slice(&self.score.to_le_bytes());
        b[30..32].copy_from_slice(&(self.pos.fullmove_number().min(65_535) as u16).to_le_bytes());
        b
    }

    /// Decode 32 bytes.
    ///
    /// # Errors
    /// [`RecordError`] when the bytes do not describe a legal position
    /// and a result.
    pub fn decode(b: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let bad = |why: String| RecordError::BadPosition(why);
        let occ = u64::from_le_bytes(b[0..8].try_into().map_err(|_| bad("short".into()))?);
        if occ.count_ones() > 32 {
            return Err(bad(format!("{} occupied squares", occ.count_ones())));
        }
        // Checked as its FEN would be (the builder's checks are FEN's),
        // without writing the text: the trainer decodes every record of
        // every epoch.
        let mut setup = PositionBuilder::new();
        let mut bits = occ;
        let mut i = 0;
        while bits != 0 {
            let sq = Square::ALL[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            let nibble = (b[8 + i / 2] >> (4 * (i % 2))) & 15;
            let role = Role::ALL
                .get((nibble & 7) as usize)
                .copied()
                .ok_or_else(|| bad(format!("nibble {nibble} is no piece")))?;
            let color = if nibble & 8 == 0 {
                Color::White
            } else {
                Color::Black
            };
            setup.piece(sq, Some(hashmate::Piece { color, role }));
            i += 1;
        }
        let flags = b[24];
        setup.side_to_move(if flags & 1 == 0 {
            Color::White
        } else {
            Color::Black
        });
        for (color, side, bit) in CASTLING_BITS {
            if flags & bit != 0 {
                // A corner rook's right is FEN's `K`, `Q`, `k` or `q`: the
                // outermost rook on that side of the king.
                let corner = match (color, side) {
                    (Color::White, CastlingSide::Short) => Square::H1,
                    (Color::White, CastlingSide::Long) => Square::A1,
                    (Color::Black, CastlingSide::Short) => Square::H8,
                    (Color::Black, CastlingSide::Long) => Square::A8,
                };
                setup.castling_rook(color, corner);
            }
        }
        setup
            .en_passant(Square::new(b[25]))
            .halfmove_clock(u32::from(b[26]))
            .fullmove_number(u32::from(u16::from_le_bytes([b[30], b[31]]).max(1)));
        let pos = setup
            .build()
            .map_err(|e| bad(format!("{}: {e}", setup.to_fen())))?;
        let result = match b[27] {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            2 => Wdl::Win,
            r => return Err(RecordError::BadResult(r)),
        };
        Ok(Record {
            pos,
            score: i16::from_le_bytes([b[28], b[29]]),
            result,
            first_of_game: flags & FIRST_BIT != 0,
            last_of_game: flags & LAST_BIT != 0,
            noisy: flags & NOISY_BIT != 0,
        })
    }

    /// Whether a static evaluation can learn from this position: not in
    /// check, a quiet best move, and no mate score.
    pub fn trainable(&self) -> bool {
        !self.noisy && !self.pos.is_check() && self.score.unsigned_abs() < MATE_SCORE as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for (fen, score, result) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                17,
                Wdl::Draw,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 12",
                -250,
                Wdl::Loss,
            ),
            ("8/8/8/3pP3/8/8/k7/7K w - d6 0 40", 900, Wdl::Win),
        ] {
            let r = Record {
                pos: fen.parse().unwrap(),
                score,
                result,
                first_of_game: score > 0,
                last_of_game: score < 100,
                noisy: score == 900,
            };
            let bytes = r.encode();
            assert_eq!(Record::decode(&bytes), Ok(r), "{fen}");
        }
    }

    #[test]
    fn the_reader_filters_check_noisy_and_mate() {
        let rec = |fen: &str, score: i16, noisy: bool| Record {
            pos: fen.parse().unwrap(),
            score,
            result: Wdl::Draw,
            first_of_game: false,
            last_of_game: false,
            noisy,
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let check = "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert!(rec(start, 30, false).trainable());
        assert!(!rec(start, 30, true).trainable());
        assert!(!rec(check, 30, false).trainable());
        assert!(!rec(start, 31_990, false).trainable());
        assert!(!rec(start, -31_990, false).trainable());
        assert!(rec(start, 3_000, false).trainable());
    }

    /// The decoder as it was before it built positions directly: every
    /// record through its FEN text. The reference `decode` must equal.
    fn decode_through_fen(b: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let bad = |why: String| RecordError::BadPosition(why);
        let occ = u64::from_le_bytes(b[0..8].try_into().unwrap());
        if occ.count_ones() > 32 {
            return Err(bad(format!("{} occupied squares", occ.count_ones())));
        }
        let mut board = [None; 64];
        let (mut bits, mut i) = (occ, 0);
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let nibble = (b[8 + i / 2] >> (4 * (i % 2))) & 15;
            let role = Role::ALL
                .get((nibble & 7) as usize)
                .copied()
                .ok_or_else(|| bad(format!("nibble {nibble} is no piece")))?;
            let color = [Color::White, Color::Black][usize::from(nibble >> 3)];
            board[sq] = Some(hashmate::Piece { color, role });
            i += 1;
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(p) => {
                        if empty > 0 {
                            fen.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        fen.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push((b'0' + empty) as char);
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let flags = b[24];
        fen.push_str(if flags & 1 == 0 { " w " } else { " b " });
        let rights: String = CASTLING_BITS
            .iter()
            .zip(['K', 'Q', 'k', 'q'])
            .filter(|((_, _, bit), _)| flags & bit != 0)
            .map(|(_, c)| c)
            .collect();
        fen.push_str(if rights.is_empty() { "-" } else { &rights });
        match Square::new(b[25]) {
            Some(sq) => fen.push_str(&format!(" {sq}")),
            None => fen.push_str(" -"),
        }
        let full = u16::from_le_bytes([b[30], b[31]]).max(1);
        fen.push_str(&format!(" {} {full}", b[26]));
        let pos = Position::from_fen(&fen).map_err(|e| bad(format!("{fen}: {e}")))?;
        let result = match b[27] {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            2 => Wdl::Win,
            r => return Err(RecordError::BadResult(r)),
        };
        Ok(Record {
            pos,
            score: i16::from_le_bytes([b[28], b[29]]),
            result,
            first_of_game: flags & FIRST_BIT != 0,
            last_of_game: flags & LAST_BIT != 0,
            noisy: flags & NOISY_BIT != 0,
        })
    }

    mod random {
        use super::*;
        use proptest::prelude::*;

        /// Records as a writer might leave them and as damage might:
        /// real positions' bytes with some bytes overwritten, and bytes
        /// with a few occupied squares, random nibbles and flags.
        fn bytes() -> impl Strategy<Value = [u8; RECORD_BYTES]> {
            let real = (
                prop_oneof![
                    Just("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                    Just("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 12"),
                    Just("8/8/8/3pP3/8/8/k7/7K w - d6 0 40"),
                    Just("r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1"),
                ],
                prop::collection::vec((8usize..32, any::<u8>()), 0..3),
            )
                .prop_map(|(fen, edits)| {
                    let mut b = Record {
                        pos: fen.parse().unwrap(),
                        score: 5,
                        result: Wdl::Win,
                        first_of_game: true,
                        last_of_game: false,
                        noisy: false,
                    }
                    .encode();
                    for (at, v) in edits {
                        b[at] = v;
                    }
                    b
                });
            let sparse = (
                prop::collection::vec(0u64..64, 2..12),
                any::<[u8; 16]>(),
                any::<u8>(),
                prop_oneof![Just(64u8), 0u8..64, any::<u8>()],
                any::<[u8; 6]>(),
            )
                .prop_map(|(squares, nibbles, flags, ep, rest)| {
                    let mut b = [0u8; RECORD_BYTES];
                    let occ = squares.iter().fold(0u64, |o, s| o | 1 << s);
                    b[0..8].copy_from_slice(&occ.to_le_bytes());
                    // Nibbles kept to pieces mostly: role 6 and 7 are errors.
                    for (i, n) in nibbles.iter().enumerate() {
                        b[8 + i] = n & 0xdd;
                    }
                    b[24] = flags;
                    b[25] = ep;
                    b[26..32].copy_from_slice(&rest);
                    b[27] %= 4;
                    b
                });
            prop_oneof![real, sparse]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(4000))]
            #[test]
            fn decode_answers_as_the_fen_route_did(b in bytes()) {
                prop_assert_eq!(Record::decode(&b), decode_through_fen(&b));
            }
        }
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(Record::decode(&[0xff; RECORD_BYTES]).is_err());
        assert!(Record::decode(&[0; RECORD_BYTES]).is_err()); // no kings
        let mut b = Record {
            pos: Position::startpos(),
            score: 0,
            result: Wdl::Draw,
            first_of_game: true,
            last_of_game: true,
            noisy: false,
        }
        .encode();
        b[27] = 7;
        assert_eq!(Record::decode(&b), Err(RecordError::BadResult(7)));
    }
}
