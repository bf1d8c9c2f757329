//! Syzygy endgame tablebases for the `hashmate` chess library: the
//! win/draw/loss (WDL) and distance-to-zeroing (DTZ) values of positions
//! with few pieces, read from the standard `.rtbw` and `.rtbz` files.
//!
//! * **WDL** under the fifty-move rule: [`Wdl::Win`], [`Wdl::CursedWin`]
//!   (a win that the fifty-move rule turns into a draw), [`Wdl::Draw`],
//!   [`Wdl::BlessedLoss`], [`Wdl::Loss`], for the side to move.
//! * **DTZ**: plies to the next capture or pawn move (zeroing the
//!   fifty-move counter) on a line that keeps the result, signed as the
//!   result, 0 for a draw; a cursed win or blessed loss counts 100 more
//!   (the Syzygy convention, as python-chess and Fathom report it).
//!
//! En passant is handled as the format requires (the tables hold positions
//! without en-passant rights; a capture that is possible is searched), and
//! captures are resolved by a small search, so that a position is probed
//! through the tables of what it can become. Positions with castling
//! rights are not in the tables.
//!
//! Files are opened when first needed and read on demand: the header and
//! the index of a table when it is first probed, then one compressed block
//! per probe (a positioned read; recent blocks are kept). A
//! [`Tablebase`] may be probed from many threads at once. A corrupt,
//! truncated or foreign file is refused with an error that names it,
//! never a panic or a wrong index into it.
//!
//! ```no_run
//! use hashmate::Position;
//! use hashmate_syzygy::{Tablebase, Wdl};
//!
//! let mut tb = Tablebase::new();
//! tb.add_directory("/path/to/syzygy")?;
//! let pos: Position = "8/8/8/8/8/3k4/8/1K1Q4 w - - 0 1".parse()?;
//! assert_eq!(tb.wdl(&pos)?, Wdl::Win);
//! println!("zeroing move in {} plies", tb.dtz(&pos)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod file;
mod index;
mod material;
mod probe;
mod table;

pub use file::FileError;
pub use material::Material;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use table::{Kind, Table};

/// The most pieces the Syzygy format has tables for.
pub const MAX_PIECES: u32 = 7;

/// A position's value with best play, for the side to move, under the
/// fifty-move rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss = -2,
    /// Lost, but saved by the fifty-move rule.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but the fifty-move rule makes it a draw.
    CursedWin = 1,
    /// Won.
    Win = 2,
}

impl Wdl {
    /// From −2 … 2.
    pub fn from_i32(v: i32) -> Option<Wdl> {
        Some(match v {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => return None,
        })
    }

    /// −2 … 2.
    pub fn to_i32(self) -> i32 {
        self as i32
    }
}

/// Why a position could not be probed.
#[derive(Clone, Debug)]
pub enum ProbeError {
    /// The position has castling rights: no table holds it.
    Castling,
    /// More pieces than the tables (or the format) hold.
    TooManyPieces(u32),
    /// No table of this material (its name) among the directories.
    MissingTable(String),
    /// A table that is there could not be used.
    File(Arc<FileError>),
}

impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeError::Castling => {
                write!(f, "positions with castling rights are not in the tables")
            }
            ProbeError::TooManyPieces(n) => write!(f, "{n} pieces: more than the tables hold"),
            ProbeError::MissingTable(name) => write!(f, "no table {name}"),
            ProbeError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ProbeError {}

/// Why a directory could not be added.
#[derive(Debug)]
pub enum DirectoryError {
    /// It could not be listed (missing, not a directory, unreadable).
    Unreadable(PathBuf, std::io::Error),
}

impl std::fmt::Display for DirectoryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DirectoryError::Unreadable(p, e) => {
                write!(f, "cannot read the directory '{}': {e}", p.display())
            }
        }
    }
}

impl std::error::Error for DirectoryError {}

/// What adding a directory found: the tables added, and the files that
/// look like tables but were refused (their names or first bytes are not
/// a table's), with why.
#[derive(Debug, Default)]
pub struct Added {
    /// Table files added (WDL and DTZ).
    pub tables: usize,
    /// Files refused.
    pub refused: Vec<FileError>,
}

/// A table file, opened when first probed.
struct Slot {
    path: PathBuf,
    kind: Kind,
    material: Material,
    table: OnceLock<Result<Table, Arc<FileError>>>,
}

impl Slot {
    fn get(&self) -> Result<&Table, ProbeError> {
        self.table
            .get_or_init(|| Table::open(&self.path, self.kind, self.material).map_err(Arc::new))
            .as_ref()
            .map_err(|e| ProbeError::File(e.clone()))
    }
}

/// A set of Syzygy tables from one or more directories.
#[derive(Default)]
pub struct Tablebase {
    tables: HashMap<(Kind, Material), Arc<Slot>>,
    max_pieces: u32,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("files", &(self.tables.len() / 2))
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

impl Tablebase {
    /// No tables.
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// Add the tables of `dir`: every file named as a table (`KQvKR.rtbw`,
    /// `KRPvKR.rtbz`). A file with a table's extension whose name is not a
    /// table's, or whose start is not a Syzygy file's, is refused (listed
    /// in the result); the others are opened when first probed.
    ///
    /// # Errors
    /// When `dir` cannot be listed.
    pub fn add_directory(&mut self, dir: impl AsRef<Path>) -> Result<Added, DirectoryError> {
        let dir = dir.as_ref();
        let unreadable = |e| DirectoryError::Unreadable(dir.to_path_buf(), e);
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(unreadable)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        let mut added = Added::default();
        for path in entries {
            let kind = match path.extension().and_then(|e| e.to_str()) {
                Some("rtbw") => Kind::Wdl,
                Some("rtbz") => Kind::Dtz,
                _ => continue,
            };
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let Some(material) = Material::from_name(stem) else {
                added.refused.push(FileError::Corrupt(
                    path.clone(),
                    "its name is not a table's (such as KRPvKR)",
                ));
                continue;
            };
            if let Err(e) = quick_check(&path, kind) {
                added.refused.push(e);
                continue;
            }
            let slot = Arc::new(Slot {
                path: path.clone(),
                kind,
                material,
                table: OnceLock::new(),
            });
            self.tables.insert((kind, material), slot.clone());
            self.tables.insert((kind, material.flipped()), slot);
            if kind == Kind::Wdl {
                self.max_pieces = self.max_pieces.max(material.pieces());
            }
            added.tables += 1;
        }
        Ok(added)
    }

    /// The most pieces of a WDL table added (0: none).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Open every table now (its header and index), returning the ones
    /// that cannot be used; they are removed, so that probes do not meet
    /// them.
    pub fn open_all(&mut self) -> Vec<Arc<FileError>> {
        let mut bad = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for slot in self.tables.values() {
            if !seen.insert(slot.path.clone()) {
                continue;
            }
            if let Err(ProbeError::File(e)) = slot.get() {
                bad.push(e);
            }
        }
        self.tables.retain(|_, s| s.get().is_ok());
        self.max_pieces = self
            .tables
            .iter()
            .filter(|((k, _), _)| *k == Kind::Wdl)
            .map(|((_, m), _)| m.pieces())
            .max()
            .unwrap_or(0);
        bad
    }

    fn table(&self, kind: Kind, material: Material) -> Result<&Table, ProbeError> {
        match self.tables.get(&(kind, material)) {
            Some(slot) => slot.get(),
            None => Err(ProbeError::MissingTable(format!(
                "{}.{}",
                material.table_name(),
                if kind == Kind::Wdl { "rtbw" } else { "rtbz" }
            ))),
        }
    }
}

/// The magic number and the length of a table file, checked without
/// parsing it.
fn quick_check(path: &Path, kind: Kind) -> Result<(), FileError> {
    let src = file::Source::open(path)?;
    if src.len() % 64 != 16 {
        return Err(src.corrupt("its length is not that of a Syzygy file (truncated?)"));
    }
    let mut magic = [0u8; 4];
    src.read_exact_at(&mut magic, 0)?;
    let want = if kind == Kind::Wdl {
        file::WDL_MAGIC
    } else {
        file::DTZ_MAGIC
    };
    if magic != want {
        return Err(src.corrupt("its first bytes are not those of its kind of table"));
    }
    Ok(())
}

/// The crate's README, compiled and run as a doctest so that its example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
