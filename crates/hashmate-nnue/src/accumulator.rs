//! Accumulators: a perspective's sum of the feature transformer's bias
//! and the columns of its active features, kept up to date move by move.

use crate::features::{feature, for_each_input, INPUTS};
use crate::network::Network;
use crate::simd;
use hashmate::{Bitboard, Color, Position, Role};

/// Add a feature transformer column to one perspective's accumulator,
/// wrapping as the quantised arithmetic does everywhere else.
#[inline]
pub(crate) fn add_column(acc: &mut [i16], col: &[i16]) {
    for (a, &x) in acc.iter_mut().zip(col) {
        *a = a.wrapping_add(x);
    }
}

/// Subtract a feature transformer column from one perspective's
/// accumulator (the inverse of [`add_column`]).
#[inline]
pub(crate) fn sub_column(acc: &mut [i16], col: &[i16]) {
    for (a, &x) in acc.iter_mut().zip(col) {
        *a = a.wrapping_sub(x);
    }
}

/// The two perspectives' accumulators of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// White's perspective.
    pub white: Vec<i16>,
    /// Black's perspective.
    pub black: Vec<i16>,
}

impl Accumulator {
    /// Add feature `(w, b)` (White's and Black's index) of `net`.
    #[inline]
    pub fn add(&mut self, net: &Network, w: usize, b: usize) {
        add_column(&mut self.white, net.column(w));
        add_column(&mut self.black, net.column(b));
    }

    /// Remove feature `(w, b)` of `net`.
    #[inline]
    pub fn sub(&mut self, net: &Network, w: usize, b: usize) {
        sub_column(&mut self.white, net.column(w));
        sub_column(&mut self.black, net.column(b));
    }
}

/// The accumulators of every ply of a search, updated move by move: the
/// child's are the parent's plus the columns of the features the move
/// adds and minus those it removes (two for a quiet move, three for a
/// capture or a promotion, four for castling), found by comparing the two
/// positions' piece sets, so that every kind of move (en passant,
/// castling in both notations, promotions) is handled by one rule.
/// Allocated once; nothing is allocated per move.
///
/// With king buckets, a perspective whose king moves to another bucket or
/// wing is rebuilt from an *accumulator cache*: for each perspective,
/// bucket and wing, the accumulator last built there and the pieces it
/// counts, so that a rebuild adds and subtracts only the pieces that
/// differ since (a few, where a refresh adds all of them).
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    hidden: usize,
    white: Vec<i16>,
    black: Vec<i16>,
    /// King buckets: per slot (perspective, bucket, wing) an accumulator,
    /// `hidden` values each; empty for a plain net.
    cache: Vec<i16>,
    /// The pieces (colour × role) each cached accumulator counts.
    cache_pieces: Vec<[Bitboard; 12]>,
}

impl AccumulatorStack {
    /// Room for plies `0..plies` of `net`'s accumulators.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn new(
        net: &Network,
        plies: usize,
    ) -> Result<AccumulatorStack, std::collections::TryReserveError> {
        let n = net.hidden * plies.max(1);
        let mut white = Vec::new();
        white.try_reserve_exact(n)?;
        white.resize(n, 0);
        let mut black = Vec::new();
        black.try_reserve_exact(n)?;
        black.resize(n, 0);
        // Each slot starts as the biases with no piece counted.
        let slots = if net.kings.is_mirrored() {
            2 * 2 * net.kings.count()
        } else {
            0
        };
        let mut cache = Vec::new();
        cache.try_reserve_exact(slots * net.hidden)?;
        for _ in 0..slots {
            cache.extend_from_slice(&net.ft_bias);
        }
        let mut cache_pieces = Vec::new();
        cache_pieces.try_reserve_exact(slots)?;
        cache_pieces.resize(slots, [Bitboard::EMPTY; 12]);
        Ok(AccumulatorStack {
            hidden: net.hidden,
            white,
            black,
            cache,
            cache_pieces,
        })
    }

    /// Plies the stack holds.
    pub fn plies(&self) -> usize {
        self.white.len() / self.hidden
    }

    /// Build ply `ply`'s accumulators for `pos` from scratch.
    pub fn refresh(&mut self, net: &Network, ply: usize, pos: &Position) {
        let h = self.hidden;
        let white = &mut self.white[ply * h..][..h];
        let black = &mut self.black[ply * h..][..h];
        white.copy_from_slice(&net.ft_bias);
        black.copy_from_slice(&net.ft_bias);
        for_each_input(pos, &net.kings, |w, b| {
            add_column(white, net.column(w));
            add_column(black, net.column(b));
        });
    }

    /// Build one perspective's accumulator of ply `ply` for `pos`, whose
    /// king changed bucket or wing (the other perspective is updated as
    /// usual), from the accumulator cache: the slot of that bucket and wing
    /// is brought to `pos`'s pieces by the columns of the pieces that
    /// differ, and copied. Kept out of line: it is the rare path, and
    /// profilers count its calls.
    #[inline(never)]
    fn refresh_side(&mut self, net: &Network, ply: usize, pos: &Position, side: Color) {
        let h = self.hidden;
        let (offset, flip) = net.kings.transform_of(pos, side);
        let wings = 2 * net.kings.count();
        let slot = usize::from(side == Color::Black) * wings
            + (offset / INPUTS) * 2
            + usize::from(flip != 0);
        let cached = &mut self.cache[slot * h..][..h];
        let counted = &mut self.cache_pieces[slot];
        let mut i = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                let (before, now) = (counted[i], pos.pieces(color, role));
                let input = |sq| offset + (feature(side, color, role, sq) ^ flip);
                for sq in (now - before).iter() {
                    add_column(cached, net.column(input(sq)));
                }
                for sq in (before - now).iter() {
                    sub_column(cached, net.column(input(sq)));
                }
                counted[i] = now;
                i += 1;
            }
        }
        let acc = match side {
            Color::White => &mut self.white[ply * h..][..h],
            Color::Black => &mut self.black[ply * h..][..h],
        };
        acc.copy_from_slice(cached);
    }

    /// Ply `ply + 1`'s accumulators for `child`, a position one move (or a
    /// null move) after `parent`, whose accumulators are at `ply`: one pass
    /// over each perspective, adding and subtracting the changed features'
    /// columns to the parent's values. (Positions further apart than one
    /// move are refreshed instead, and so is a perspective whose own king
    /// moved to another king bucket or across the mirror line.)
    #[inline]
    pub fn update(&mut self, net: &Network, ply: usize, parent: &Position, child: &Position) {
        // A move adds at most two features (castling) and removes at most
        // two (a capture, castling, en passant).
        const MOST: usize = 2;
        let kings = &net.kings;
        // Every layout but the plain one mirrors, so a plain net skips
        // the kings' lookups; a perspective's transform can only change
        // when its own king moved.
        let ((tw, tb), stale) = if kings.is_mirrored() {
            let (tw, tb) = (
                kings.transform_of(child, Color::White),
                kings.transform_of(child, Color::Black),
            );
            let moved = |c| parent.king(c) != child.king(c);
            let stale = [
                moved(Color::White) && tw != kings.transform_of(parent, Color::White),
                moved(Color::Black) && tb != kings.transform_of(parent, Color::Black),
            ];
            ((tw, tb), stale)
        } else {
            (((0, 0), (0, 0)), [false; 2])
        };
        // The squares whose piece changed: the colour and role sets
        // together say what stands on a square, so a square is in none of
        // their differences exactly when it holds the same piece (or
        // none) in both positions. A quiet move or a capture changes two
        // squares, en passant three, castling four.
        let mut changed = (parent.by_color(Color::White) ^ child.by_color(Color::White))
            | (parent.by_color(Color::Black) ^ child.by_color(Color::Black));
        for role in Role::ALL {
            changed |= parent.by_role(role) ^ child.by_role(role);
        }
        let input = |color, role, sq| {
            (
                tw.0 + (feature(Color::White, color, role, sq) ^ tw.1),
                tb.0 + (feature(Color::Black, color, role, sq) ^ tb.1),
            )
        };
        let (mut add, mut sub) = ([(0, 0); MOST], [(0, 0); MOST]);
        let (mut adds, mut subs) = (0, 0);
        for sq in changed.iter() {
            if let Some(p) = parent.piece_at(sq) {
                if subs == MOST {
                    self.refresh(net, ply + 1, child);
                    return;
                }
                sub[subs] = input(p.color, p.role, sq);
                subs += 1;
            }
            if let Some(p) = child.piece_at(sq) {
                if adds == MOST {
                    self.refresh(net, ply + 1, child);
                    return;
                }
                add[adds] = input(p.color, p.role, sq);
                adds += 1;
            }
        }
        let h = self.hidden;
        for (side, color) in Color::ALL.into_iter().enumerate() {
            if stale[side] {
                self.refresh_side(net, ply + 1, child, color);
                continue;
            }
            let acc = if side == 0 {
                &mut self.white
            } else {
                &mut self.black
            };
            let (from, to) = acc.split_at_mut((ply + 1) * h);
            let pick = |&(w, b): &(usize, usize)| net.column(if side == 0 { w } else { b });
            let added: [&[i16]; MOST] = [pick(&add[0]), pick(&add[1])];
            let removed: [&[i16]; MOST] = [pick(&sub[0]), pick(&sub[1])];
            simd::update(
                net.kernel,
                &mut to[..h],
                &from[ply * h..],
                &added[..adds],
                &removed[..subs],
            );
        }
    }

    /// The evaluation of `pos`, whose accumulators are at `ply`, for its
    /// side to move, in centipawns.
    #[inline]
    pub fn evaluate(&self, net: &Network, ply: usize, pos: &Position) -> i32 {
        let h = self.hidden;
        let white = &self.white[ply * h..][..h];
        let black = &self.black[ply * h..][..h];
        let bucket = net.bucket_of(pos);
        match pos.side_to_move() {
            Color::White => net.output(white, black, bucket),
            Color::Black => net.output(black, white, bucket),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{for_each_feature, KingBuckets};
    use crate::simd::Kernel;
    use crate::testutil::{random_kings, random_net, FENS};

    /// Updating the accumulators by the features a move changes gives the
    /// same accumulators as building them again, over every legal move.
    #[test]
    fn incremental_updates_match_a_refresh() {
        let net = random_net(24, 11);
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let before = net.refresh(&pos);
            for &mv in pos.legal_moves().iter() {
                let mut after = pos.clone();
                after.play_unchecked(mv);
                // The difference of the feature sets, applied to `before`.
                let set = |p: &Position| {
                    let mut v = Vec::new();
                    for_each_feature(p, |w, b| v.push((w, b)));
                    v
                };
                let (old, new) = (set(&pos), set(&after));
                let mut acc = before.clone();
                for f in old.iter().filter(|f| !new.contains(f)) {
                    acc.sub(&net, f.0, f.1);
                }
                for f in new.iter().filter(|f| !old.contains(f)) {
                    acc.add(&net, f.0, f.1);
                }
                assert_eq!(acc, net.refresh(&after), "{fen} {mv}");
            }
        }
    }

    /// Along random games, the stack's move-by-move accumulators give the
    /// evaluation of a refresh at every ply, for every kind of move.
    #[test]
    fn the_stack_follows_random_games() {
        // 16 and 256 neurons take the AVX2 kernels where the processor has
        // them, 24 the scalar ones; `scalar` is the same net forced to the
        // scalar kernels, and every ply must agree with it and with a
        // refresh. The king-bucketed nets refresh one perspective when its
        // king changes bucket or wing, and update the other.
        let plain = KingBuckets::PLAIN;
        let k1 = KingBuckets::preset(1).unwrap();
        let k4 = KingBuckets::preset(4).unwrap();
        let k16 = KingBuckets::preset(16).unwrap();
        for (kings, hidden, buckets, seed) in [
            (plain, 16, 1, 9),
            (plain, 24, 1, 10),
            (plain, 256, 1, 11),
            (plain, 32, 8, 12),
            (k1, 16, 1, 13),
            (k4, 32, 8, 14),
            (k16, 24, 8, 15),
        ] {
            let net = random_kings(kings, hidden, buckets, seed);
            let mut scalar = net.clone();
            scalar.kernel = Kernel::Scalar;
            let mut stack = AccumulatorStack::new(&net, 200).unwrap();
            let mut plain = AccumulatorStack::new(&net, 200).unwrap();
            let mut seed = 12345u64;
            for fen in FENS {
                for _ in 0..10 {
                    let mut pos = Position::from_fen(fen).unwrap();
                    stack.refresh(&net, 0, &pos);
                    plain.refresh(&scalar, 0, &pos);
                    for ply in 0..150 {
                        // From ply 40 on, prefer king moves, so that kings
                        // cross buckets and wings often.
                        let moves = pos.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        let king_moves: Vec<_> = moves
                            .iter()
                            .copied()
                            .filter(|m| pos.role_at(m.from()) == Some(Role::King))
                            .collect();
                        let mv = if ply >= 40 && !king_moves.is_empty() && seed >> 63 == 1 {
                            king_moves[(seed >> 33) as usize % king_moves.len()]
                        } else {
                            moves[(seed >> 33) as usize % moves.len()]
                        };
                        let mut child = pos.clone();
                        child.play_unchecked(mv);
                        stack.update(&net, ply, &pos, &child);
                        plain.update(&scalar, ply, &pos, &child);
                        let v = stack.evaluate(&net, ply + 1, &child);
                        assert_eq!(v, net.evaluate(&child), "{hidden}: {fen}: ply {ply}, {mv}");
                        assert_eq!(
                            v,
                            plain.evaluate(&scalar, ply + 1, &child),
                            "{hidden}: {fen}: ply {ply}, {mv}"
                        );
                        assert_eq!(
                            v,
                            scalar.evaluate(&child),
                            "{hidden}: {fen}: ply {ply}, {mv}"
                        );
                        pos = child;
                    }
                }
            }
        }
    }

    /// The stack along a search-like walk: down and back up the tree,
    /// siblings replacing each other at a ply, kings crossing buckets and
    /// wings, and only some nodes evaluated — every evaluation equals a
    /// refresh's.
    #[test]
    fn the_stack_follows_a_search_like_walk() {
        let plain = KingBuckets::PLAIN;
        let k1 = KingBuckets::preset(1).unwrap();
        let k4 = KingBuckets::preset(4).unwrap();
        for (kings, hidden, buckets, seed) in [(plain, 32, 8, 31), (k1, 16, 1, 32), (k4, 32, 8, 33)]
        {
            let net = random_kings(kings, hidden, buckets, seed);
            let mut stack = AccumulatorStack::new(&net, 64).unwrap();
            let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ seed;
            let mut next = |n: usize| {
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (rng >> 33) as usize % n
            };
            let (mut evaluated, mut deepest) = (0, 0);
            for fen in FENS {
                let root = Position::from_fen(fen).unwrap();
                stack.refresh(&net, 0, &root);
                let mut line = vec![root];
                for _ in 0..3000 {
                    let pos = line.last().unwrap().clone();
                    let moves = pos.legal_moves();
                    // Back up a few plies now and then, or at the end of
                    // the game or the stack.
                    if moves.is_empty() || line.len() == 60 || next(4) == 0 {
                        let keep = 1 + next(line.len());
                        line.truncate(keep);
                    } else {
                        let mut child = pos.clone();
                        // Prefer king moves half the time, so that kings
                        // cross buckets and wings.
                        let kings_only: Vec<_> = moves
                            .iter()
                            .copied()
                            .filter(|m| pos.role_at(m.from()) == Some(Role::King))
                            .collect();
                        let mv = if !kings_only.is_empty() && next(2) == 0 {
                            kings_only[next(kings_only.len())]
                        } else {
                            moves[next(moves.len())]
                        };
                        child.play_unchecked(mv);
                        stack.update(&net, line.len() - 1, &pos, &child);
                        line.push(child);
                        deepest = deepest.max(line.len());
                    }
                    if next(3) == 0 {
                        let ply = line.len() - 1;
                        let pos = line.last().unwrap();
                        assert_eq!(
                            stack.evaluate(&net, ply, pos),
                            net.evaluate(pos),
                            "{hidden}: {fen}: ply {ply}: {pos}"
                        );
                        evaluated += 1;
                    }
                }
            }
            assert!(evaluated > 1000 && deepest > 10, "{evaluated} {deepest}");
        }
    }

    #[test]
    fn positions_further_than_a_move_apart_are_refreshed() {
        let net = random_net(32, 4);
        let mut stack = AccumulatorStack::new(&net, 2).unwrap();
        let a = Position::startpos();
        let b = Position::from_fen(FENS[1]).unwrap();
        stack.refresh(&net, 0, &a);
        stack.update(&net, 0, &a, &b);
        assert_eq!(stack.evaluate(&net, 1, &b), net.evaluate(&b));
    }
}
