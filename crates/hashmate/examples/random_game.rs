//! Two random movers play a game to its end: checkmate, stalemate,
//! insufficient material, the fifty-move rule or threefold repetition.
//!
//! Run: `cargo run -p hashmate --example random_game -- [SEED]`

use hashmate::{Game, Position};
use hashmate_hash::rng::SplitMix64;

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::new(Position::startpos());
    let mut san = Vec::new();
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        let moves = game.position().legal_moves();
        let mv = moves[rng.below(moves.len() as u64) as usize];
        // Legal by construction, so neither call can fail.
        san.push(game.position().to_san(mv).expect("a legal move"));
        game.try_play(mv).expect("a legal move");
    };
    for (i, pair) in san.chunks(2).enumerate() {
        print!("{}. {} ", i + 1, pair.join(" "));
    }
    println!("{}\n", outcome.result());
    println!(
        "{} after {} plies: {}",
        outcome,
        game.moves().len(),
        game.position()
    );
}
