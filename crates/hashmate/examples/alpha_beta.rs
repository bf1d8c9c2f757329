//! A small alpha-beta searcher built on the library: legal moves, material
//! evaluation, and the lock-free transposition table for cut-offs and move
//! ordering. About fifty lines of search.
//!
//! Run: `cargo run --release -p hashmate --example alpha_beta -- [DEPTH] [FEN]`

use hashmate::tt::{Bound, TranspositionTable, TtEntry};
use hashmate::{Color, Move, Position, Role};

const MATE: i32 = 30_000;
const VALUES: [i32; 6] = [100, 300, 320, 500, 900, 0];

fn evaluate(pos: &Position) -> i32 {
    let side = |c: Color| -> i32 {
        Role::ALL
            .iter()
            .map(|&r| VALUES[r.index()] * pos.pieces(c, r).count() as i32)
            .sum()
    };
    let us = pos.side_to_move();
    side(us) - side(!us)
}

fn search(
    pos: &Position,
    tt: &TranspositionTable,
    depth: i32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
) -> i32 {
    let entry = tt.probe(pos.key());
    if let Some(e) = entry.filter(|e| i32::from(e.depth) >= depth && ply > 0) {
        let s = i32::from(e.score);
        match e.bound {
            Bound::Exact => return s,
            Bound::Lower if s >= beta => return s,
            Bound::Upper if s <= alpha => return s,
            _ => {}
        }
    }
    let mut moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() { -MATE + ply } else { 0 };
    }
    if depth == 0 {
        return evaluate(pos);
    }
    // Try the table's move first, then captures.
    let tt_move = entry.map_or(Move::NULL, |e| e.mv);
    moves
        .as_mut_slice()
        .sort_by_key(|&m| (m != tt_move, !pos.is_capture(m)));
    let (old_alpha, mut best, mut best_move) = (alpha, -MATE, Move::NULL);
    for mv in moves {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        let score = -search(&child, tt, depth - 1, -beta, -alpha, ply + 1);
        if score > best {
            (best, best_move) = (score, mv);
        }
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    let bound = if best >= beta {
        Bound::Lower
    } else if best > old_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    };
    // Mate scores are stored as searched: fine for a demonstration.
    let entry = TtEntry {
        mv: best_move,
        score: best as i16,
        eval: 0,
        depth: depth as u8,
        bound,
        pv: beta - old_alpha > 1, // searched with an open window
    };
    tt.store(pos.key(), entry);
    best
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: i32 = args
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or(5)
        .clamp(1, 8);
    let fen: Vec<String> = args.collect();
    let pos: Position = if fen.is_empty() {
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3".parse()?
    } else {
        fen.join(" ").parse()?
    };
    let tt = TranspositionTable::new(16)?;
    for d in 1..=depth {
        let score = search(&pos, &tt, d, -MATE, MATE, 0);
        let best = tt.probe(pos.key()).map_or(Move::NULL, |e| e.mv);
        println!("depth {d}: score {score} best {}", pos.to_san(best)?);
    }
    Ok(())
}
