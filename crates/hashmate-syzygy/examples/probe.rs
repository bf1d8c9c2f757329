//! Probe FENs from standard input, one a line: prints `wdl W dtz D` (or
//! the error) per line.
//!
//! Run: `cargo run --release -p hashmate-syzygy --example probe -- DIR < fens.txt`

use hashmate::Position;
use hashmate_syzygy::Tablebase;
use std::io::BufRead;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut tb = Tablebase::new();
    for dir in std::env::args().skip(1) {
        let added = tb.add_directory(&dir)?;
        for e in added.refused {
            eprintln!("{e}");
        }
    }
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let pos: Position = match line.trim().parse() {
            Ok(p) => p,
            Err(e) => {
                println!("error {e}");
                continue;
            }
        };
        match (tb.wdl(&pos), tb.dtz(&pos)) {
            (Ok(w), Ok(d)) => println!("wdl {} dtz {d}", w.to_i32()),
            (Err(e), _) | (_, Err(e)) => println!("error {e}"),
        }
    }
    Ok(())
}
