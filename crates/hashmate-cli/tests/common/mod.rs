//! Helpers shared by the engine's integration tests: the workspace's test
//! helpers (vendored data, external programs; `hashmate-test-support`),
//! and running the binary.
#![allow(dead_code)]

#[allow(unused_imports)]
pub use hashmate_test_support::{data, find, peer_available, perft_file, python_chess};

use std::io::Write;
use std::process::{Command, Output, Stdio};

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
