//! Helpers shared by the engine's integration tests: the workspace's test
//! helpers (vendored data, external programs; `hashmate-test-support`),
//! and running the binary.
#![allow(dead_code)]

#[allow(unused_imports)]
pub use hashmate_test_support::{
    data, find, fresh_dir, peer_available, perft_cases, perft_file, python_chess,
    python_chess_oracle, python_has, run_ok,
};

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run the `hashmate` binary with `args`, feeding it `stdin`.
pub fn hashmate(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashmate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary under test runs");
    // An engine may quit before reading everything; that is not an error.
    let _ = child
        .stdin
        .take()
        .expect("piped")
        .write_all(stdin.as_bytes());
    child
        .wait_with_output()
        .expect("the binary under test exits")
}

pub const GNUCHESS_BOOK: &str = "/usr/share/games/gnuchess/book.bin";

/// A path for a file named `name` in this test program's scratch folder,
/// `target/tmp/hashmate-cli-<program>` (emptied when the program starts,
/// so that runs do not pile up; [`fresh_dir`]).
pub fn tmp(name: &str) -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        // `module_path!()` here is `<test program>::common`.
        let program = module_path!().split("::").next().unwrap_or("tests");
        fresh_dir(
            env!("CARGO_TARGET_TMPDIR"),
            &format!("hashmate-cli-{program}"),
        )
    })
    .join(name)
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The binary under `sh -c "<limits>; exec hashmate ARGS"`, all three
/// streams piped, started.
pub fn spawn_limited(limits: &str, args: &[&str]) -> std::process::Child {
    Command::new("sh")
        .arg("-c")
        .arg(format!("{limits}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_hashmate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Run the binary under `limits` with `stdin` as its whole input.
pub fn limited(limits: &str, args: &[&str], stdin: &str) -> std::process::Output {
    let mut child = spawn_limited(limits, args);
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// Write `input` to a child's stdin; a broken pipe is not an error: the
/// program exited before reading (a bad argument or a check made first),
/// and its status and message are what the test judges.
pub fn write_unless_exited(stdin: &mut impl Write, input: &[u8]) {
    if let Err(e) = stdin.write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
}

pub fn no_panic(out: &std::process::Output) {
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(!all.contains("panicked"), "{all}");
}

/// Run the binary under `sh -c "<limits>; exec hashmate"`, send `input`,
/// read up to the `bestmove` line, then send `isready` and `quit`. Returns
/// everything printed (stdout, then stderr) and whether it exited cleanly.
pub fn until_bestmove(limits: &str, input: &str) -> (String, bool) {
    let mut child = spawn_limited(limits, &[]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    let mut seen = String::new();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for line in lines.by_ref() {
        let line = line.unwrap();
        seen += &line;
        seen.push('\n');
        if line.starts_with("bestmove ") {
            break;
        }
    }
    let _ = stdin.write_all(b"isready\nquit\n");
    drop(stdin);
    for line in lines {
        seen += &line.unwrap();
        seen.push('\n');
    }
    let _ = child.stderr.take().unwrap().read_to_string(&mut seen);
    let clean = child.wait().unwrap().success();
    (seen, clean)
}

#[cfg(unix)]
pub fn mkfifo(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// A small PGN for `book make`.
pub const TWO_GAMES: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
                         [Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 0-1\n";

/// A file's bytes before and after a command that must not touch it.
pub fn untouched(path: &std::path::Path, run: impl FnOnce() -> std::process::Output) -> String {
    let before = std::fs::read(path).unwrap();
    let r = run();
    no_panic(&r);
    assert!(!r.status.success(), "{}", text(&r.stderr));
    assert_eq!(
        std::fs::read(path).unwrap(),
        before,
        "{} changed",
        path.display()
    );
    text(&r.stderr)
}

/// The engine in UCI mode, driven line by line as a GUI does, with every
/// wait bounded (a hang fails the test instead of stalling it).
pub struct Session {
    pub child: std::process::Child,
    pub stdin: std::process::ChildStdin,
    pub lines: std::sync::mpsc::Receiver<String>,
    pub seen: String,
}

impl Session {
    pub fn start() -> Session {
        let mut child = spawn_piped(env!("CARGO_BIN_EXE_hashmate"));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
            seen: String::new(),
        }
    }

    /// A session past the `uci` handshake (the option list is in `seen`).
    pub fn after_uci() -> Session {
        let mut s = Session::start();
        s.send("uci");
        s.until(10, |l| l == "uciok").expect("uciok");
        s
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Read until a line satisfies `done`, for at most `secs` seconds;
    /// returns that line, or `None` on a time-out or the end of output.
    pub fn until(&mut self, secs: u64, done: impl Fn(&str) -> bool) -> Option<String> {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = end.checked_duration_since(Instant::now())?;
            let line = self.lines.recv_timeout(left).ok()?;
            self.seen += &line;
            self.seen.push('\n');
            if done(&line) {
                return Some(line);
            }
        }
    }

    /// Send `quit` and wait at most `secs` seconds for the process to end
    /// (it is killed after that, when the session is dropped).
    pub fn quit(mut self, secs: u64) -> bool {
        self.send("quit");
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for Session {
    /// A failed test must not leave an engine running (a `go perft 20`
    /// would count for ever).
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `hashmate book make` as a command, to be given its arguments: the one
/// place the tests spell the invocation.
pub fn book_make_cmd() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hashmate"));
    cmd.args(["book", "make"]);
    cmd
}

/// Run `hashmate book make ARGS` to its end, with no standard input.
pub fn book_make(args: &[&str]) -> Output {
    book_make_cmd()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary under test runs")
}

/// `hashmate book make --min-games 1 EXTRA… --pgn PGN --out OUT`: the
/// usual book of a test's few games.
pub fn make_book(pgn: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> Output {
    book_make_cmd()
        .args(["--min-games", "1"])
        .args(extra)
        .arg("--pgn")
        .arg(pgn)
        .arg("--out")
        .arg(out)
        .stdin(Stdio::null())
        .output()
        .expect("the binary under test runs")
}

/// The words of `line` as arguments (test paths hold no spaces).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Assert that `out` failed with status 2 and that its error names `what`.
pub fn refused(out: &Output, what: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(what), "expected '{what}' in: {err}");
}

/// Assert that `out` succeeded; its standard error.
pub fn succeeded(out: &Output) -> String {
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    err
}

/// `program` started with its input and output piped (its errors
/// dropped): the engine, or a peer spoken to over a protocol.
pub fn spawn_piped(program: &str) -> std::process::Child {
    Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} does not start: {e}"))
}

/// [`TWO_GAMES`] written to the scratch file `name`.
pub fn two_games(name: &str) -> PathBuf {
    let pgn = tmp(name);
    std::fs::write(&pgn, TWO_GAMES).unwrap();
    pgn
}
