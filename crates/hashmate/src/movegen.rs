//! Strictly legal move generation.
//!
//! Moves are generated per piece as a set of destinations ([`PieceMoves`]),
//! already restricted to legal ones: the king avoids attacked squares
//! (computed with the king lifted off the board, so it cannot hide behind
//! itself), a double check leaves only king moves, a single check restricts
//! the others to capturing or blocking the checker, pinned pieces stay on
//! their pin line, and en passant is checked by replaying the capture on the
//! occupancy (the captured pawn may have shielded the king along a rank).
//! Castling follows the Chess960 rules, which include the standard ones.
//!
//! Per-piece sets let perft count the leaves of the last ply by popcount
//! without ever writing a move down ("bulk counting").
//!
//! Everything is generic over the slider backend, so that the whole-program
//! effect of each attack method can be measured (see
//! [`perft_with`](crate::perft::perft_with)).

use crate::attacks::DefaultSliders;
use crate::attacks::{between, king_attacks, knight_attacks, line, pawn_attacks, Sliders};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::position::{CastlingSide, Position};
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::{Color, Rank, Square};

/// The legal moves of one piece: its role, square and destinations.
/// Castling appears as a king move onto its own rook, with `castling` set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The moving piece.
    pub role: Role,
    /// Its square.
    pub from: Square,
    /// Its destinations (the castling rook's square for castling).
    pub to: Bitboard,
    /// Whether these are castling moves.
    pub castling: bool,
}

impl PieceMoves {
    /// Does every destination promote? (A pawn's destinations all lie on
    /// one rank or on two non-promoting ranks, so one test says it.)
    #[inline(always)]
    pub fn promotes(&self) -> bool {
        const BACK_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);
        self.role == Role::Pawn && (self.to & BACK_RANKS).any()
    }

    /// Number of moves, counting each promotion piece separately.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.to.count() as usize * if self.promotes() { 4 } else { 1 }
    }

    /// No destination?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// Expand into moves.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        let promotes = self.promotes();
        for to in self.to {
            if self.castling {
                f(Move::castle(self.from, to));
            } else if promotes {
                for r in Role::PROMOTIONS {
                    f(Move::new(self.from, to, Some(r)));
                }
            } else {
                f(Move::new(self.from, to, None));
            }
        }
    }
}

/// Which moves to generate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenMode {
    /// Every legal move.
    All,
    /// Captures (en passant included) and promotions, capturing or not.
    Noisy,
    /// Everything else: quiet moves, including castling.
    Quiet,
}

/// Single and double pushes of the pawns `pawns` of `us`, as two sets.
#[inline(always)]
fn pawn_pushes(us: Color, pawns: Bitboard, occ: Bitboard) -> (Bitboard, Bitboard) {
    let third = Bitboard::rank(Rank::Third.relative_to(us));
    let one = pawns.north_for(us) - occ;
    let two = (one & third).north_for(us) - occ;
    (one, two)
}

/// Pushes and captures of the pawn of `us` on `from` (no en passant, no
/// pins, no checks).
#[inline(always)]
fn pawn_destinations(us: Color, from: Square, occ: Bitboard, their: Bitboard) -> Bitboard {
    let (one, two) = pawn_pushes(us, Bitboard::from_square(from), occ);
    one | two | (pawn_attacks(us, from) & their)
}

/// What every generator reads first.
struct Frame {
    us: Color,
    occ: Bitboard,
    own: Bitboard,
    their: Bitboard,
    king: Square,
}

impl Position {
    #[inline(always)]
    fn frame(&self) -> Frame {
        let us = self.side_to_move();
        Frame {
            us,
            occ: self.occupied(),
            own: self.by_color(us),
            their: self.by_color(!us),
            king: self.king(us),
        }
    }

    /// The squares a non-king move must reach: anywhere when not in check,
    /// the checker or a square between it and the king in single check,
    /// `None` in double check (only the king may move).
    #[inline(always)]
    fn check_target(&self, king: Square) -> Option<Bitboard> {
        let checkers = self.checkers();
        if checkers.more_than_one() {
            return None;
        }
        Some(match checkers.first() {
            Some(c) => between(king, c).with(c),
            None => Bitboard::FULL,
        })
    }

    /// [`Position::is_legal`] with slider backend `s`: the destinations of
    /// the one piece on the move's origin, computed as the generator
    /// computes them, without generating the other pieces' moves.
    pub fn is_legal_with<S: Sliders>(&self, s: S, mv: Move) -> bool {
        let Frame {
            us,
            occ,
            own,
            their,
            king,
        } = self.frame();
        let (from, to) = (mv.from(), mv.to());
        if !own.contains(from) {
            return false;
        }
        let Some(role) = self.role_at(from) else {
            return false;
        };
        if mv.is_castling() {
            let mut found = false;
            if role == Role::King && !self.is_check() {
                self.castling_moves(&mut |pm: PieceMoves| {
                    found = pm.to.contains(to);
                    found
                });
            }
            return found;
        }
        let last = Bitboard::rank(Rank::Eighth.relative_to(us));
        let promotes = role == Role::Pawn && last.contains(to);
        if promotes != mv.promotion().is_some() {
            return false;
        }
        if role == Role::King {
            return self
                .unattacked(s, !us, king_attacks(king) & !own)
                .contains(to);
        }
        let Some(target) = self.check_target(king) else {
            return false;
        };
        let mut dest = match role {
            Role::Knight => knight_attacks(from),
            Role::Bishop => s.bishop(from, occ),
            Role::Rook => s.rook(from, occ),
            Role::Queen => s.queen(from, occ),
            _ => {
                if self.is_en_passant(mv) {
                    let mut found = false;
                    self.en_passant(s, &mut |pm: PieceMoves| {
                        found = pm.from == from;
                        found
                    });
                    return found;
                }
                pawn_destinations(us, from, occ, their)
            }
        } & !own
            & target;
        if self.pinned().contains(from) {
            dest &= line(king, from);
        }
        dest.contains(to)
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        self.moves(GenMode::All)
    }

    /// Legal captures and promotions (for quiescence search).
    pub fn noisy_moves(&self) -> MoveList {
        self.moves(GenMode::Noisy)
    }

    /// Legal quiet moves: not captures, not promotions.
    pub fn quiet_moves(&self) -> MoveList {
        self.moves(GenMode::Quiet)
    }

    /// The legal moves of `mode`.
    pub fn moves(&self, mode: GenMode) -> MoveList {
        let mut list = MoveList::new();
        self.append_moves(mode, &mut list);
        list
    }

    /// Append the legal moves of `mode` to `list`, which keeps what it
    /// held: a staged move picker generates its captures and, later, its
    /// quiet moves into one buffer this way, without a second list or a
    /// copy. (A position has at most 218 legal moves, so a list that held
    /// only moves of this position never overflows.)
    ///
    /// ```
    /// use hashmate::{movegen::GenMode, MoveList, Position};
    /// let pos = Position::startpos();
    /// let mut list = MoveList::new();
    /// pos.append_moves(GenMode::Noisy, &mut list);
    /// assert!(list.is_empty());
    /// pos.append_moves(GenMode::Quiet, &mut list);
    /// assert_eq!(list.len(), 20);
    /// ```
    pub fn append_moves(&self, mode: GenMode, list: &mut MoveList) {
        self.generate(DefaultSliders::default(), mode, |pm| {
            pm.for_each(|m| list.push(m));
            false
        });
    }

    /// Every square `by` attacks on the board as it stands (its pieces'
    /// own squares included where a friendly piece defends them) — the
    /// "threats" a side faces, as move ordering and evaluation read them.
    ///
    /// ```
    /// use hashmate::{Color, Position, Square};
    /// let pos = Position::startpos();
    /// let black = pos.attacked_by(Color::Black);
    /// assert!(black.contains(Square::A6)); // by the b7 pawn and the b8 knight
    /// assert!(!black.contains(Square::A4));
    /// assert_eq!(black.count(), 22); // ranks 6 and 7, and b8–g8
    /// ```
    pub fn attacked_by(&self, by: Color) -> Bitboard {
        self.attack_map(DefaultSliders::default(), by, self.occupied())
    }

    /// Whether the side to move has any legal move (mate/stalemate test).
    pub fn has_legal_moves(&self) -> bool {
        let mut any = false;
        self.generate(DefaultSliders::default(), GenMode::All, |pm| {
            any = !pm.is_empty();
            any
        });
        any
    }

    /// The squares of `targets` that `by` does not attack, with our king
    /// lifted off the board (so it cannot hide behind itself). With at most
    /// one enemy slider one attack map is cheapest; otherwise testing each
    /// target square along empty-board rays is (callgrind instruction
    /// counts of perft on the five standard positions: a threshold of two
    /// sliders costs 1–2 % more on four of them, zero sliders 13 % more on
    /// the rook ending).
    #[inline(always)]
    fn unattacked<S: Sliders>(&self, s: S, by: Color, targets: Bitboard) -> Bitboard {
        let king = self.king(!by);
        let occ = self.occupied().without(king);
        let sliders =
            (self.by_role(Role::Bishop) | self.by_role(Role::Rook) | self.by_role(Role::Queen))
                & self.by_color(by);
        if !sliders.more_than_one() {
            return targets - self.attack_map(s, by, occ);
        }
        let mut out = Bitboard::EMPTY;
        for to in targets {
            if !self.is_attacked(to, by, occ) {
                out = out.with(to);
            }
        }
        out
    }

    /// Every square attacked by `by`, with occupancy `occ`.
    #[inline(always)]
    fn attack_map<S: Sliders>(&self, s: S, by: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color(by);
        let pawns = self.pieces(by, Role::Pawn).north_for(by);
        let mut att = pawns.east() | pawns.west();
        for sq in self.by_role(Role::Knight) & them {
            att |= knight_attacks(sq);
        }
        att |= king_attacks(self.king(by));
        let q = self.by_role(Role::Queen);
        for sq in (self.by_role(Role::Bishop) | q) & them {
            att |= s.bishop(sq, occ);
        }
        for sq in (self.by_role(Role::Rook) | q) & them {
            att |= s.rook(sq, occ);
        }
        att
    }

    /// Generate the legal moves of `mode` piece by piece, calling `emit` for
    /// each piece with at least one move; `emit` returns `true` to stop.
    #[inline]
    pub fn generate<S: Sliders>(
        &self,
        s: S,
        mode: GenMode,
        mut emit: impl FnMut(PieceMoves) -> bool,
    ) {
        let Frame {
            us,
            occ,
            own,
            their,
            king,
        } = self.frame();
        let mode_mask = match mode {
            GenMode::All => !own,
            GenMode::Noisy => their,
            GenMode::Quiet => !occ,
        };

        // King moves: away from every enemy attack, computed with the king
        // lifted off the board.
        let kto = self.unattacked(s, !us, king_attacks(king) & mode_mask);
        if kto.any()
            && emit(PieceMoves {
                role: Role::King,
                from: king,
                to: kto,
                castling: false,
            })
        {
            return;
        }

        let Some(target) = self.check_target(king) else {
            return;
        };
        let checkers = self.checkers();
        let pinned = self.pinned();
        let piece_mask = mode_mask & target;

        macro_rules! pieces {
            ($role:expr, $att:expr) => {
                for from in self.pieces(us, $role) {
                    let mut to = $att(from) & piece_mask;
                    if pinned.contains(from) {
                        to &= line(king, from);
                    }
                    if to.any()
                        && emit(PieceMoves {
                            role: $role,
                            from,
                            to,
                            castling: false,
                        })
                    {
                        return;
                    }
                }
            };
        }
        // A pinned knight's attacks never lie on its pin line, so the pin
        // mask leaves it no move.
        pieces!(Role::Knight, knight_attacks);
        pieces!(Role::Bishop, |f| s.bishop(f, occ));
        pieces!(Role::Rook, |f| s.rook(f, occ));
        pieces!(Role::Queen, |f| s.queen(f, occ));

        // Pawns.
        let last = Bitboard::rank(Rank::Eighth.relative_to(us));
        let pawn_mask = match mode {
            GenMode::All => Bitboard::FULL,
            GenMode::Noisy => their | last,
            GenMode::Quiet => !their & !last,
        };
        for from in self.pieces(us, Role::Pawn) {
            let mut to = pawn_destinations(us, from, occ, their) & target & pawn_mask;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            if to.any()
                && emit(PieceMoves {
                    role: Role::Pawn,
                    from,
                    to,
                    castling: false,
                })
            {
                return;
            }
        }
        if mode != GenMode::Quiet && self.en_passant(s, &mut emit) {
            return;
        }
        if mode != GenMode::Noisy && checkers.is_empty() {
            self.castling_moves(&mut emit);
        }
    }

    /// Can the side to move take en passant, legally? Without generating
    /// any other move.
    pub(crate) fn has_legal_en_passant(&self) -> bool {
        self.en_passant(DefaultSliders::default(), &mut |_| true)
    }

    /// Legal en-passant captures; `true` if `emit` asked to stop.
    #[inline]
    fn en_passant<S: Sliders>(&self, s: S, emit: &mut impl FnMut(PieceMoves) -> bool) -> bool {
        let Some(ep) = self.ep_square() else {
            return false;
        };
        let us = self.side_to_move();
        let their = self.by_color(!us);
        let occ = self.occupied();
        let king = self.king(us);
        let victim = Bitboard::from_square(ep).south_for(us);
        for from in pawn_attacks(!us, ep) & self.pieces(us, Role::Pawn) {
            // Replay the capture on the occupancy and look at the king.
            let after = (occ - Bitboard::from_square(from) - victim).with(ep);
            let q = self.by_role(Role::Queen);
            let rq = (self.by_role(Role::Rook) | q) & their;
            let bq = (self.by_role(Role::Bishop) | q) & their;
            let others = (knight_attacks(king) & self.by_role(Role::Knight)
                | pawn_attacks(us, king) & self.by_role(Role::Pawn))
                & their
                & !victim;
            if (s.rook(king, after) & rq).is_empty()
                && (s.bishop(king, after) & bq).is_empty()
                && others.is_empty()
                && emit(PieceMoves {
                    role: Role::Pawn,
                    from,
                    to: Bitboard::from_square(ep),
                    castling: false,
                })
            {
                return true;
            }
        }
        false
    }

    /// Legal castling moves (king takes own rook), Chess960 rules; the
    /// caller has checked that the king is not in check.
    #[inline]
    fn castling_moves(&self, emit: &mut impl FnMut(PieceMoves) -> bool) {
        let us = self.side_to_move();
        let occ = self.occupied();
        let king = self.king(us);
        for side in CastlingSide::ALL {
            let Some(rook) = self.castling().rook(us, side) else {
                continue;
            };
            let rank = king.rank();
            let king_to = Square::from_coords(side.king_to_file(), rank);
            let rook_to = Square::from_coords(side.rook_to_file(), rank);
            let without = occ.without(king).without(rook);
            let path = between(king, king_to).with(king_to) | between(rook, rook_to).with(rook_to);
            if (path & without).any() {
                continue;
            }
            let king_path = between(king, king_to).with(king_to);
            if king_path
                .iter()
                .any(|sq| self.is_attacked(sq, !us, without))
            {
                continue;
            }
            if emit(PieceMoves {
                role: Role::King,
                from: king,
                to: Bitboard::from_square(rook),
                castling: true,
            }) {
                return;
            }
        }
    }

    /// Number of legal moves, counted without listing them: pieces by
    /// popcount of their destination sets, unpinned pawns set-wise (a shift
    /// per direction for all of them at once).
    #[inline]
    pub fn count_moves_with<S: Sliders>(&self, s: S) -> u64 {
        let Frame {
            us,
            occ,
            own,
            their,
            king,
        } = self.frame();
        let mut n = self.unattacked(s, !us, king_attacks(king) - own).count() as u64;
        let Some(target) = self.check_target(king) else {
            return n;
        };
        let checkers = self.checkers();
        let pinned = self.pinned();
        let mask = !own & target;
        for from in self.pieces(us, Role::Knight) - pinned {
            n += (knight_attacks(from) & mask).count() as u64;
        }
        let q = self.pieces(us, Role::Queen);
        for from in self.pieces(us, Role::Bishop) | q {
            let mut to = s.bishop(from, occ) & mask;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            n += to.count() as u64;
        }
        for from in self.pieces(us, Role::Rook) | q {
            let mut to = s.rook(from, occ) & mask;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            n += to.count() as u64;
        }

        let pawns = self.pieces(us, Role::Pawn);
        let last = Bitboard::rank(Rank::Eighth.relative_to(us));
        let count = |b: Bitboard| (b - last).count() as u64 + 4 * (b & last).count() as u64;
        let free = pawns - pinned;
        let (one, two) = pawn_pushes(us, free, occ);
        let fwd = free.north_for(us);
        n += count(one & target) + (two & target).count() as u64;
        n += count(fwd.east() & their & target) + count(fwd.west() & their & target);
        for from in pawns & pinned {
            n += count(pawn_destinations(us, from, occ, their) & target & line(king, from));
        }
        let mut special = |_: PieceMoves| {
            n += 1;
            false
        };
        self.en_passant(s, &mut special);
        if checkers.is_empty() {
            self.castling_moves(&mut special);
        }
        n
    }
}
