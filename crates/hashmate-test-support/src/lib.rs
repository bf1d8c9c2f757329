//! Helpers shared by the data-driven tests of the hashmate crates (a
//! dev-dependency of each, never published): the test data vendored in
//! `crates/hashmate/tests/data`, the rule for tests that need an
//! external program, and scratch folders that do not pile up.

use std::path::{Path, PathBuf};

/// A fresh, empty folder `name` under `base` for a test program's files,
/// emptied at the start of each run so that runs do not pile up.
/// Integration tests pass Cargo's `env!("CARGO_TARGET_TMPDIR")`
/// (`target/tmp`, which `cargo clean` empties) rather than the system's
/// temporary folder. A failed run's files stay there for a look until the
/// next run. `cargo test` runs one test program at a time, so a name per
/// program (or per test) is enough; two `cargo test`s of one checkout at
/// once would share it.
pub fn fresh_dir(base: &str, name: &str) -> PathBuf {
    let dir = Path::new(base).join(name);
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => panic!("cannot empty the scratch folder {}: {e}", dir.display()),
    }
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot make the scratch folder {}: {e}", dir.display()));
    dir
}

/// The folder of the vendored test data (beside this crate, in the
/// hashmate crate's tests).
fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../hashmate/tests/data")
}

/// The text of a file of the test data.
pub fn data(rel: &str) -> String {
    let path = data_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// (FEN, [(depth, count)]) of a perft EPD file of the test data.
pub fn perft_file(rel: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    data(rel)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p.split_once(' ').unwrap();
                    (d[1..].parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

/// Whether a test that needs an external program may run. `available` says
/// whether the program is there. Missing, the test is skipped with a
/// printed reason — unless `HASHMATE_REQUIRE_PEERS=1` (set by CI), which
/// turns the absence into a failure so that CI never skips silently.
pub fn peer_available(what: &str, available: bool) -> bool {
    if available {
        return true;
    }
    if std::env::var("HASHMATE_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
        panic!("{what} is required (HASHMATE_REQUIRE_PEERS=1) but missing");
    }
    eprintln!("skipped: {what} is not installed (set HASHMATE_REQUIRE_PEERS=1 to require it)");
    false
}

/// The first of `paths` that exists.
pub fn find(paths: &[&'static str]) -> Option<&'static str> {
    paths
        .iter()
        .copied()
        .find(|p| std::path::Path::new(p).exists())
}

/// Does `python3 -c "import chess"` work?
pub fn python_chess() -> bool {
    python_has("chess")
}

/// Does `python3 -c "import MODULE"` work?
pub fn python_has(module: &str) -> bool {
    std::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run `cmd` to its end; panics with its standard error when it fails.
pub fn run_ok(cmd: &mut std::process::Command) -> std::process::Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The standard output of python-chess script `script` (a path) run with
/// `args`, or `None` (skipped, see [`peer_available`]) without
/// python-chess.
pub fn python_chess_oracle(script: &str, args: &[&str]) -> Option<String> {
    if !peer_available("python-chess", python_chess()) {
        return None;
    }
    let out = run_ok(std::process::Command::new("python3").arg(script).args(args));
    Some(String::from_utf8(out.stdout).expect("the oracle prints UTF-8"))
}

/// (FEN, depth, count) of every perft case of the three suites (standard,
/// the larger suite, Chess960) whose count is at most `max_nodes`.
pub fn perft_cases(max_nodes: u64) -> Vec<(String, u32, u64)> {
    [
        "perft/standard.epd",
        "perft/suite.epd",
        "perft/chess960.epd",
    ]
    .iter()
    .flat_map(|file| perft_file(file))
    .flat_map(|(fen, counts)| {
        counts
            .into_iter()
            .filter(move |c| c.1 <= max_nodes)
            .map(move |(depth, count)| (fen.clone(), depth, count))
    })
    .collect()
}
