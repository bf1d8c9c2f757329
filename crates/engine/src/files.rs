//! Files the command-line tools read and write, handled so that nothing is
//! ever lost: outputs are written beside the target under a temporary name,
//! synced, and renamed over it (a full disk or a crash leaves the old file
//! as it was), an output may never be one of the inputs, and inputs with a
//! size limit are refused before they are read.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Is `a` the same file as `b` (same path after resolving links and `.`,
/// or the same inode)? A path that does not exist is the same as nothing.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let resolve = |p: &Path| -> Option<PathBuf> {
        if let Ok(c) = p.canonicalize() {
            return Some(c);
        }
        // Not there yet: resolve its folder and keep its name.
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.canonicalize().ok()?,
            _ => std::env::current_dir().ok()?,
        };
        Some(parent.join(p.file_name()?))
    };
    if let (Some(x), Some(y)) = (resolve(a), resolve(b)) {
        if x == y {
            return true;
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

/// Write `bytes` to `path` atomically: a temporary file in the same
/// folder, written, synced, then renamed over `path`. On any error the
/// temporary file is removed and `path` is untouched.
///
/// # Errors
/// The I/O error, with the step that failed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| format!("'{}' is not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!(
            "cannot write '{}': {e} (the old file, if any, is kept)",
            path.display()
        )
    })
}

/// Read a whole regular file of at most `max` bytes.
///
/// # Errors
/// A message when the path is not a regular file, is larger than `max`,
/// or cannot be read.
pub fn read_limited(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {what} '{shown}': {e}"))?;
    if !meta.is_file() {
        return Err(format!("{what} '{shown}' is not a regular file"));
    }
    if meta.len() > max {
        return Err(format!(
            "{what} '{shown}' has {} bytes, more than the {max} accepted",
            meta.len()
        ));
    }
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {what} '{shown}': {e}"))?;
    let mut bytes = Vec::new();
    // The file may grow while it is read: never take more than the limit.
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what} '{shown}': {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("{what} '{shown}' grew past {max} bytes while read"));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_file_sees_through_dots_and_links() {
        let dir = std::env::temp_dir().join(format!("hashmate-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.pgn");
        std::fs::write(&f, "x").unwrap();
        let dotted = dir.join(".").join(".").join("a.pgn");
        assert!(same_file(&f, &dotted));
        assert!(!same_file(&f, &dir.join("b.bin")));
        #[cfg(unix)]
        {
            let link = dir.join("link.pgn");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&f, &link).unwrap();
            assert!(same_file(&f, &link));
            let hard = dir.join("hard.pgn");
            let _ = std::fs::remove_file(&hard);
            std::fs::hard_link(&f, &hard).unwrap();
            assert!(same_file(&f, &hard));
        }
    }

    #[test]
    fn atomic_write_replaces_or_keeps() {
        let dir = std::env::temp_dir().join(format!("hashmate-files-w-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("book.bin");
        write_atomically(&f, b"one").unwrap();
        write_atomically(&f, b"two").unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), b"two");
        // A folder that does not exist: an error, and nothing left behind.
        assert!(write_atomically(&dir.join("no/such/book.bin"), b"x").is_err());
        assert!(read_limited(&f, 2, "book").is_err());
        assert!(read_limited(&dir, 100, "book")
            .unwrap_err()
            .contains("not a regular file"));
        assert_eq!(read_limited(&f, 3, "book").unwrap(), b"two");
    }
}
