//! The engine's use of a Polyglot book: the `OwnBook`, `BookFile` and
//! `BookBestMove` options. A missing or corrupt book is reported and the
//! engine plays on without it.

use hashmate::book::{Book, Pick};
use hashmate::{Move, Position};
use hashmate_hash::rng::SplitMix64;

/// The largest book accepted: 1 GiB, 67 million entries (real books are
/// a few MB to a few hundred MB).
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// Read and parse a book file (a regular file of at most
/// [`MAX_BOOK_BYTES`]).
///
/// # Errors
/// A message naming the file and the problem.
pub fn load(path: &str) -> Result<Book, String> {
    let bytes =
        hashmate_data::files::read_limited(std::path::Path::new(path), MAX_BOOK_BYTES, "book")?;
    Book::from_bytes(&bytes).map_err(|e| format!("'{path}': {e}"))
}

pub struct EngineBook {
    pub enabled: bool,
    pub best_move: bool,
    book: Option<Book>,
    problem: Option<String>,
    rng: SplitMix64,
}

impl Default for EngineBook {
    fn default() -> Self {
        // Seeded from the clock so games vary; tests set their own seed.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        EngineBook {
            enabled: false,
            best_move: false,
            book: None,
            problem: None,
            rng: SplitMix64::new(seed),
        }
    }
}

impl EngineBook {
    /// Use the book at `path` (`""` or `<empty>` for none).
    pub fn set_file(&mut self, path: &str) -> Result<(), String> {
        self.book = None;
        self.problem = None;
        if path.is_empty() || path == "<empty>" {
            return Ok(());
        }
        match load(path) {
            Ok(b) => {
                self.book = Some(b);
                Ok(())
            }
            Err(e) => {
                self.problem = Some(e.clone());
                Err(e)
            }
        }
    }

    /// A book move for `pos`, if the book is on and has one.
    pub fn pick(&mut self, pos: &Position) -> Result<Option<(Move, u16)>, String> {
        if !self.enabled {
            return Ok(None);
        }
        if let Some(p) = &self.problem {
            return Err(p.clone());
        }
        let Some(book) = &self.book else {
            return Ok(None);
        };
        let pick = if self.best_move {
            Pick::Heaviest
        } else {
            Pick::Weighted {
                random: self.rng.next_u64(),
            }
        };
        Ok(book.choose(pos, pick))
    }
}
