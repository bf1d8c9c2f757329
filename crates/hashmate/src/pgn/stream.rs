//! Reading PGN from any byte stream, one game at a time.
//!
//! [`PgnStream`] reads lines from a [`BufRead`] (a file, standard input, a
//! decompressor) and cuts them into games: a line that starts with `[`
//! (after any indent) outside a comment, after the current game's
//! movetext, begins the next game. So does a line of whole tag pairs inside
//! a `{` comment: a comment left open does not swallow the games after it
//! (its game is an error, [`PgnErrorKind::UnclosedComment`], naming the
//! line where it opened). Each game's bytes are then parsed; bytes that are
//! not UTF-8 (Latin-1 names, say) become `?`-like replacement characters
//! in that game only. [`PgnReader`](super::PgnReader) is this stream over a
//! text's bytes, so the two cannot cut a text differently (the fuzz target
//! `pgn` still checks it). Memory holds one game, however large the input;
//! a "game" longer than [`MAX_GAME_BYTES`] (no tag line for that long) is
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

use super::parse::GameParser;
use super::{is_space, PgnError, PgnErrorKind, PgnGame};
#[allow(unused_imports)]
use crate::prelude::*;
use std::collections::VecDeque;
use std::io::BufRead;

pub use super::MAX_GAME_BYTES;

/// Lines longer than this (1 MiB) are read in pieces of this size, so that
/// a huge one-line comment is never held whole.
pub const MAX_PIECE_BYTES: usize = 1 << 20;

/// Read the rest of a line (at most `limit` bytes of it) into `line`,
/// its line break — `\n`, `\r\n` or a lone `\r` — written as `\n`.
/// `Ok(None)` at the end of the input with nothing read, else whether the
/// line ended (`false`: `limit` reached, or the input ended without a
/// line break). `bytes` counts the bytes consumed.
fn read_piece<R: BufRead>(
    input: &mut R,
    after_cr: &mut bool,
    line: &mut Vec<u8>,
    limit: usize,
    bytes: &mut u64,
) -> std::io::Result<Option<bool>> {
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((!line.is_empty()).then_some(false));
        }
        if std::mem::take(after_cr) && buf[0] == b'\n' {
            input.consume(1);
            *bytes += 1;
            continue;
        }
        let room = limit - line.len();
        let look = &buf[..buf.len().min(room)];
        if let Some(i) = look.iter().position(|&c| c == b'\n' || c == b'\r') {
            *after_cr = look[i] == b'\r';
            line.extend_from_slice(&look[..i]);
            line.push(b'\n');
            input.consume(i + 1);
            *bytes += i as u64 + 1;
            return Ok(Some(true));
        }
        let n = look.len();
        line.extend_from_slice(look);
        input.consume(n);
        *bytes += n as u64;
        if line.len() == limit {
            return Ok(Some(false));
        }
    }
}

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
    /// A line read but belonging to the next game, and whether it ended
    /// (a line longer than [`MAX_PIECE_BYTES`] comes in pieces).
    held: Vec<u8>,
    held_ends: bool,
    /// The next piece continues a line (it is not a line's start).
    mid_line: bool,
    /// The rest of the current line is a `;` or `%` comment or a broken
    /// tag: nothing in it counts.
    rest_ignored: bool,
    /// The last line ended with a carriage return: a `\n` right after it
    /// belongs to the same line break.
    after_cr: bool,
    /// Number of the next line to read (1-based).
    next_line: usize,
    /// Number of the input's first line (where a byte-order mark may be).
    first_line: usize,
    /// Skipping the rest of a game that was too long.
    skipping: bool,
    bytes: u64,
    /// The most bytes the line and game buffers have held together.
    peak: usize,
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
        GameParser::new(&text, self.line, annotations).collect()
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
        PgnStream::starting_at_line(input, 1)
    }

    /// A reader of `input` whose first line is line `line` of a larger
    /// input (errors and games name lines of that input).
    pub fn starting_at_line(input: R, line: usize) -> PgnStream<R> {
        PgnStream {
            input,
            chunk: Vec::new(),
            chunk_line: 1,
            has_movetext: false,
            in_comment: false,
            held: Vec::new(),
            held_ends: true,
            mid_line: false,
            rest_ignored: false,
            after_cr: false,
            next_line: line.max(1),
            first_line: line.max(1),
            skipping: false,
            bytes: 0,
            peak: 0,
            annotations: false,
            raw: VecDeque::new(),
            ready: VecDeque::new(),
            done: false,
        }
    }

    /// Keep comments, NAGs and variations, as
    /// [`PgnReader::with_annotations`](super::PgnReader::with_annotations).
    pub fn with_annotations(mut self) -> PgnStream<R> {
        self.annotations = true;
        self
    }

    /// Bytes read from the input so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// The most memory the reader's own buffers (the current line and the
    /// current game) have held at once: at most [`MAX_GAME_BYTES`] + 2 ×
    /// [`MAX_PIECE_BYTES`] plus the input's own buffer, whatever the input.
    pub fn peak_buffer_bytes(&self) -> usize {
        self.peak
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
        let mut ends = self.held_ends;
        loop {
            if line.is_empty() {
                match read_piece(
                    &mut self.input,
                    &mut self.after_cr,
                    &mut line,
                    MAX_PIECE_BYTES,
                    &mut self.bytes,
                ) {
                    Ok(None) => {
                        self.flush();
                        self.done = true;
                        return;
                    }
                    Ok(Some(ended)) => ends = ended,
                    Err(e) => {
                        self.flush();
                        self.raw.push_back(Err(PgnError {
                            line: self.next_line,
                            kind: PgnErrorKind::Read(e.to_string()),
                        }));
                        self.done = true;
                        return;
                    }
                }
            }
            let line_start = !self.mid_line;
            let first = if self.next_line == self.first_line && line_start {
                line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&line)
            } else {
                &line[..]
            };
            // A tag line may be indented, as the parser reads it. Inside a
            // comment only a line of whole tag pairs counts: there the
            // comment was left open, and the games after it are kept.
            let tag_line = line_start
                && first.iter().find(|&&b| !is_space(char::from(b))) == Some(&b'[')
                && (!self.in_comment || only_tags(first));
            if tag_line && self.has_movetext {
                // The next game begins: keep the line for it.
                self.held = line;
                self.held_ends = ends;
                self.flush();
                self.chunk_line = self.next_line;
                return;
            }
            if self.chunk.is_empty() {
                self.chunk_line = self.next_line;
            }
            if line_start {
                self.rest_ignored = false;
            }
            if !self.rest_ignored {
                let skip = line.len() - first.len();
                self.rest_ignored = self.scan(&line[skip..], line_start);
            }
            if self.chunk.len() + line.len() > MAX_GAME_BYTES && !self.skipping {
                self.raw.push_back(Err(PgnError {
                    line: self.chunk_line,
                    kind: PgnErrorKind::GameTooLong,
                }));
                self.chunk = Vec::new();
                self.skipping = true;
            }
            if !self.skipping {
                let need = self.chunk.len() + line.len();
                if need > self.chunk.capacity() {
                    // Grow by doubling, but never past the most a game may
                    // hold; memory that cannot be had skips the game.
                    let to = need.max(2 * self.chunk.capacity()).min(MAX_GAME_BYTES);
                    let grown = self
                        .chunk
                        .try_reserve_exact(to - self.chunk.len())
                        .or_else(|_| self.chunk.try_reserve_exact(need - self.chunk.len()));
                    if grown.is_err() {
                        self.raw.push_back(Err(PgnError {
                            line: self.chunk_line,
                            kind: PgnErrorKind::OutOfMemory { bytes: need },
                        }));
                        self.chunk = Vec::new();
                        self.skipping = true;
                    }
                }
                if !self.skipping {
                    self.chunk.extend_from_slice(&line);
                }
            }
            self.peak = self.peak.max(self.chunk.capacity() + line.capacity());
            self.mid_line = !ends;
            if ends {
                self.next_line += 1;
            }
            line.clear();
        }
    }

    /// Note movetext and open comments in `line` (a line, or a piece of a
    /// long one: `line_start` says whether it begins the line); in the tag
    /// section (no movetext yet) only what follows its tags. `true` when
    /// the rest of the line is to be ignored.
    fn scan(&mut self, line: &[u8], line_start: bool) -> bool {
        let mut at = 0;
        if !self.has_movetext && !self.in_comment {
            // The reader takes tags anywhere before the movetext, after any
            // whitespace: ` [Event "A"]` (indented) is a tag there too.
            while line.get(at).is_some_and(|&b| is_space(char::from(b))) {
                at += 1;
            }
            while line.get(at) == Some(&b'[') {
                match tag_end(&line[at..]) {
                    Some(n) => at += n,
                    // A broken tag: the reader skips to the next line
                    // that starts with `[`, whatever follows here.
                    None => return true,
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
                    return true;
                }
                b'%' if line_start && line.first() == Some(&b'%') => return true,
                b if is_space(char::from(b)) => {}
                _ => self.has_movetext = true,
            }
        }
        false
    }
}

/// Whether `line` holds one or more well-formed tag pairs and nothing else
/// but whitespace.
fn only_tags(line: &[u8]) -> bool {
    let mut at = 0;
    let skip = |at: &mut usize| {
        while line.get(*at).is_some_and(|&b| is_space(char::from(b))) {
            *at += 1;
        }
    };
    skip(&mut at);
    let mut tags = 0;
    while line.get(at) == Some(&b'[') {
        match tag_end(&line[at..]) {
            Some(n) => at += n,
            None => return false,
        }
        tags += 1;
        skip(&mut at);
    }
    tags > 0 && at == line.len()
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
