//! A `#![no_std]` consumer of `hashmate` built without its `std` feature
//! (`cargo build -p hashmate-nostd-check`, in CI): rules, FEN, keys, move
//! generation, SAN, perft, the transposition table and a game with
//! repetitions all compile with `core` and `alloc` alone.

#![no_std]

extern crate alloc;

use alloc::string::String;
use hashmate::perft::perft;
use hashmate::tt::TranspositionTable;
use hashmate::{Game, Position};

/// Perft of a position given as FEN, or `None` for a bad FEN.
pub fn perft_of(fen: &str, depth: u32) -> Option<u64> {
    let pos = Position::from_fen(fen).ok()?;
    Some(perft(&pos, depth))
}

/// The SAN of the first legal move of the start position, its key after
/// the move, and whether a one-megabyte transposition table could be had.
pub fn first_move() -> (String, u64, bool) {
    let pos = Position::startpos();
    let mv = pos.legal_moves()[0];
    let san = pos.to_san(mv).unwrap_or_default();
    let mut game = Game::new(pos);
    let key = match game.try_play(mv) {
        Ok(()) => game.position().key(),
        Err(_) => 0,
    };
    let table = TranspositionTable::new(1).is_ok();
    let _ = hashmate_hash::zobrist::repetitions(game.keys(), 0, 3);
    (san, key, table)
}
