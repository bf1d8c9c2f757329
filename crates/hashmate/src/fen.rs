//! FEN, X-FEN and Shredder-FEN: parsing and printing.
//!
//! Parsing happens in two steps with two error types. [`FenSyntaxError`]
//! says the text is not a FEN (wrong field count, bad piece letter, rank
//! too long, …); [`PositionError`] says it is a FEN of an illegal position
//! (no king, side not to move in check, castling right without its rook,
//! …). [`FenError`] wraps either. Nothing panics, whatever the input.
//!
//! Leniency, chosen to match what UCI clients and EPD files send (and what
//! python-chess and Stockfish accept):
//!
//! * fields are separated by one or more ASCII spaces; other white space
//!   (no-break space, ideographic space, …) is not a separator;
//! * trailing fields may be missing: side to move defaults to `w`,
//!   castling to `-`, en passant to `-`, the half-move clock to 0 and the
//!   full-move number to 1;
//! * a full-move number of 0 is read as 1.
//!
//! Castling rights accept `KQkq` (X-FEN: the outermost rook on that side of
//! the king) and file letters (Shredder-FEN: `HAha`), in any mix.

use crate::piece::{Piece, Role};
use crate::position::{CastlingSide, Position};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{Color, File, Rank, Square};
use crate::text::clip;
use core::fmt;

/// The standard starting position.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a string is not a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenSyntaxError {
    /// Nothing but white space.
    Empty,
    /// More than six fields.
    TooManyFields {
        /// Fields found.
        found: usize,
    },
    /// The placement does not have 8 ranks separated by `/`.
    WrongRankCount {
        /// Ranks found.
        found: usize,
    },
    /// A rank describes more than 8 squares.
    RankTooLong {
        /// The rank.
        rank: Rank,
        /// Squares it describes.
        squares: usize,
    },
    /// A rank describes fewer than 8 squares.
    RankTooShort {
        /// The rank.
        rank: Rank,
        /// Squares it describes.
        squares: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–8.
    BadPlacementChar {
        /// The rank it is in.
        rank: Rank,
        /// The character.
        c: char,
    },
    /// Two digits in a row (`44` instead of `8`).
    AdjacentDigits {
        /// The rank they are in.
        rank: Rank,
    },
    /// Side to move other than `w` or `b`.
    BadSideToMove(String),
    /// Castling field other than `-` or distinct letters `KQkq`/`A-Ha-h`.
    BadCastling(String),
    /// En-passant field other than `-` or a square on rank 3 or 6.
    BadEnPassant(String),
    /// Half-move clock that is not a decimal number below 2^32.
    BadHalfmoveClock(String),
    /// Full-move number that is not a decimal number below 2^32.
    BadFullmoveNumber(String),
}

impl fmt::Display for FenSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenSyntaxError::*;
        match self {
            Empty => write!(f, "empty FEN"),
            TooManyFields { found } => write!(f, "a FEN has at most 6 fields, found {found}"),
            WrongRankCount { found } => {
                write!(
                    f,
                    "the placement must have 8 ranks separated by '/', found {found}"
                )
            }
            RankTooLong { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, more than 8")
            }
            RankTooShort { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, fewer than 8")
            }
            BadPlacementChar { rank, c } => {
                write!(f, "invalid character {c:?} in rank {rank} of the placement")
            }
            AdjacentDigits { rank } => write!(f, "two digits in a row in rank {rank}"),
            BadSideToMove(s) => write!(f, "side to move must be 'w' or 'b', not '{s}'"),
            BadCastling(s) => write!(f, "invalid castling field '{s}'"),
            BadEnPassant(s) => write!(f, "invalid en-passant field '{s}'"),
            BadHalfmoveClock(s) => write!(f, "invalid half-move clock '{s}'"),
            BadFullmoveNumber(s) => write!(f, "invalid full-move number '{s}'"),
        }
    }
}

impl core::error::Error for FenSyntaxError {}

/// Why a FEN was rejected. `Display` includes the reason, so `source()`
/// is `None` (the message is never repeated); match on the variant for the
/// typed reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is not a FEN.
    Syntax(FenSyntaxError),
    /// The FEN describes an illegal position.
    Illegal(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(e) => write!(f, "bad FEN: {e}"),
            FenError::Illegal(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl core::error::Error for FenError {}

impl From<FenSyntaxError> for FenError {
    fn from(e: FenSyntaxError) -> Self {
        FenError::Syntax(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> Self {
        FenError::Illegal(e)
    }
}

/// How castling rights are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastlingStyle {
    /// `KQkq` for outermost rooks, file letters otherwise (X-FEN; identical
    /// to standard FEN in standard chess).
    XFen,
    /// File letters always (`HAha`).
    Shredder,
}

/// When the en-passant field names a square: the choice python-chess
/// offers as `fen(en_passant="fen" | "xfen" | "legal")` and shakmaty as
/// `EnPassantMode`. Every mode reads back to the same position and moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EnPassantMode {
    /// After every double pawn push, whether or not a capture is possible
    /// (the PGN standard's FEN; what [`Position::fen`] writes).
    Always,
    /// Only when a pawn of the side to move attacks the square (X-FEN;
    /// the rule of the Polyglot key's en-passant file).
    PseudoLegal,
    /// Only when an en-passant capture is a legal move (python-chess's
    /// default).
    Legal,
}

/// A castling letter before it is tied to a rook.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum CastlingToken {
    Side(Color, CastlingSide),
    File(Color, File),
}

fn parse_placement(pos: &mut Position, field: &str) -> Result<(), FenSyntaxError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenSyntaxError::WrongRankCount { found: ranks.len() });
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0usize;
        let mut last_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|_| c.is_ascii_digit()) {
                if !(1..=8).contains(&d) {
                    return Err(FenSyntaxError::BadPlacementChar { rank, c });
                }
                if last_digit {
                    return Err(FenSyntaxError::AdjacentDigits { rank });
                }
                last_digit = true;
                file += d as usize;
            } else {
                let piece =
                    Piece::from_char(c).ok_or(FenSyntaxError::BadPlacementChar { rank, c })?;
                last_digit = false;
                if file < 8 {
                    pos.put(piece, Square::from_coords(File::ALL[file], rank));
                }
                file += 1;
            }
            if file > 8 {
                return Err(FenSyntaxError::RankTooLong {
                    rank,
                    squares: file,
                });
            }
        }
        if file < 8 {
            return Err(FenSyntaxError::RankTooShort {
                rank,
                squares: file,
            });
        }
    }
    Ok(())
}

fn parse_castling(field: &str) -> Result<Vec<CastlingToken>, FenSyntaxError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let bad = || FenSyntaxError::BadCastling(clip(field));
    let mut out: Vec<CastlingToken> = Vec::new();
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let token = match c.to_ascii_lowercase() {
            'k' => CastlingToken::Side(color, CastlingSide::Short),
            'q' => CastlingToken::Side(color, CastlingSide::Long),
            l @ 'a'..='h' if c.is_ascii() => {
                CastlingToken::File(color, File::from_char(l).ok_or_else(bad)?)
            }
            _ => return Err(bad()),
        };
        if out.contains(&token) || out.len() >= 4 {
            return Err(bad());
        }
        out.push(token);
    }
    Ok(out)
}

fn parse_counter(field: &str) -> Option<u32> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse().ok()
}

impl Position {
    /// Parse a FEN, X-FEN or Shredder-FEN.
    ///
    /// # Errors
    /// [`FenError::Syntax`] when the text is not a FEN, and
    /// [`FenError::Illegal`] when it describes an illegal position.
    ///
    /// ```
    /// use hashmate::Position;
    /// let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
    /// assert_eq!(pos.key(), 0x463b96181691fc9c);
    /// assert!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    /// # Ok::<(), hashmate::fen::FenError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fen = fen.trim_matches(|c: char| c.is_ascii_whitespace());
        let fields: Vec<&str> = fen.split(' ').filter(|f| !f.is_empty()).collect();
        if fields.is_empty() || fields[0].is_empty() {
            return Err(FenSyntaxError::Empty.into());
        }
        if fields.len() > 6 {
            return Err(FenSyntaxError::TooManyFields {
                found: fields.len(),
            }
            .into());
        }
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0])?;
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(FenSyntaxError::BadSideToMove(clip(s)).into()),
        };
        let castling = parse_castling(fields.get(2).copied().unwrap_or("-"))?;
        let ep_field = fields.get(3).copied().unwrap_or("-");
        pos.ep = match ep_field {
            "-" => None,
            s => {
                let sq: Square = s
                    .parse()
                    .map_err(|_| FenSyntaxError::BadEnPassant(clip(s)))?;
                if sq.rank() != Rank::Third && sq.rank() != Rank::Sixth {
                    return Err(PositionError::EnPassantWrongRank(sq).into());
                }
                Some(sq)
            }
        };
        let half = fields.get(4).copied().unwrap_or("0");
        pos.halfmove =
            parse_counter(half).ok_or_else(|| FenSyntaxError::BadHalfmoveClock(clip(half)))?;
        let full = fields.get(5).copied().unwrap_or("1");
        pos.fullmove = parse_counter(full)
            .ok_or_else(|| FenSyntaxError::BadFullmoveNumber(clip(full)))?
            .max(1);
        pos.finish_setup(&castling)
    }

    /// The checks of [`Position::from_fen`] once its text is read: `self`
    /// holds the placement, side to move, en-passant square and clocks;
    /// tie the castling letters to rooks (this needs exactly one king
    /// each), then check the position as a whole. Shared with
    /// [`PositionBuilder::build`](crate::builder::PositionBuilder::build),
    /// so that both accept exactly the same positions.
    pub(crate) fn finish_setup(self, castling: &[CastlingToken]) -> Result<Position, FenError> {
        let mut pos = self;
        // Tie castling letters to rooks; this needs exactly one king each.
        for color in Color::ALL {
            match pos.pieces(color, Role::King).count() {
                0 => return Err(PositionError::MissingKing(color).into()),
                1 => {}
                _ => return Err(PositionError::TooManyKings(color).into()),
            }
        }
        for &token in castling {
            let (color, side, rook) = match token {
                CastlingToken::Side(color, side) => {
                    let king = pos.king(color);
                    let back = Bitboard::rank(Rank::First.relative_to(color));
                    let rooks = pos.pieces(color, Role::Rook) & back;
                    let outer = match side {
                        CastlingSide::Short => rooks.iter().filter(|&r| r > king).last(),
                        CastlingSide::Long => rooks.iter().find(|&r| r < king),
                    };
                    let rook = outer.ok_or(PositionError::BadCastlingRight { color, side })?;
                    (color, side, rook)
                }
                CastlingToken::File(color, file) => {
                    let king = pos.king(color);
                    let rook = Square::from_coords(file, Rank::First.relative_to(color));
                    let side = if rook > king {
                        CastlingSide::Short
                    } else {
                        CastlingSide::Long
                    };
                    (color, side, rook)
                }
            };
            if pos.castling.rook(color, side).is_some() {
                return Err(PositionError::BadCastlingRight { color, side }.into());
            }
            pos.castling.set(color, side, Some(rook));
        }
        Ok(pos.validate()?)
    }

    /// The FEN of the position (X-FEN castling, which is standard FEN in
    /// standard chess).
    pub fn fen(&self) -> String {
        self.to_fen(CastlingStyle::XFen)
    }

    /// The FEN with castling rights written in `style`.
    pub fn to_fen(&self, style: CastlingStyle) -> String {
        self.to_fen_with(style, EnPassantMode::Always)
    }

    /// The en-passant square as `mode` would write it.
    ///
    /// ```
    /// use hashmate::fen::EnPassantMode;
    /// use hashmate::Position;
    /// // After 1. e4 d5 nothing can take on d6 ...
    /// let pos: Position = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2".parse()?;
    /// assert_eq!(pos.ep_square_with(EnPassantMode::Always).map(|s| s.to_string()), Some("d6".into()));
    /// assert_eq!(pos.ep_square_with(EnPassantMode::PseudoLegal), None);
    /// // ... and here the pawn on e5 could, but it would expose its king.
    /// let pos: Position = "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2".parse()?;
    /// assert!(pos.ep_square_with(EnPassantMode::PseudoLegal).is_some());
    /// assert_eq!(pos.ep_square_with(EnPassantMode::Legal), None);
    /// # Ok::<(), hashmate::FenError>(())
    /// ```
    pub fn ep_square_with(&self, mode: EnPassantMode) -> Option<Square> {
        let ep = self.ep_square()?;
        match mode {
            EnPassantMode::Always => Some(ep),
            EnPassantMode::PseudoLegal => self.ep_in_key().map(|_| ep),
            EnPassantMode::Legal => self.has_legal_en_passant().then_some(ep),
        }
    }

    /// The FEN with castling rights written in `style` and the en-passant
    /// square when `ep` says so.
    pub fn to_fen_with(&self, style: CastlingStyle, ep: EnPassantMode) -> String {
        let mut s = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if *rank != Rank::First {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side_to_move().char());
        s.push(' ');
        let before = s.len();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(rook) = self.castling().rook(color, side) else {
                    continue;
                };
                let back = Bitboard::rank(Rank::First.relative_to(color));
                let rooks = self.pieces(color, Role::Rook) & back;
                let king = self.king(color);
                let outermost = match side {
                    CastlingSide::Short => rooks.iter().filter(|&r| r > king).last(),
                    CastlingSide::Long => rooks.iter().find(|&r| r < king),
                } == Some(rook);
                let c = if style == CastlingStyle::XFen && outermost {
                    match side {
                        CastlingSide::Short => 'k',
                        CastlingSide::Long => 'q',
                    }
                } else {
                    rook.file().char()
                };
                s.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if s.len() == before {
            s.push('-');
        }
        s.push(' ');
        match self.ep_square_with(ep) {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        s
    }

    /// Is this a Chess960 position that standard chess cannot express (a
    /// king or castling rook with a right, off its standard square)?
    pub fn is_chess960(&self) -> bool {
        Color::ALL.iter().any(|&c| {
            CastlingSide::ALL.iter().any(|&side| {
                self.castling().rook(c, side).is_some_and(|r| {
                    let back = Rank::First.relative_to(c);
                    let std_rook = match side {
                        CastlingSide::Short => File::H,
                        CastlingSide::Long => File::A,
                    };
                    r != Square::from_coords(std_rook, back)
                        || self.king(c) != Square::from_coords(File::E, back)
                })
            })
        })
    }
}

use crate::bitboard::Bitboard;

/// The FEN ([`Position::fen`]); [`Position::diagram`] draws the board.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

/// Parse a FEN, X-FEN or Shredder-FEN ([`Position::from_fen`]).
///
/// ```
/// use hashmate::Position;
/// let pos: Position = "8/8/8/4k3/8/8/8/4K2R w K - 0 1".parse()?;
/// assert_eq!(pos.to_string(), "8/8/8/4k3/8/8/8/4K2R w K - 0 1");
/// # Ok::<(), hashmate::FenError>(())
/// ```
impl core::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        // Parsed once: PGN readers start every game from it.
        #[cfg(feature = "std")]
        {
            static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
            START
                .get_or_init(|| {
                    Position::from_fen(crate::fen::STARTPOS).expect("the start position is valid")
                })
                .clone()
        }
        #[cfg(not(feature = "std"))]
        Position::from_fen(crate::fen::STARTPOS).expect("the start position is valid")
    }
}

/// Why a syntactically correct FEN does not describe a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A side has more than eight pawns.
    TooManyPawns(Color),
    /// A side has more than sixteen pieces.
    TooManyPieces(Color),
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank(Square),
    /// A castling right without the king and that rook on their squares.
    BadCastlingRight {
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
    },
    /// The en-passant square is not on the sixth rank of the side to move.
    EnPassantWrongRank(Square),
    /// The en-passant square or the square the pawn came from is occupied.
    EnPassantOccupied(Square),
    /// No enemy pawn stands where a double push to this square would land.
    EnPassantNoPawn(Square),
    /// The side not to move is in check.
    OppositeCheck,
    /// More than two pieces give check.
    TooManyCheckers(u32),
}

fn color_name(c: Color) -> &'static str {
    c.fold("white", "black")
}

impl core::fmt::Display for PositionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use PositionError::*;
        match self {
            MissingKing(c) => write!(f, "{} has no king", color_name(*c)),
            TooManyKings(c) => write!(f, "{} has more than one king", color_name(*c)),
            TooManyPawns(c) => write!(f, "{} has more than 8 pawns", color_name(*c)),
            TooManyPieces(c) => write!(f, "{} has more than 16 pieces", color_name(*c)),
            PawnOnBackRank(sq) => write!(f, "pawn on {sq}, on the first or eighth rank"),
            BadCastlingRight { color, side } => write!(
                f,
                "{} {} castling right without king and rook on their squares",
                color_name(*color),
                match side {
                    CastlingSide::Short => "short (king side)",
                    CastlingSide::Long => "long (queen side)",
                }
            ),
            EnPassantWrongRank(sq) => {
                write!(
                    f,
                    "en-passant square {sq} is on the wrong rank for the side to move"
                )
            }
            EnPassantOccupied(sq) => write!(
                f,
                "en-passant square {sq} or the square the pawn came from is occupied"
            ),
            EnPassantNoPawn(sq) => {
                write!(
                    f,
                    "en-passant square {sq} has no pawn that can have just moved past it"
                )
            }
            OppositeCheck => write!(f, "the side not to move is in check"),
            TooManyCheckers(n) => write!(f, "{n} pieces give check at once (at most 2 can)"),
        }
    }
}

impl core::error::Error for PositionError {}

impl Position {
    /// Check the board against the rules a legal position must satisfy and
    /// derive keys and check information.
    pub(crate) fn validate(mut self) -> Result<Position, PositionError> {
        for color in Color::ALL {
            let kings = self.pieces(color, Role::King).count();
            if kings == 0 {
                return Err(PositionError::MissingKing(color));
            }
            if kings > 1 {
                return Err(PositionError::TooManyKings(color));
            }
            if self.pieces(color, Role::Pawn).count() > 8 {
                return Err(PositionError::TooManyPawns(color));
            }
            if self.by_color(color).count() > 16 {
                return Err(PositionError::TooManyPieces(color));
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if let Some(sq) = (self.by_role(Role::Pawn) & back_ranks).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(rook) = self.castling.rook(color, side) else {
                    continue;
                };
                let king = self.king(color);
                let back = Rank::First.relative_to(color);
                let king_ok =
                    king.rank() == back && king.file() != File::A && king.file() != File::H;
                let rook_ok = self.pieces(color, Role::Rook).contains(rook)
                    && rook.rank() == back
                    && match side {
                        CastlingSide::Short => rook > king,
                        CastlingSide::Long => rook < king,
                    };
                if !king_ok || !rook_ok {
                    return Err(PositionError::BadCastlingRight { color, side });
                }
            }
        }
        if let Some(ep) = self.ep {
            let us = self.side;
            if ep.rank() != Rank::Sixth.relative_to(us) {
                return Err(PositionError::EnPassantWrongRank(ep));
            }
            let pushed = Bitboard::from_square(ep).south_for(us);
            let origin = Bitboard::from_square(ep).north_for(us);
            if self.occupied().contains(ep) || (self.occupied() & origin).any() {
                return Err(PositionError::EnPassantOccupied(ep));
            }
            if (pushed & self.pieces(!us, Role::Pawn)).is_empty() {
                return Err(PositionError::EnPassantNoPawn(ep));
            }
        }
        let them = !self.side;
        if self.is_attacked(self.king(them), self.side, self.occupied()) {
            return Err(PositionError::OppositeCheck);
        }
        self.refresh();
        if self.checkers.count() > 2 {
            return Err(PositionError::TooManyCheckers(self.checkers.count()));
        }
        Ok(self)
    }

    /// Place a piece during set-up (no key update; `validate` recomputes).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        self.by_role[piece.role.index()] |= Bitboard::from_square(sq);
        self.by_color[piece.color.index()] |= Bitboard::from_square(sq);
    }
}
