//! From table entries to a position's value: captures are resolved by a
//! small alpha-beta search over the tables of what they lead to (a table
//! entry assumes the side to move has no winning capture to prefer), en
//! passant is searched (the tables hold no en-passant rights), and DTZ,
//! stored for one side to move only, is found one ply deeper when the
//! stored side is the other.

use crate::material::Material;
use crate::table::Kind;
use crate::{ProbeError, Tablebase, Wdl, MAX_PIECES};
use hashmate::{Move, Position, Role};

/// The DTZ of a zeroing move that keeps the result, by WDL − (−2).
const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];

fn zeroing_dtz(wdl: i32) -> i32 {
    WDL_TO_DTZ[(wdl + 2) as usize]
}

fn after(pos: &Position, mv: Move) -> Position {
    let mut child = pos.clone();
    child.play_unchecked(mv);
    child
}

/// Does `mv` capture a piece on its target square (en passant excluded)?
fn captures_on_target(pos: &Position, mv: Move) -> bool {
    !mv.is_castling() && pos.by_color(!pos.side_to_move()).contains(mv.to())
}

fn is_pawn_move(pos: &Position, mv: Move) -> bool {
    pos.pieces(pos.side_to_move(), Role::Pawn)
        .contains(mv.from())
}

impl Tablebase {
    /// The WDL value of `pos` for the side to move.
    ///
    /// # Errors
    /// [`ProbeError`]: castling rights, too many pieces, a table missing
    /// or unusable.
    pub fn wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        let mut v = self.probe_ab(pos, -2, 2)?.0;
        if pos.ep_square().is_some() {
            let moves = pos.legal_moves();
            let mut best_ep = -3;
            for &mv in moves.iter().filter(|&&m| pos.is_en_passant(m)) {
                best_ep = best_ep.max(-self.probe_ab(&after(pos, mv), -2, 2)?.0);
            }
            if best_ep > -3 {
                if best_ep >= v {
                    v = best_ep;
                } else if v == 0 && moves.iter().all(|&m| pos.is_en_passant(m)) {
                    // Stalemate but for the en-passant capture: forced.
                    v = best_ep;
                }
            }
        }
        Wdl::from_i32(v).ok_or(ProbeError::TooManyPieces(pos.occupied().count()))
    }

    /// The DTZ of `pos` for the side to move, in plies: positive when it
    /// wins (more than 100 for a cursed win), negative when it loses (below
    /// −100 for a blessed loss), 0 for a draw.
    ///
    /// # Errors
    /// As [`Tablebase::wdl`]; the DTZ tables of the material (and of what
    /// its moves lead to) are needed too.
    pub fn dtz(&self, pos: &Position) -> Result<i32, ProbeError> {
        let mut v = self.dtz_without_ep(pos)?;
        if pos.ep_square().is_none() {
            return Ok(v);
        }
        let moves = pos.legal_moves();
        let mut best_ep = -3;
        for &mv in moves.iter().filter(|&&m| pos.is_en_passant(m)) {
            best_ep = best_ep.max(-self.probe_ab(&after(pos, mv), -2, 2)?.0);
        }
        if best_ep == -3 {
            return Ok(v);
        }
        // The en-passant capture zeroes at once: it replaces the table's
        // value where it does at least as well.
        let ep = zeroing_dtz(best_ep);
        let replace = if v < -100 {
            ep >= 0
        } else if v < 0 {
            !(-100..0).contains(&ep)
        } else if v > 100 {
            ep > 0
        } else if v > 0 {
            ep == 1
        } else if ep >= 0 {
            true
        } else {
            moves.iter().all(|&m| pos.is_en_passant(m))
        };
        if replace {
            v = ep;
        }
        Ok(v)
    }

    /// The WDL entry of `pos` itself (no captures searched).
    fn wdl_entry(&self, pos: &Position) -> Result<i32, ProbeError> {
        let m = Material::of(pos);
        if m.kings_only() {
            return Ok(0);
        }
        let table = self.table(Kind::Wdl, m)?;
        table
            .wdl(pos, m)
            .map_err(|e| ProbeError::File(std::sync::Arc::new(e)))
    }

    /// The value of `pos` within `alpha..beta` with captures (not en
    /// passant) searched, and how it was found: 1 from the table, 2 by a
    /// capture (a winning capture is then the best move).
    fn probe_ab(&self, pos: &Position, mut alpha: i32, beta: i32) -> Result<(i32, u8), ProbeError> {
        if !pos.castling().is_empty() {
            return Err(ProbeError::Castling);
        }
        let pieces = pos.occupied().count();
        if pieces > MAX_PIECES + 1 {
            return Err(ProbeError::TooManyPieces(pieces));
        }
        for &mv in pos.legal_moves().iter() {
            if !captures_on_target(pos, mv) {
                continue;
            }
            let v = -self.probe_ab(&after(pos, mv), -beta, -alpha)?.0;
            if v > alpha {
                if v >= beta {
                    return Ok((v, 2));
                }
                alpha = v;
            }
        }
        let v = self.wdl_entry(pos)?;
        Ok(if alpha >= v {
            (alpha, 1 + u8::from(alpha > 0))
        } else {
            (v, 1)
        })
    }

    /// The DTZ entry of `pos` whose WDL is `wdl`, or `None` when the table
    /// holds the other side to move.
    fn dtz_entry(&self, pos: &Position, wdl: i32) -> Result<Option<i32>, ProbeError> {
        let m = Material::of(pos);
        let table = self.table(Kind::Dtz, m)?;
        table
            .dtz(pos, m, wdl)
            .map_err(|e| ProbeError::File(std::sync::Arc::new(e)))
    }

    /// DTZ ignoring en-passant rights.
    fn dtz_without_ep(&self, pos: &Position) -> Result<i32, ProbeError> {
        let (wdl, how) = self.probe_ab(pos, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        if how == 2 {
            // A capture that keeps the result is the best move.
            return Ok(zeroing_dtz(wdl));
        }
        let moves = pos.legal_moves();
        if wdl > 0 {
            // A pawn move that keeps the win zeroes at once.
            for &mv in moves.iter() {
                if !is_pawn_move(pos, mv) || pos.is_capture(mv) {
                    continue;
                }
                if -self.wdl(&after(pos, mv))?.to_i32() == wdl {
                    return Ok(zeroing_dtz(wdl));
                }
            }
        }
        if let Some(dtz) = self.dtz_entry(pos, wdl)? {
            return Ok(zeroing_dtz(wdl) + if wdl > 0 { dtz } else { -dtz });
        }
        // The table is for the other side to move: one ply deeper.
        if wdl > 0 {
            let mut best = 0xffff;
            for &mv in moves.iter() {
                if is_pawn_move(pos, mv) || pos.is_capture(mv) {
                    continue;
                }
                let child = after(pos, mv);
                let v = -self.dtz(&child)?;
                if v == 1 && child.is_checkmate() {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for &mv in moves.iter() {
                let child = after(pos, mv);
                let v = if is_pawn_move(pos, mv) || pos.is_capture(mv) {
                    if wdl == -2 {
                        -1
                    } else if self.probe_ab(&child, 1, 2)?.0 == 2 {
                        0
                    } else {
                        -101
                    }
                } else {
                    -self.dtz(&child)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }
}
