//! The chess position: pieces by bitboards, side to move, castling rights,
//! en-passant square, clocks, and three incrementally updated keys.
//!
//! Moves are made by copy-make: [`Position::try_play`] (checked) and
//! [`Position::play_unchecked`] (the fast path for moves the generator
//! produced) update a position in place, and callers that need the old one
//! keep a copy (a `Position` is about 150 bytes, cheaper to copy than to
//! unmake). Invariants, established by [`Position::from_fen`] and kept by
//! every legal move:
//!
//! * each side has exactly one king; the side not to move is not in check;
//! * `key`, `pawn_key` and `lock` equal what [`Position::compute_keys`]
//!   would compute from scratch, and the non-pawn keys what
//!   [`Position::compute_non_pawn_keys`] would — `play` only ever XORs the
//!   differences;
//! * `checkers` and `pinned` describe the side to move.
//!
//! Castling rights are stored as rook squares, which serves standard chess
//! and Chess960 alike: a right is "the rook on this square may castle".

use crate::attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    rook_rays, slider_reaches, DefaultSliders, Sliders,
};
use crate::bitboard::Bitboard;
pub use crate::moves::CastlingSide;
use crate::moves::{CastlingMode, Move};
use crate::piece::{Piece, Role};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{Color, File, Rank, Square};
use crate::zobrist::{castling_index, LOCK, POLYGLOT};

/// Castling rights: for each colour, the rook that may castle on the king's
/// short (h-file) side and on its long (a-file) side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Castling {
    rooks: [[Option<Square>; 2]; 2],
}

impl Castling {
    /// No castling rights at all.
    pub const NONE: Castling = Castling {
        rooks: [[None; 2]; 2],
    };

    /// The castling rook of `color` on `side`, if that right is held.
    #[inline(always)]
    pub fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.rooks[color.index()][side as usize]
    }

    pub(crate) fn set(&mut self, color: Color, side: CastlingSide, rook: Option<Square>) {
        self.rooks[color.index()][side as usize] = rook;
    }

    /// Are no rights held?
    pub fn is_empty(&self) -> bool {
        self.rooks.iter().flatten().all(Option::is_none)
    }

    /// Forget every right whose rook stands on `sq`.
    #[inline(always)]
    fn discard_rook(&mut self, sq: Square) {
        for c in &mut self.rooks {
            for r in c.iter_mut() {
                if *r == Some(sq) {
                    *r = None;
                }
            }
        }
    }

    /// The Polyglot/lock key contribution of these rights.
    #[inline]
    fn keys(&self) -> (u64, u64) {
        let (mut k, mut l) = (0, 0);
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.rook(color, side).is_some() {
                    let i = castling_index(color, side == CastlingSide::Long);
                    k ^= POLYGLOT.castling(i);
                    l ^= LOCK.castling(i);
                }
            }
        }
        (k, l)
    }
}

/// A legal chess position. Build one with [`Position::from_fen`] (or
/// `str::parse`) or [`Position::startpos`]; `Display` writes its FEN.
///
/// ```
/// use hashmate::{Position, Outcome};
/// let mut pos = Position::startpos();
/// for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
///     let mv = pos.parse_uci(uci)?;
///     pos.try_play(mv)?;
/// }
/// assert!(pos.is_checkmate());
/// assert_eq!(pos.outcome(), Some(Outcome::Checkmate { winner: hashmate::Color::Black }));
/// assert_eq!(pos.to_string(), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) side: Color,
    pub(crate) castling: Castling,
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    pub(crate) pawn_key: u64,
    pub(crate) non_pawn_keys: [u64; 2],
    pub(crate) lock: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

impl Position {
    /// An empty board with White to move; filled in by the FEN parser and
    /// only handed out after validation.
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            side: Color::White,
            castling: Castling::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            pawn_key: 0,
            non_pawn_keys: [0; 2],
            lock: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    // --- Queries -----------------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The castling rights.
    #[inline(always)]
    pub fn castling(&self) -> &Castling {
        &self.castling
    }

    /// The en-passant square as FEN writes it: set after every double pawn
    /// push, whether or not a capture is possible
    /// ([`Position::ep_square_with`] asks for one only when a capture is
    /// possible or legal).
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or pawn move (the fifty-move rule's
    /// clock).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, starting at 1 and increased after Black's move.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Polyglot Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key under which repeated positions are compared (FIDE's
    /// article 9.2): the Polyglot key, less the en-passant file where the
    /// capture it names is not legal. A Polyglot key names the file as
    /// soon as a pawn stands beside the one that advanced two squares,
    /// even a pinned pawn that may not take; such a position is the same,
    /// under the Laws, as the one a move later without the right. Equal to
    /// [`Position::key`] everywhere else, and as cheap to read where no
    /// pawn has just advanced two squares.
    ///
    /// ```
    /// use hashmate::Position;
    /// // The e5 pawn may not take on d6: the rook on h5 would check.
    /// let pinned: Position = "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2".parse()?;
    /// let without: Position = "8/8/8/K2pP2r/8/8/8/7k w - - 0 2".parse()?;
    /// assert_ne!(pinned.key(), without.key());
    /// assert_eq!(pinned.repetition_key(), without.repetition_key());
    /// // Free to take, it may: the positions differ.
    /// let free: Position = "8/8/8/3pP2r/K7/8/8/7k w - d6 0 2".parse()?;
    /// let later: Position = "8/8/8/3pP2r/K7/8/8/7k w - - 0 2".parse()?;
    /// assert_ne!(free.repetition_key(), later.repetition_key());
    /// # Ok::<(), hashmate::FenError>(())
    /// ```
    #[inline]
    pub fn repetition_key(&self) -> u64 {
        match self.ep_in_key() {
            Some(file) if !self.has_legal_en_passant() => self.key ^ POLYGLOT.en_passant(file),
            _ => self.key,
        }
    }

    /// The key of the pawns of both colours alone.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// The Polyglot keys of each colour's pieces other than pawns (the
    /// king included), indexed by [`Color::index`]: with the pawn key, the
    /// turn, castling and en-passant keys they make up [`Position::key`].
    /// Engines index correction histories by them (as Stockfish's
    /// `nonPawnKey`).
    #[inline(always)]
    pub fn non_pawn_keys(&self) -> [u64; 2] {
        self.non_pawn_keys
    }

    /// The independent second key (hash lock).
    #[inline(always)]
    pub fn lock(&self) -> u64 {
        self.lock
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `c`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// The squares of pieces of role `r`, of either colour.
    #[inline(always)]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }

    /// The squares of `c`'s pieces of role `r`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard {
        self.by_color[c.index()] & self.by_role[r.index()]
    }

    /// The square of `c`'s king (a legal position has exactly one).
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        self.pieces(c, Role::King).single()
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Is the side to move in check?
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The role of whatever stands on `sq`.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()].contains(sq))
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// All pieces of either colour attacking `sq`, given occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let rq = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let bq = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        (rook_attacks(sq, occ) & rq)
            | (bishop_attacks(sq, occ) & bq)
            | (knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
    }

    /// Is `sq` attacked by `by`, with occupancy `occ`? Leapers by their
    /// tables, sliders by empty-board rays and `between` (no slider
    /// lookup), so the move generator asks this of the king's squares and
    /// the castling path.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.by_color(by);
        if ((knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (pawn_attacks(!by, sq) & self.by_role(Role::Pawn)))
            & them
            != Bitboard::EMPTY
        {
            return true;
        }
        let q = self.by_role(Role::Queen);
        slider_reaches(
            sq,
            (self.by_role(Role::Rook) | q) & them,
            (self.by_role(Role::Bishop) | q) & them,
            occ,
        )
    }

    /// Does `side` have anything besides pawns and its king (the null-move
    /// guard against zugzwang)?
    pub fn has_non_pawn_material(&self, side: Color) -> bool {
        (self.by_color(side) - self.by_role(Role::Pawn) - self.by_role(Role::King)).any()
    }

    // --- Keys --------------------------------------------------------------

    /// Whether the Polyglot key includes the en-passant file: a pawn of the
    /// side to move stands beside the pawn that just advanced two squares.
    #[inline]
    pub(crate) fn ep_in_key(&self) -> Option<File> {
        let ep = self.ep?;
        // The pawn that moved stands one rank beyond the ep square.
        let pushed = Bitboard::from_square(ep).south_for(self.side);
        let beside = pushed.east() | pushed.west();
        if (beside & self.pieces(self.side, Role::Pawn)).any() {
            Some(ep.file())
        } else {
            None
        }
    }

    /// The Polyglot key of this position computed from scratch (what
    /// [`Position::key`] keeps up to date move by move); the first of
    /// [`Position::compute_keys`]. The same name as
    /// `hashmate_capablanca::Position::compute_key`.
    pub fn compute_key(&self) -> u64 {
        self.compute_keys().0
    }

    /// (key, pawn key, lock) computed from scratch, for tests and set-up.
    pub fn compute_keys(&self) -> (u64, u64, u64) {
        let (mut key, mut pawn, mut lock) = (0, 0, 0);
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                for sq in self.pieces(color, role) {
                    key ^= POLYGLOT.piece(piece, sq);
                    lock ^= LOCK.piece(piece, sq);
                    if role == Role::Pawn {
                        pawn ^= POLYGLOT.piece(piece, sq);
                    }
                }
            }
        }
        let (ck, cl) = self.castling.keys();
        key ^= ck;
        lock ^= cl;
        if let Some(file) = self.ep_in_key() {
            key ^= POLYGLOT.en_passant(file);
            lock ^= LOCK.en_passant(file);
        }
        if self.side == Color::White {
            key ^= POLYGLOT.turn();
            lock ^= LOCK.turn();
        }
        (key, pawn, lock)
    }

    /// The non-pawn keys ([`Position::non_pawn_keys`]) computed from
    /// scratch, for tests and set-up.
    pub fn compute_non_pawn_keys(&self) -> [u64; 2] {
        let mut keys = [0; 2];
        for color in Color::ALL {
            for role in Role::NON_PAWN {
                let piece = Piece { color, role };
                for sq in self.pieces(color, role) {
                    keys[color.index()] ^= POLYGLOT.piece(piece, sq);
                }
            }
        }
        keys
    }

    /// Recompute everything derived from the board (keys, checkers, pins).
    pub(crate) fn refresh(&mut self) {
        let (k, p, l) = self.compute_keys();
        self.key = k;
        self.pawn_key = p;
        self.lock = l;
        self.non_pawn_keys = self.compute_non_pawn_keys();
        self.update_check_info();
    }

    /// Checkers and pinned pieces of the side to move. No slider lookup:
    /// an enemy rook, bishop or queen on the king's empty-board rays checks
    /// when nothing stands between, and pins the one piece of ours that
    /// does when it is alone there.
    #[inline]
    fn update_check_info(&mut self) {
        let us = self.side;
        let them = !us;
        let king = self.king(us);
        let occ = self.occupied();
        let their = self.by_color(them);
        let rq = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let bq = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        let mut checkers = ((knight_attacks(king) & self.by_role(Role::Knight))
            | (pawn_attacks(us, king) & self.by_role(Role::Pawn)))
            & their;
        let snipers = ((rook_rays(king) & rq) | (bishop_rays(king) & bq)) & their;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = between(king, s) & occ;
            if blockers.is_empty() {
                checkers = checkers.with(s);
            } else if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        self.checkers = checkers;
        self.pinned = pinned;
    }

    // --- Making moves ------------------------------------------------------

    #[inline(always)]
    fn toggle(&mut self, color: Color, role: Role, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_role[role.index()] ^= bb;
        self.by_color[color.index()] ^= bb;
        let piece = Piece { color, role };
        let k = POLYGLOT.piece(piece, sq);
        self.key ^= k;
        self.lock ^= LOCK.piece(piece, sq);
        if role == Role::Pawn {
            self.pawn_key ^= k;
        } else {
            self.non_pawn_keys[color.index()] ^= k;
        }
    }

    /// Play `mv` if it is legal here; otherwise leave the position
    /// unchanged and say so. Keys are updated by XOR.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when `mv` is not a legal move in this position.
    ///
    /// ```
    /// use hashmate::{Move, Position, Square};
    /// let mut pos = Position::startpos();
    /// let bad = Move::new(Square::E2, Square::E5, None);
    /// assert!(pos.try_play(bad).is_err());
    /// assert_eq!(pos, Position::startpos());
    /// let e4 = Move::new(Square::E2, Square::E4, None);
    /// pos.try_play(e4)?;
    /// assert_eq!(pos.key(), 0x823c9b50fd114196); // Polyglot's published key
    /// # Ok::<(), hashmate::IllegalMoveError>(())
    /// ```
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if self.is_legal(mv) {
            self.play_unchecked_with(DefaultSliders::default(), mv);
            Ok(())
        } else {
            Err(IllegalMoveError::new(mv))
        }
    }

    /// Play `mv` without checking it: the fast path for moves that come
    /// from [`Position::legal_moves`] (or were checked with
    /// [`Position::is_legal`]). Debug builds assert legality; in release
    /// builds an illegal move leaves the position in an unspecified (but
    /// memory-safe) state.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in {}", self.fen());
        self.play_unchecked_with(DefaultSliders::default(), mv);
    }

    /// [`Position::play_unchecked`], generic over a slider backend so that
    /// code written for one backend (perft, say) plays its moves the same
    /// way. Making a move needs no slider lookup (checkers and pins come
    /// from empty-board rays and [`between`]), so every backend plays
    /// identically.
    pub fn play_unchecked_with<S: Sliders>(&mut self, _backend: S, mv: Move) {
        let us = self.side;
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        let Some(role) = self.role_at(from) else {
            // Nothing to move: an illegal move that the caller promised was
            // legal. Leave the position as it is.
            return;
        };

        // Take out everything that depends on the old state.
        if let Some(file) = self.ep_in_key() {
            self.key ^= POLYGLOT.en_passant(file);
            self.lock ^= LOCK.en_passant(file);
        }
        let old_ep = self.ep.take();
        let old_castling = self.castling;

        self.halfmove = self.halfmove.saturating_add(1);
        if let Some(side) = mv.castling_side() {
            // Castling, king takes own rook.
            let rank = from.rank();
            self.toggle(us, Role::King, from);
            self.toggle(us, Role::Rook, to);
            self.toggle(
                us,
                Role::King,
                Square::from_coords(side.king_to_file(), rank),
            );
            self.toggle(
                us,
                Role::Rook,
                Square::from_coords(side.rook_to_file(), rank),
            );
            self.castling.set(us, CastlingSide::Short, None);
            self.castling.set(us, CastlingSide::Long, None);
        } else {
            if let Some(captured) = self.role_at(to) {
                self.toggle(them, captured, to);
                self.halfmove = 0;
                self.castling.discard_rook(to);
            }
            self.toggle(us, role, from);
            self.toggle(us, mv.promotion().unwrap_or(role), to);
            match role {
                Role::Pawn => {
                    self.halfmove = 0;
                    if Some(to) == old_ep {
                        let victim = Bitboard::from_square(to).south_for(us).single();
                        self.toggle(them, Role::Pawn, victim);
                    } else if (from.index() ^ to.index()) == 16 {
                        self.ep = Square::new(((from.index() + to.index()) / 2) as u8);
                    }
                }
                Role::King => {
                    self.castling.set(us, CastlingSide::Short, None);
                    self.castling.set(us, CastlingSide::Long, None);
                }
                Role::Rook => self.castling.discard_rook(from),
                _ => {}
            }
        }

        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.key ^= POLYGLOT.turn();
        self.lock ^= LOCK.turn();
        // Most moves leave the rights alone; only then touch their keys.
        if self.castling != old_castling {
            let (ok, ol) = old_castling.keys();
            let (nk, nl) = self.castling.keys();
            self.key ^= ok ^ nk;
            self.lock ^= ol ^ nl;
        }
        if let Some(file) = self.ep_in_key() {
            self.key ^= POLYGLOT.en_passant(file);
            self.lock ^= LOCK.en_passant(file);
        }
        self.update_check_info();
    }

    /// Pass the move (a "null move", for null-move pruning): the side to
    /// move changes and the en-passant right lapses.
    ///
    /// # Errors
    /// [`NullMoveInCheck`] when the side to move is in check: passing would
    /// leave its king capturable. The position is unchanged.
    pub fn play_null(&mut self) -> Result<(), NullMoveInCheck> {
        if self.is_check() {
            return Err(NullMoveInCheck);
        }
        if let Some(file) = self.ep_in_key() {
            self.key ^= POLYGLOT.en_passant(file);
            self.lock ^= LOCK.en_passant(file);
        }
        self.ep = None;
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = !self.side;
        self.key ^= POLYGLOT.turn();
        self.lock ^= LOCK.turn();
        self.update_check_info();
        Ok(())
    }

    // --- Legality, checks and the end of the game ----------------------------

    /// Is `mv` a legal move in this position? Any 16-bit move may be asked
    /// about (from a transposition table, a book, a user).
    ///
    /// ```
    /// use hashmate::{Move, Position, Square};
    /// let pos = Position::startpos();
    /// assert!(pos.is_legal(Move::new(Square::G1, Square::F3, None)));
    /// assert!(!pos.is_legal(Move::new(Square::G1, Square::G3, None)));
    /// assert!(!pos.is_legal(Move::NULL));
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_with(DefaultSliders::default(), mv)
    }

    /// Does the legal move `mv` give check? (For an illegal move the
    /// answer is meaningless, but never a panic.)
    ///
    /// ```
    /// use hashmate::Position;
    /// let pos: Position = "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1".parse()?;
    /// assert!(pos.gives_check(pos.parse_uci("a1a8")?));
    /// assert!(!pos.gives_check(pos.parse_uci("a1a7")?));
    /// assert!(pos.gives_check(pos.parse_uci("e1c1")?)); // the castled rook checks
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let Some(role) = self.role_at(from) else {
            return false;
        };
        let their_king = self.king(!us);
        let mut occ = self.occupied();
        let mut ours: [Bitboard; 6] = core::array::from_fn(|r| self.by_role[r] & self.by_color(us));
        if let Some(side) = mv.castling_side() {
            let rank = from.rank();
            let king_to = Square::from_coords(side.king_to_file(), rank);
            let rook_to = Square::from_coords(side.rook_to_file(), rank);
            occ = occ.without(from).without(to).with(king_to).with(rook_to);
            ours[Role::Rook.index()] = ours[Role::Rook.index()].without(to).with(rook_to);
        } else {
            let lands_as = mv.promotion().unwrap_or(role);
            occ = occ.without(from).with(to);
            ours[role.index()] = ours[role.index()].without(from);
            ours[lands_as.index()] = ours[lands_as.index()].with(to);
            if self.is_en_passant(mv) {
                occ = occ - Bitboard::from_square(to).south_for(us);
            }
        }
        if ((knight_attacks(their_king) & ours[Role::Knight.index()])
            | (pawn_attacks(!us, their_king) & ours[Role::Pawn.index()]))
        .any()
        {
            return true;
        }
        let rq = ours[Role::Rook.index()] | ours[Role::Queen.index()];
        let bq = ours[Role::Bishop.index()] | ours[Role::Queen.index()];
        slider_reaches(their_king, rq, bq, occ)
    }

    /// This position drawn as an 8×8 diagram, White at the bottom, with
    /// its FEN and Polyglot key below (for consoles; `Display` prints the
    /// FEN alone).
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        s.push_str(" +---+---+---+---+---+---+---+---+\n");
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = self
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or(' ', |p| p.char());
                s.push_str(" | ");
                s.push(c);
            }
            s.push_str(" | ");
            s.push(rank.char());
            s.push_str("\n +---+---+---+---+---+---+---+---+\n");
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!("Fen: {}\nKey: {:016X}", self.fen(), self.key()));
        s
    }

    /// The castling mode in which this position's castling moves must be
    /// written ([`CastlingMode::detect`]).
    pub fn castling_mode(&self) -> CastlingMode {
        CastlingMode::detect(self)
    }

    // --- Validation --------------------------------------------------------
}

impl Bitboard {
    /// One rank towards `color`'s own side (south for White).
    #[inline(always)]
    pub const fn south_for(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.south(),
            Color::Black => self.north(),
        }
    }

    /// One rank towards `color`'s opponent (north for White).
    #[inline(always)]
    pub const fn north_for(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    mv: Move,
}

impl IllegalMoveError {
    pub(crate) fn new(mv: Move) -> IllegalMoveError {
        IllegalMoveError { mv }
    }

    /// The move that was refused.
    pub fn mv(&self) -> Move {
        self.mv
    }
}

impl core::fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?} is not a legal move in this position", self.mv)
    }
}

impl core::error::Error for IllegalMoveError {}

/// [`Position::play_null`] while in check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NullMoveInCheck;

impl core::fmt::Display for NullMoveInCheck {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("cannot pass while in check")
    }
}

impl core::error::Error for NullMoveInCheck {}
