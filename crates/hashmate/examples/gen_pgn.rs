//! Write N seeded pseudo-random games as PGN, for book-building
//! benchmarks: each move is drawn from the legal moves in generation
//! order with geometrically falling odds (the first move half the time,
//! the second a quarter, …), so the games share openings the way real
//! databases do, then spread out; results drawn 40 % White, 30 % draw,
//! 30 % Black unless the game ends on the board.
//!
//! Run: `cargo run --release -p hashmate --example gen_pgn -- GAMES SEED > games.pgn`

use hashmate::{Color, Game, Outcome, Position};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut rand = move || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for g in 0..games {
        let mut game = Game::new(Position::startpos());
        let plies = 20 + rand() % 100;
        for _ in 0..plies {
            if game.outcome().is_some() {
                break;
            }
            let moves = game.position().legal_moves();
            // Index k with odds 2^-(k+1), wrapped into the list.
            let k = (rand() | 1 << 63).trailing_zeros() as usize % moves.len();
            if game.try_play(moves[k]).is_err() {
                break;
            }
        }
        let result = match game.outcome() {
            Some(Outcome::Checkmate {
                winner: Color::White,
            }) => "1-0",
            Some(Outcome::Checkmate { .. }) => "0-1",
            Some(Outcome::Draw(_)) => "1/2-1/2",
            None => [
                "1-0", "1-0", "1-0", "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "0-1", "0-1", "0-1",
            ][(rand() % 10) as usize],
        };
        let round = (g + 1).to_string();
        let pgn = game.to_pgn(&[
            ("Event", "gen_pgn"),
            ("Round", &round),
            ("White", "Random A"),
            ("Black", "Random B"),
            ("Result", result),
        ]);
        if out.write_all(pgn.as_bytes()).is_err() {
            return;
        }
    }
}
