//! Writing to stdout as command-line tools do: a closed pipe (the reader
//! is gone) ends output quietly, and any other write error is remembered,
//! so that loops and long commands can stop instead of computing for
//! nobody or panicking in `println!`.

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError};

static CLOSED: AtomicBool = AtomicBool::new(false);
static FAILED: AtomicBool = AtomicBool::new(false);
/// Lines kept instead of printed, while a capture is on.
static CAPTURED: Mutex<Option<Vec<String>>> = Mutex::new(None);

/// Keep what [`emit`] writes instead of printing it, until
/// [`end_capture`] (for fuzzing and tests that drive the engine in
/// process).
pub fn start_capture() {
    *CAPTURED.lock().unwrap_or_else(PoisonError::into_inner) = Some(Vec::new());
}

/// End a capture; the lines emitted since [`start_capture`].
pub fn end_capture() -> Vec<String> {
    CAPTURED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
        .unwrap_or_default()
}

/// Write `text` and a newline to stdout and flush. After a failure nothing
/// more is written.
pub fn emit(text: &str) {
    if let Some(lines) = CAPTURED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_mut()
    {
        lines.extend(text.lines().map(str::to_string));
        return;
    }
    if closed() {
        return;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = writeln!(out, "{text}").and_then(|()| out.flush());
    if let Err(e) = result {
        note(&e);
    }
}

/// Remember that output failed with `e`.
pub fn note(e: &std::io::Error) {
    if e.kind() != ErrorKind::BrokenPipe {
        FAILED.store(true, Relaxed);
        eprintln!("hashmate: cannot write output: {e}");
    }
    CLOSED.store(true, Relaxed);
}

/// Has output failed or the reader gone away?
pub fn closed() -> bool {
    CLOSED.load(Relaxed)
}

/// The exit status of a command given how its output went: success for a
/// command whose reader closed the pipe (as for SIGPIPE in a shell
/// pipeline, quietly), failure (1) for any other write error.
pub fn status(ok: std::process::ExitCode) -> std::process::ExitCode {
    if FAILED.load(Relaxed) {
        std::process::ExitCode::from(1)
    } else {
        ok
    }
}

/// A `Write` over stdout that records failures like [`emit`] (for code
/// that writes reports through `impl Write`).
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if closed() {
            return Err(ErrorKind::BrokenPipe.into());
        }
        std::io::stdout().lock().write(buf).inspect_err(note)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().lock().flush().inspect_err(note)
    }
}
