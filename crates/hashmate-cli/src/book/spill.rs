//! Counts spilled to disk when `book make --memory` bounds them: sorted
//! runs in a private temporary directory, merged back in (key, move)
//! order at the end.

use super::counts::CountTable;
use super::make::Count;
use hashmate_data::files::cleanup;
use std::io::Read;

/// Bytes of one counts record: key, move, wins, draws, losses.
pub(crate) const COUNT_RECORD: usize = 8 + 2 + 4 * 3;

/// Counts spilled to disk: sorted runs of counts records (the counts
/// file's record layout, no header) in a private temporary directory,
/// removed when the spill is dropped (also after an error).
#[derive(Debug)]
pub struct Spill {
    dir: std::path::PathBuf,
    /// The directory is removed on a signal too ([`cleanup`]).
    _registered: cleanup::Registered,
    pub(crate) runs: std::sync::Mutex<Vec<std::path::PathBuf>>,
    next: std::sync::atomic::AtomicUsize,
    /// A map holding more entries than this is written out.
    pub(crate) limit: usize,
    /// The memory bound, bytes: the merge's buffers fit in half of it.
    memory: usize,
}

/// Runs merged at once at most: more are merged in passes, so that the
/// open files and their buffers stay bounded however many runs there are.
pub(crate) const FAN_IN: usize = 16;

/// Bytes a counted (position, move) costs in memory, conservatively: a
/// 16-byte record, the unmerged buffer (up to a quarter more) and the
/// room a merge makes.
const BYTES_PER_COUNT: usize = 24;

impl Spill {
    /// A spill for `memory_mb` MB shared by `maps` maps, in `parent`.
    ///
    /// # Errors
    /// When the temporary directory cannot be made.
    pub fn new(parent: &std::path::Path, memory_mb: usize, maps: usize) -> Result<Spill, String> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        if !parent.is_dir() {
            return Err(format!(
                "cannot make the spill directory in '{}': not an existing folder (--tmp-dir)",
                parent.display()
            ));
        }
        let dir = parent.join(format!("hashmate-book-{}-{stamp}", std::process::id()));
        std::fs::create_dir(&dir)
            .map_err(|e| format!("cannot make the spill directory {}: {e}", dir.display()))?;
        Ok(Spill {
            _registered: cleanup::Registered::new(dir.clone()),
            dir,
            runs: std::sync::Mutex::new(Vec::new()),
            next: std::sync::atomic::AtomicUsize::new(0),
            limit: (memory_mb << 20) / BYTES_PER_COUNT / maps.max(1),
            memory: memory_mb << 20,
        })
    }

    /// Bytes of each run's read buffer in a merge: [`FAN_IN`] of them fit
    /// in half the memory bound (between 4 and 64 KiB each).
    pub(crate) fn buffer_bytes(&self) -> usize {
        (self.memory / (2 * FAN_IN)).clamp(4 << 10, 64 << 10)
    }

    /// The runs, merged in passes of at most [`FAN_IN`] into longer runs
    /// until no more than that many remain.
    ///
    /// # Errors
    /// When a run cannot be read or written.
    pub(crate) fn final_runs(&self) -> Result<Vec<std::path::PathBuf>, String> {
        use std::io::Write;
        let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner()).clone();
        while runs.len() > FAN_IN {
            let mut next = Vec::with_capacity(runs.len().div_ceil(FAN_IN));
            for group in runs.chunks(FAN_IN) {
                if let [one] = group {
                    next.push(one.clone());
                    continue;
                }
                let n = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let path = self.dir.join(format!("run-{n:06}"));
                let merged = Merged::open(group, self.buffer_bytes())?;
                let write = || -> Result<(), String> {
                    let file = std::fs::File::create(&path).map_err(|e| e.to_string())?;
                    let mut w = std::io::BufWriter::with_capacity(self.buffer_bytes(), file);
                    for r in merged {
                        let ((key, mv), wdl) = r?;
                        w.write_all(&record_bytes(key, mv, wdl))
                            .map_err(|e| e.to_string())?;
                    }
                    w.into_inner()
                        .map_err(|e| e.into_error().to_string())?
                        .sync_all()
                        .map_err(|e| e.to_string())
                };
                write().map_err(|e| {
                    format!("cannot merge spilled counts into {}: {e}", path.display())
                })?;
                for done in group {
                    let _ = std::fs::remove_file(done);
                }
                next.push(path);
            }
            runs = next;
        }
        *self.runs.lock().unwrap_or_else(|e| e.into_inner()) = runs.clone();
        Ok(runs)
    }

    /// Write `stats` as a sorted run and empty it.
    pub(crate) fn write_run(&self, stats: &mut CountTable) -> Result<(), String> {
        use std::io::Write;
        if let Some(bytes) = stats.out_of_memory() {
            // Its counts are incomplete: no run may hold them.
            return Err(format!(
                "not enough memory for the counts ({bytes} bytes more), even with --memory"
            ));
        }
        let n = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = self.dir.join(format!("run-{n:06}"));
        let mut write = || -> std::io::Result<()> {
            let mut w = std::io::BufWriter::new(std::fs::File::create(&path)?);
            for ((key, mv), wdl) in stats.sorted_counts() {
                w.write_all(&record_bytes(key, mv, wdl))?;
            }
            w.into_inner().map_err(|e| e.into_error())?.sync_all()
        };
        let written = write();
        stats.clear();
        written.map_err(|e| format!("cannot spill counts to {}: {e}", path.display()))?;
        self.runs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(path);
        Ok(())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One counts record's bytes: key, move, wins, draws, losses.
pub(crate) fn record_bytes(key: u64, mv: u16, wdl: [u32; 3]) -> [u8; COUNT_RECORD] {
    let mut r = [0u8; COUNT_RECORD];
    r[..8].copy_from_slice(&key.to_le_bytes());
    r[8..10].copy_from_slice(&mv.to_le_bytes());
    for (i, x) in wdl.iter().enumerate() {
        r[10 + 4 * i..14 + 4 * i].copy_from_slice(&x.to_le_bytes());
    }
    r
}

/// The record of `r`'s bytes.
fn parse_record(r: &[u8]) -> ((u64, u16), [u32; 3]) {
    let u32_at = |i: usize| u32::from_le_bytes([r[i], r[i + 1], r[i + 2], r[i + 3]]);
    let mut key = [0u8; 8];
    key.copy_from_slice(&r[..8]);
    (
        (u64::from_le_bytes(key), u16::from_le_bytes([r[8], r[9]])),
        [u32_at(10), u32_at(14), u32_at(18)],
    )
}

/// A run's next count, ordered by (key, move) then run.
type Head = std::cmp::Reverse<((u64, u16), usize, [u32; 3])>;

/// Sorted runs merged into one sorted sequence, equal (key, move) added.
pub(crate) struct Merged {
    readers: Vec<std::io::BufReader<std::fs::File>>,
    heap: std::collections::BinaryHeap<Head>,
}

impl Merged {
    pub(crate) fn open(runs: &[std::path::PathBuf], buffer: usize) -> Result<Merged, String> {
        let mut m = Merged {
            readers: Vec::new(),
            heap: std::collections::BinaryHeap::new(),
        };
        for (i, run) in runs.iter().enumerate() {
            let f = std::fs::File::open(run).map_err(|e| format!("{}: {e}", run.display()))?;
            m.readers.push(std::io::BufReader::with_capacity(buffer, f));
            m.refill(i)?;
        }
        Ok(m)
    }

    fn refill(&mut self, i: usize) -> Result<(), String> {
        let mut r = [0u8; COUNT_RECORD];
        match self.readers[i].read_exact(&mut r) {
            Ok(()) => {
                let (k, wdl) = parse_record(&r);
                self.heap.push(std::cmp::Reverse((k, i, wdl)));
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(()),
            Err(e) => Err(format!("cannot read a spilled run: {e}")),
        }
    }
}

impl Iterator for Merged {
    type Item = Result<Count, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let std::cmp::Reverse((key, i, mut wdl)) = self.heap.pop()?;
        if let Err(e) = self.refill(i) {
            return Some(Err(e));
        }
        while let Some(std::cmp::Reverse((k, _, _))) = self.heap.peek() {
            if *k != key {
                break;
            }
            let Some(std::cmp::Reverse((_, j, more))) = self.heap.pop() else {
                break;
            };
            for (x, y) in wdl.iter_mut().zip(more) {
                *x = x.saturating_add(y);
            }
            if let Err(e) = self.refill(j) {
                return Some(Err(e));
            }
        }
        Some(Ok((key, wdl)))
    }
}
