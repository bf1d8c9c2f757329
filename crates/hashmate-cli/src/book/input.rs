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
    for (i, x) in out.iter().enumerate() {
        let same = out[..i].iter().find(|y| {
            x.name != "-"
                && y.name != "-"
                && files::same_file(std::path::Path::new(&x.name), std::path::Path::new(&y.name))
        });
        if let Some(y) = same {
            eprintln!(
                "warning: '{}' and '{}' are the same file: its games are counted twice",
                y.name, x.name
            );
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
        let mut decoder = zstd::stream::read::Decoder::new(counted)
            .map_err(|e| format!("{}: not zstd: {e}", input.name))?;
        // Frames made with `zstd --long=31` need a window of up to 2 GiB;
        // the decoder only reserves what a frame asks for.
        decoder
            .window_log_max(31)
            .map_err(|e| format!("{}: {e}", input.name))?;
        Box::new(decoder)
    } else if name.ends_with(".gz") {
        Box::new(GzMembers::new(counted))
    } else if name.ends_with(".bz2") {
        Box::new(bzip2::read::MultiBzDecoder::new(counted))
    } else {
        Box::new(counted)
    };
    Ok(Box::new(BufReader::with_capacity(1 << 16, text)))
}

/// Concatenated gzip members, as `gzip -d` reads them: trailing zero bytes
/// after the last member (tape-style padding) are ignored as gzip ignores
/// them, where `MultiGzDecoder` would call them a bad header.
struct GzMembers<R: Read> {
    inner: Option<flate2::bufread::GzDecoder<BufReader<R>>>,
    done: bool,
}

impl<R: Read> GzMembers<R> {
    fn new(input: R) -> GzMembers<R> {
        GzMembers {
            inner: Some(flate2::bufread::GzDecoder::new(BufReader::new(input))),
            done: false,
        }
    }
}

impl<R: Read> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while !self.done {
            let Some(d) = self.inner.as_mut() else {
                return Ok(0);
            };
            let n = d.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member ended: another one, zero padding, or the end.
            let Some(mut rest) = self.inner.take().map(|d| d.into_inner()) else {
                return Ok(0);
            };
            let next = rest.fill_buf()?;
            // The end, or nothing but zero padding to it: done.
            if next.is_empty() || (next.iter().all(|&b| b == 0) && only_zeros(&mut rest)?) {
                self.done = true;
            } else {
                self.inner = Some(flate2::bufread::GzDecoder::new(rest));
            }
        }
        Ok(0)
    }
}

/// Whether everything left in `r` is zero bytes (consuming it).
fn only_zeros(r: &mut impl BufRead) -> std::io::Result<bool> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(true);
        }
        if buf.iter().any(|&b| b != 0) {
            return Ok(false);
        }
        let n = buf.len();
        r.consume(n);
    }
}
