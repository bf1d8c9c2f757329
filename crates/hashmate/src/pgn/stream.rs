//! Reading PGN from any byte stream, one game at a time.
//!
//! [`PgnStream`] reads lines from a [`BufRead`] (a file, standard input, a
//! decompressor) and cuts them into games: a line that starts with `[`
//! outside a comment, after the current game's movetext, begins the next
//! game. Each game's bytes are then read by [`PgnReader`] (so both
//! readers accept and refuse exactly the same games); bytes that are not
//! UTF-8 (Latin-1 names, say) become `?`-like replacement characters in
//! that game only. On text without a broken game both readers give exactly
//! the same games and lines (tested over random concatenations and by a
//! fuzz target); after a broken game, where the text reader resumes at the
//! next line that starts with `[`, the stream may resume elsewhere (it
//! keeps track of comments through the broken part), so the games after
//! an error can be cut differently. Memory holds one game, however large
//! the input; a
//! "game" longer than [`MAX_GAME_BYTES`] (no tag line for that long) is
//! reported as an error and skipped.
//!
//! ```
//! use hashmate::pgn::PgnStream;
//! let input: &[u8] = b"[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\xe9\"]\n\n1. d4 *\n";
//! let games: Vec<_> = PgnStream::new(input).collect::<Result<_, _>>()?;
//! assert_eq!(games.len(), 2);
//! assert_eq!(games[1].tag("Event"), Some("B\u{fffd}"));
//! assert_eq!(games[1].line, 5);
//! # Ok::<(), hashmate::pgn::PgnError>(())
//! ```

use super::{is_space, PgnError, PgnGame, PgnReader};
use std::collections::VecDeque;
use std::io::BufRead;

/// The longest game the stream reader holds (64 MiB).
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// Games of a PGN byte stream.
pub struct PgnStream<R> {
    input: R,
    /// The current game's bytes, and the line it starts on.
    chunk: Vec<u8>,
    chunk_line: usize,
    /// Whether the chunk has movetext (so a tag line starts a new game).
    has_movetext: bool,
    /// Inside a `{ … }` comment at the end of the chunk.
    in_comment: bool,
    /// A line read but belonging to the next game.
    held: Vec<u8>,
    /// Number of the next line to read (1-based).
    next_line: usize,
    /// Skipping the rest of a game that was too long.
    skipping: bool,
    bytes: u64,
    annotations: bool,
    /// Games cut but not parsed (their bytes and first line), or errors.
    raw: VecDeque<Result<(Vec<u8>, usize), PgnError>>,
    /// Games parsed, not yet returned.
    ready: VecDeque<Result<PgnGame, PgnError>>,
    done: bool,
}

/// One game's text as cut from the stream: its bytes (not necessarily
/// UTF-8) and the line of the input it starts on. [`GameText::parse`]
/// reads it as [`PgnStream`] would, so the parsing can be done elsewhere
/// (on other threads) than the cutting.
#[derive(Clone, Debug)]
pub struct GameText {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Line of the input where they start (1-based).
    pub line: usize,
}

impl GameText {
    /// The games (normally one) and errors of this text.
    pub fn parse(&self, annotations: bool) -> Vec<Result<PgnGame, PgnError>> {
        let text = String::from_utf8_lossy(&self.bytes);
        let reader = PgnReader::starting_at_line(&text, self.line);
        if annotations {
            reader.with_annotations().collect()
        } else {
            reader.collect()
        }
    }
}

impl<R> std::fmt::Debug for PgnStream<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgnStream")
            .field("bytes_read", &self.bytes)
            .field("line", &self.next_line)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> PgnStream<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> PgnStream<R> {
        PgnStream {
            input,
            chunk: Vec::new(),
            chunk_line: 1,
            has_movetext: false,
            in_comment: false,
            held: Vec::new(),
            next_line: 1,
            skipping: false,
            bytes: 0,
            annotations: false,
            raw: VecDeque::new(),
            ready: VecDeque::new(),
            done: false,
        }
    }

    /// Keep comments, NAGs and variations, as
    /// [`PgnReader::with_annotations`].
    pub fn with_annotations(mut self) -> PgnStream<R> {
        self.annotations = true;
        self
    }

    /// Bytes read from the input so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// The next game's text, cut but not parsed (or an error of the
    /// input: a read error, a game too long), for parsing elsewhere;
    /// `None` at the end of the input. Mixing this with the iterator
    /// skips nothing: each game is given out once.
    pub fn next_text(&mut self) -> Option<Result<GameText, PgnError>> {
        loop {
            if let Some(r) = self.raw.pop_front() {
                return Some(r.map(|(bytes, line)| GameText { bytes, line }));
            }
            if self.done {
                return None;
            }
            self.fill();
        }
    }

    /// Queue the chunk and start a new one.
    fn flush(&mut self) {
        if !self.chunk.is_empty() && !self.skipping {
            let chunk = std::mem::take(&mut self.chunk);
            self.raw.push_back(Ok((chunk, self.chunk_line)));
        }
        self.chunk.clear();
        self.has_movetext = false;
        self.in_comment = false;
        self.skipping = false;
    }

    /// Read lines until a game is complete (or the input ends).
    fn fill(&mut self) {
        let mut line = std::mem::take(&mut self.held);
        loop {
            if line.is_empty() {
                match self.input.read_until(b'\n', &mut line) {
                    Ok(0) => {
                        self.flush();
                        self.done = true;
                        return;
                    }
                    Ok(n) => self.bytes += n as u64,
                    Err(e) => {
                        self.flush();
                        self.raw.push_back(Err(PgnError {
                            line: self.next_line,
                            message: format!("cannot read the input: {e}"),
                        }));
                        self.done = true;
                        return;
                    }
                }
            }
            let first = if self.next_line == 1 {
                line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&line)
            } else {
                &line[..]
            };
            let tag_line = !self.in_comment && first.first() == Some(&b'[');
            if tag_line && self.has_movetext {
                // The next game begins: keep the line for it.
                self.held = line;
                self.flush();
                self.chunk_line = self.next_line;
                return;
            }
            if self.chunk.is_empty() {
                self.chunk_line = self.next_line;
            }
            let first_len = first.len();
            let skip = line.len() - first_len;
            self.scan(&line[skip..], tag_line);
            if self.chunk.len() + line.len() > MAX_GAME_BYTES && !self.skipping {
                self.raw.push_back(Err(PgnError {
                    line: self.chunk_line,
                    message: format!(
                        "game longer than {} MiB without a new tag line; skipped",
                        MAX_GAME_BYTES >> 20
                    ),
                }));
                self.chunk.clear();
                self.skipping = true;
            }
            if !self.skipping {
                self.chunk.extend_from_slice(&line);
            }
            self.next_line += 1;
            line.clear();
        }
    }

    /// Note movetext and open comments in `line`; on a tag line (as the
    /// reader sees it) only what follows its tags.
    fn scan(&mut self, line: &[u8], tag_line: bool) {
        let mut at = 0;
        if tag_line {
            while line.get(at) == Some(&b'[') {
                match tag_end(&line[at..]) {
                    Some(n) => at += n,
                    // A broken tag: the reader skips to the next line
                    // that starts with `[`, whatever follows here.
                    None => return,
                }
                // The reader goes on over any whitespace to the next tag.
                while line.get(at).is_some_and(|&b| is_space(char::from(b))) {
                    at += 1;
                }
            }
        }
        for &b in &line[at..] {
            if self.in_comment {
                if b == b'}' {
                    self.in_comment = false;
                }
                continue;
            }
            match b {
                b'{' => {
                    self.in_comment = true;
                    self.has_movetext = true;
                }
                b';' => {
                    self.has_movetext = true;
                    return;
                }
                b'%' if line.first() == Some(&b'%') => return,
                b if is_space(char::from(b)) => {}
                _ => self.has_movetext = true,
            }
        }
    }
}

/// The length of the well-formed tag at the start of `b` (`[Name
/// "value"]`, as the reader reads it on one line), or `None`.
fn tag_end(b: &[u8]) -> Option<usize> {
    let mut i = 1;
    while i < b.len() && !(is_space(char::from(b[i])) || b[i] == b'"' || b[i] == b']') {
        i += 1;
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if b.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    loop {
        match b.get(i)? {
            b'\\' => match b.get(i + 1)? {
                b'\n' => return None,
                _ => i += 2,
            },
            b'"' => break,
            b'\n' => return None,
            _ => i += 1,
        }
    }
    i += 1;
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    (b.get(i) == Some(&b']')).then_some(i + 1)
}

impl<R: BufRead> Iterator for PgnStream<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(game) = self.ready.pop_front() {
                return Some(game);
            }
            match self.next_text()? {
                Ok(text) => self.ready.extend(text.parse(self.annotations)),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}
