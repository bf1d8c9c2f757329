//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

/// Whether a test that needs an external program may run. Missing, the test
/// is skipped with a printed reason — unless `HASHMATE_REQUIRE_PEERS=1`
/// (set by CI), which turns the absence into a failure so that CI never
/// skips silently.
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
    std::process::Command::new("python3")
        .args(["-c", "import chess"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A file of the library's vendored test data.
pub fn data(rel: &str) -> String {
    let path = format!(
        "{}/../hashmate/tests/data/{rel}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The match tool beside the repository (`../shared/tools/match.py`), if
/// this clone has it.
pub fn match_tool() -> Option<String> {
    let p = format!(
        "{}/../../../shared/tools/match.py",
        env!("CARGO_MANIFEST_DIR")
    );
    std::path::Path::new(&p).exists().then_some(p)
}
