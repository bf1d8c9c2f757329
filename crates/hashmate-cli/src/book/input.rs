//! The PGN inputs of `book make`: files, patterns and standard input,
//! decompressed by their extension.

use hashmate_data::files;
use std::io::{BufRead, BufReader, Read};

/// One PGN input: a file (plain, `.gz`, `.zst` or `.bz2`) or `-` for
/// standard input.
pub(crate) struct Input {
    pub(crate) name: String,
    /// Size in bytes as stored (compressed), when known.
    pub(crate) size: Option<u64>,
}

/// The inputs named by `--pgn`: files, `-`, and patterns with `*` or `?`
/// in their last component (for shells that leave them unexpanded),
/// matched in sorted order.
pub(crate) fn inputs(names: &[String]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for name in names {
        if name == "-" {
            out.push(Input {
                name: name.clone(),
                size: None,
            });
            continue;
        }
        let path = std::path::Path::new(name);
        let file_name = path.file_name().and_then(|f| f.to_str()).unwrap_or("");
        let paths = if file_name.contains(['*', '?']) {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => std::path::PathBuf::from("."),
            };
            let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let mut found: Vec<std::path::PathBuf> = entries
                .filter_map(|e| e.ok())
                .filter(|e| wildcard(file_name, &e.file_name().to_string_lossy()))
                .map(|e| e.path())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!("no file matches '{name}'"));
            }
            found
        } else {
            vec![path.to_path_buf()]
        };
        for p in paths {
            let meta = files::require_regular(&p, "PGN file")?;
            out.push(Input {
                name: p.display().to_string(),
                size: Some(meta.len()),
            });
        }
    }
    Ok(out)
}

/// Whether `name` matches `pattern` (`*` any run, `?` any one character).
fn wildcard(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// A reader that counts the bytes taken from the one below it (the
/// compressed bytes, for the progress bar).
struct Counted<R> {
    inner: R,
    count: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// The text of `input`, decompressed by its extension.
pub(crate) fn open(
    input: &Input,
    count: std::rc::Rc<std::cell::Cell<u64>>,
) -> Result<Box<dyn BufRead>, String> {
    let raw: Box<dyn Read> = if input.name == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(
            std::fs::File::open(&input.name)
                .map_err(|e| format!("cannot read PGN file '{}': {e}", input.name))?,
        )
    };
    let counted = Counted { inner: raw, count };
    let name = input.name.to_ascii_lowercase();
    let text: Box<dyn Read> = if name.ends_with(".zst") || name.ends_with(".zstd") {
        Box::new(
            zstd::stream::read::Decoder::new(counted)
                .map_err(|e| format!("{}: not zstd: {e}", input.name))?,
        )
    } else if name.ends_with(".gz") {
        Box::new(flate2::read::MultiGzDecoder::new(counted))
    } else if name.ends_with(".bz2") {
        Box::new(bzip2::read::MultiBzDecoder::new(counted))
    } else {
        Box::new(counted)
    };
    Ok(Box::new(BufReader::with_capacity(1 << 16, text)))
}
