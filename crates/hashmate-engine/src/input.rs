//! Line input for the protocol loops (UCI, GTP).

use std::io::BufRead;

/// One line of input.
pub enum Line<'a> {
    /// The line (lossily decoded: a line that is not UTF-8 becomes a bad
    /// command, not the end of input).
    Text(&'a str),
    /// A line longer than the limit: it was read to its end and dropped.
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
}

/// Call `f` with each line of stdin until end of input or until `f`
/// returns `false`. Lines longer than `limit` bytes are not kept in memory:
/// `f` gets [`Line::TooLong`] instead.
pub fn for_each_line(limit: usize, mut f: impl FnMut(Line<'_>) -> bool) {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let mut total = 0usize;
        let mut ended = false;
        loop {
            let chunk = match input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return,
            };
            if chunk.is_empty() {
                ended = true;
                break;
            }
            let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            total += take;
            if total <= limit {
                buf.extend_from_slice(&chunk[..take]);
            }
            input.consume(take);
            if newline {
                break;
            }
        }
        if total == 0 && ended {
            return;
        }
        let go_on = if total > limit {
            f(Line::TooLong { bytes: total })
        } else {
            f(Line::Text(&String::from_utf8_lossy(&buf)))
        };
        if !go_on || ended {
            return;
        }
    }
}
