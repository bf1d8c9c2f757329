//! Line input for the protocol loops (UCI, GTP).

use std::io::BufRead;

/// Call `f` with each line of stdin until end of input or until `f`
/// returns `false`. Lines are read as bytes and decoded lossily, so a line
/// that is not UTF-8 reaches `f` as a bad command instead of ending input.
pub fn for_each_line(mut f: impl FnMut(&str) -> bool) {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if !f(&String::from_utf8_lossy(&buf)) {
            return;
        }
    }
}
