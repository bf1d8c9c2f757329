//! Look a position up in a Polyglot opening book (GNU Chess's is in
//! Debian's `gnuchess-book` package).
//!
//! Run: `cargo run -p hashmate --example book_probe -- BOOK.bin [FEN]`

use hashmate::book::Book;
use hashmate::Position;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "/usr/share/games/gnuchess/book.bin".to_string());
    let fen: Vec<String> = args.collect();
    let pos: Position = if fen.is_empty() {
        Position::startpos()
    } else {
        fen.join(" ").parse()?
    };
    // The library parses bytes; reading the file is the program's job.
    let book = Book::from_bytes(&std::fs::read(&path)?)?;
    println!(
        "{path}: {} entries; key of the position {:016x}",
        book.len(),
        pos.key()
    );
    let moves = book.moves(&pos);
    let total: u32 = moves.iter().map(|&(_, w)| u32::from(w)).sum();
    for (mv, weight) in moves {
        let san = pos.to_san(mv)?;
        println!(
            "{san:7} {weight:6} ({:.1}%)",
            100.0 * f64::from(weight) / f64::from(total)
        );
    }
    Ok(())
}
