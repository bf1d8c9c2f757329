//! Files the command-line tools read and write, handled so that nothing is
//! ever lost: outputs are written beside the target under a temporary name,
//! synced, and renamed over it (a full disk or a crash leaves the old file
//! as it was, and the new file keeps the old one's permissions), an output
//! may never be one of the inputs, an output's folder must exist before
//! the work begins, and inputs with a size limit are refused before they
//! are read. Temporary files and folders are registered while they exist
//! ([`cleanup`]), so that a tool stopped by a signal can remove them.

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be read or written.
#[derive(Debug)]
pub enum FileError {
    /// An output path holds something that is not ours to replace (a
    /// directory, FIFO, socket, block device); it is left as it is.
    Refused {
        /// The path.
        path: PathBuf,
        /// What stands there, in words ("a FIFO").
        kind: &'static str,
    },
    /// An output path is a symbolic link to nothing; the link is kept.
    DanglingLink {
        /// The link.
        path: PathBuf,
        /// Why its target could not be resolved.
        source: std::io::Error,
    },
    /// An input is not a regular file (it could be read for ever).
    NotRegular {
        /// What the file was to be ("PGN file").
        what: String,
        /// The path.
        path: PathBuf,
        /// What stands there, in words.
        kind: &'static str,
    },
    /// An input is larger than the tool accepts (or grew past it).
    TooLarge {
        /// What the file was to be.
        what: String,
        /// The path.
        path: PathBuf,
        /// The limit in bytes.
        max: u64,
    },
    /// Reading failed.
    Read {
        /// What the file was to be.
        what: String,
        /// The path.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// Writing failed; any old file at the path is kept.
    Write {
        /// The path.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// An output's folder does not exist (or is not a folder).
    NoFolder {
        /// The output.
        path: PathBuf,
    },
    /// Memory for a file's contents could not be had.
    OutOfMemory {
        /// What the file was to be.
        what: String,
        /// The path.
        path: PathBuf,
        /// Bytes asked for.
        bytes: u64,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Refused { path, kind } => write!(
                f,
                "cannot write '{}': it is {kind}, not a regular file; it is left as it is",
                path.display()
            ),
            FileError::DanglingLink { path, source } => write!(
                f,
                "cannot write '{}': a symbolic link to nothing readable ({source}); the link is kept",
                path.display()
            ),
            FileError::NotRegular { what, path, kind } => {
                write!(f, "{what} '{}' is {kind}, not a regular file", path.display())
            }
            FileError::TooLarge { what, path, max } => write!(
                f,
                "{what} '{}' is larger than the {max} bytes accepted",
                path.display()
            ),
            FileError::Read { what, path, source } => {
                write!(f, "cannot read {what} '{}': {source}", path.display())
            }
            FileError::Write { path, source } => write!(
                f,
                "cannot write '{}': {source} (the old file, if any, is kept)",
                path.display()
            ),
            FileError::NoFolder { path } => write!(
                f,
                "cannot write '{}': its folder does not exist",
                path.display()
            ),
            FileError::OutOfMemory { what, path, bytes } => write!(
                f,
                "not enough memory to read {what} '{}' ({bytes} bytes)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::DanglingLink { source, .. }
            | FileError::Read { source, .. }
            | FileError::Write { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<FileError> for String {
    fn from(e: FileError) -> String {
        e.to_string()
    }
}

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

/// Where an output goes, decided before anything is written.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    /// A regular file, or nothing yet: write beside it and rename over it.
    Replace(PathBuf),
    /// A character device (`/dev/null`, a terminal): written in place,
    /// never replaced.
    InPlace(PathBuf),
    /// One of the process's standard streams (`/dev/stdout`,
    /// `/proc/self/fd/2`, …): written to the stream itself, so that a
    /// shell's `>> file` appends and a pipe is fed.
    Stream(StdStream),
}

/// Standard output or standard error.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum StdStream {
    Out,
    Err,
}

/// Whether `path` names one of the process's standard output streams
/// (`/dev/stdout`, `/dev/fd/2`, …), which outputs are written to as the
/// stream itself.
pub fn is_standard_stream(path: &Path) -> bool {
    standard_stream(path).is_some()
}

/// The standard stream `path` names, if it names one: `/dev/stdout`,
/// `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` or `/proc/PID/fd/N` of
/// this process, for N = 1 or 2.
fn standard_stream(path: &Path) -> Option<StdStream> {
    let s = path.to_str()?;
    let pid = std::process::id().to_string();
    let fd = match s {
        "/dev/stdout" => "1",
        "/dev/stderr" => "2",
        _ => s
            .strip_prefix("/dev/fd/")
            .or_else(|| s.strip_prefix("/proc/self/fd/"))
            .or_else(|| {
                s.strip_prefix("/proc/")
                    .and_then(|r| r.strip_prefix(pid.as_str()))
                    .and_then(|r| r.strip_prefix("/fd/"))
            })?,
    };
    match fd {
        "1" => Some(StdStream::Out),
        "2" => Some(StdStream::Err),
        _ => None,
    }
}

/// What kind of file stands at `path` (not following a link), in words.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_char_device() {
            return "a character device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Decide how to write `path`: a regular file (or a new one) is replaced
/// atomically; a symbolic link is followed, so that its target is
/// replaced and the link kept; a character device is written in place;
/// anything else (a directory, a FIFO, a socket, a block device, a link
/// to nothing) is refused, never replaced.
fn output_target(path: &Path) -> Result<Target, FileError> {
    if let Some(stream) = standard_stream(path) {
        return Ok(Target::Stream(stream));
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let folder = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            if !folder.is_dir() {
                return Err(FileError::NoFolder {
                    path: path.to_path_buf(),
                });
            }
            return Ok(Target::Replace(path.to_path_buf()));
        }
        Err(source) => {
            return Err(FileError::Write {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    if meta.file_type().is_symlink() {
        let target = path
            .canonicalize()
            .map_err(|source| FileError::DanglingLink {
                path: path.to_path_buf(),
                source,
            })?;
        // `target` has no link left in it: the recursion ends there.
        return output_target(&target);
    }
    if meta.is_file() {
        return Ok(Target::Replace(path.to_path_buf()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_char_device() {
            return Ok(Target::InPlace(path.to_path_buf()));
        }
    }
    Err(FileError::Refused {
        path: path.to_path_buf(),
        kind: kind_of(&meta),
    })
}

/// Whether [`write_atomically`] would write `path` (not refuse it), so
/// that a tool can say so before its work rather than after.
///
/// # Errors
/// Why `path` would be refused.
pub fn check_output(path: &Path) -> Result<(), FileError> {
    output_target(path).map(|_| ())
}

/// Write `bytes` to `path` without ever losing a file: a regular file is
/// replaced atomically (a temporary file in the same folder, given the old
/// file's permissions and owner where it can be, written, synced, then
/// renamed over it; on any error the temporary file is removed and `path`
/// is untouched); a symbolic link is followed (its target replaced, the
/// link kept); a character device such as `/dev/null` is written in
/// place, and a name of a standard stream (`/dev/stdout`) is written to
/// that stream; a directory, FIFO, socket or block device is refused.
///
/// # Errors
/// The I/O error, with the step that failed, or why `path` is refused.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomically_with(path, |out| out.write_all(bytes)).map_err(|e| {
        e.either(|source| FileError::Write {
            path: path.to_path_buf(),
            source,
        })
    })
}

/// Why [`write_atomically_with`] failed: the file's handling, or the
/// producer's own error.
#[derive(Debug)]
pub enum StreamError<E> {
    /// Opening, syncing or renaming the output failed, or it is refused.
    File(FileError),
    /// The producer failed (or a write of its bytes did).
    Producer(E),
}

impl<E> StreamError<E> {
    /// One error type for both: the producer's turned into a [`FileError`]
    /// by `f`.
    pub fn either(self, f: impl FnOnce(E) -> FileError) -> FileError {
        match self {
            StreamError::File(e) => e,
            StreamError::Producer(e) => f(e),
        }
    }
}

/// As [`write_atomically`], with the bytes streamed by `produce` rather
/// than held in memory: the output is written (buffered) as `produce`
/// writes it, and only renamed over `path` once `produce` has succeeded;
/// if it fails, the temporary file is removed and `path` is untouched.
///
/// # Errors
/// [`StreamError::File`] as [`write_atomically`]; [`StreamError::Producer`]
/// with `produce`'s error.
pub fn write_atomically_with<E>(
    path: &Path,
    produce: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    let write_error = |path: &Path, source| {
        StreamError::File(FileError::Write {
            path: path.to_path_buf(),
            source,
        })
    };
    let path = match output_target(path).map_err(StreamError::File)? {
        Target::Replace(p) => p,
        Target::InPlace(p) => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(&p)
                .map_err(|e| write_error(&p, e))?;
            let mut out = std::io::BufWriter::new(&mut f);
            produce(&mut out).map_err(StreamError::Producer)?;
            return out.flush().map_err(|e| write_error(&p, e));
        }
        Target::Stream(stream) => {
            let result = match stream {
                StdStream::Out => {
                    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
                    produce(&mut out).map_err(StreamError::Producer)?;
                    out.flush()
                }
                StdStream::Err => {
                    let mut err = std::io::stderr().lock();
                    produce(&mut err).map_err(StreamError::Producer)?;
                    err.flush()
                }
            };
            return result.map_err(|e| write_error(path, e));
        }
    };
    let path = path.as_path();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| {
        write_error(
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"),
        )
    })?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    // The replaced file's permissions and owner, given to the new one
    // before anything is written into it.
    let old = std::fs::metadata(path).ok();
    let _registered = cleanup::Registered::new(tmp.clone());
    let mut produced = Ok(());
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        if let Some(old) = &old {
            f.set_permissions(old.permissions())?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                // Only a privileged process may give a file away: where it
                // cannot, the new file is the writer's, as any new file is.
                let _ = std::os::unix::fs::fchown(&f, Some(old.uid()), Some(old.gid()));
            }
        }
        let mut out = std::io::BufWriter::with_capacity(1 << 20, &mut f);
        produced = produce(&mut out);
        if produced.is_err() {
            return Ok(());
        }
        out.flush()?;
        drop(out);
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() || produced.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| write_error(path, e))?;
    produced.map_err(StreamError::Producer)
}

/// Read until `buf` is full or the input ends (retrying interrupted
/// reads); the bytes read, fewer than `buf.len()` only at the end.
///
/// # Errors
/// The first read error.
pub fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// An input that is read to its end must be a regular file: a device or
/// a FIFO (`/dev/zero`, `/dev/urandom`) may never end.
///
/// # Errors
/// A message naming `what`, the path and what it is instead.
pub fn require_regular(path: &Path, what: &str) -> Result<std::fs::Metadata, FileError> {
    let read = |source| FileError::Read {
        what: what.to_string(),
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(read)?;
    if meta.is_file() {
        Ok(meta)
    } else {
        Err(FileError::NotRegular {
            what: what.to_string(),
            path: path.to_path_buf(),
            kind: kind_of(&meta),
        })
    }
}

/// Read a whole regular file of at most `max` bytes.
///
/// # Errors
/// A message when the path is not a regular file, is larger than `max`,
/// or cannot be read.
pub fn read_limited(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, FileError> {
    let meta = require_regular(path, what)?;
    let too_large = || FileError::TooLarge {
        what: what.to_string(),
        path: path.to_path_buf(),
        max,
    };
    if meta.len() > max {
        return Err(too_large());
    }
    let read = |source| FileError::Read {
        what: what.to_string(),
        path: path.to_path_buf(),
        source,
    };
    let f = std::fs::File::open(path).map_err(read)?;
    let mut bytes = Vec::new();
    // Ask for the memory first: a machine without it gets an error.
    bytes
        .try_reserve_exact(meta.len() as usize + 1)
        .map_err(|_| FileError::OutOfMemory {
            what: what.to_string(),
            path: path.to_path_buf(),
            bytes: meta.len(),
        })?;
    // The file may grow while it is read: never take more than the limit.
    f.take(max + 1).read_to_end(&mut bytes).map_err(read)?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Temporary files and folders that exist only while a tool works, so
/// that a tool stopped by a signal removes them ([`cleanup::remove_all`]) instead
/// of leaving them behind.
pub mod cleanup {
    use std::path::PathBuf;
    use std::sync::Mutex;

    static PATHS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

    /// A path registered for removal on a signal while this lives; dropping
    /// it unregisters the path (the owner removes it in the normal way).
    #[derive(Debug)]
    pub struct Registered(PathBuf);

    impl Registered {
        /// Register `path`.
        pub fn new(path: PathBuf) -> Registered {
            PATHS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(path.clone());
            Registered(path)
        }
    }

    impl Drop for Registered {
        fn drop(&mut self) {
            let mut paths = PATHS.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(i) = paths.iter().rposition(|p| *p == self.0) {
                paths.swap_remove(i);
            }
        }
    }

    /// Remove every registered file and folder (folders with their
    /// contents): what a signal handler calls before the process exits.
    pub fn remove_all() {
        let paths = std::mem::take(&mut *PATHS.lock().unwrap_or_else(|e| e.into_inner()));
        for p in paths {
            if p.is_dir() {
                let _ = std::fs::remove_dir_all(&p);
            } else {
                let _ = std::fs::remove_file(&p);
            }
        }
    }
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
        std::fs::remove_dir_all(&dir).unwrap();
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
            .to_string()
            .contains("not a regular file"));
        assert_eq!(read_limited(&f, 3, "book").unwrap(), b"two");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
