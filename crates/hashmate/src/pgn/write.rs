//! Writing PGN in export format.
//!
//! The Seven Tag Roster first, in its order (`Event`, `Site`, `Date`,
//! `Round`, `White`, `Black`, `Result`; `?`, `????.??.??` or the game's
//! result where a tag is not given), then `SetUp "1"` and `FEN` when the
//! game does not start from the standard position, then the other tags in
//! the order given (a tag whose name is not a PGN symbol is left out); tag
//! values escaped (`\"`, `\\`). The movetext: move
//! numbers (`1.`, and `1...` for a Black move that follows a comment, a
//! variation or the start), SAN with `+`/`#`, NAGs as `$n`, comments in
//! braces (one that holds a `}` as a `;` comment to the end of its line),
//! variations in parentheses, the result last; lines of at most 79
//! characters, broken between tokens (a comment's words are tokens too,
//! but a line inside a comment never starts with `[`, so that it cannot
//! be read as a tag line).

use super::{GameResult, Notes, Variation};
use crate::moves::Move;
use crate::position::Position;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::square::Color;

/// The Seven Tag Roster, in export order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Longest line the writer produces.
pub const MAX_LINE: usize = 79;

/// `value` with `\` and `"` escaped, as a tag value is written.
pub fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | '"') {
            s.push('\\');
        }
        // A tag value is one line: line breaks become spaces.
        s.push(if c == '\n' || c == '\r' { ' ' } else { c });
    }
    s
}

/// Tokens joined by spaces into lines of at most [`MAX_LINE`] characters.
struct Lines {
    out: String,
    width: usize,
    /// The next token follows the last without a space (after `(`).
    glue: bool,
}

impl Lines {
    fn push(&mut self, token: &str) {
        let space = !std::mem::take(&mut self.glue);
        self.put(token, space);
    }

    /// Append `token`, after a space if `space`, on a new line if it does
    /// not fit.
    fn put(&mut self, token: &str, space: bool) {
        let len = token.chars().count();
        let gap = usize::from(space && self.width > 0);
        if self.width > 0 && self.width + gap + len > MAX_LINE {
            self.out.push('\n');
            self.width = 0;
        } else if gap == 1 {
            self.out.push(' ');
            self.width += 1;
        }
        self.out.push_str(token);
        self.width += len;
    }

    /// A word of a comment after its first. A line inside a comment never
    /// starts with `[`: a line of tag pairs there would be read as the next
    /// game's tags (the reader's recovery from a comment left open), so
    /// such a word stays on its line, past the width if need be.
    fn comment_word(&mut self, word: &str) {
        if word.starts_with('[') && self.width > 0 {
            self.out.push(' ');
            self.out.push_str(word);
            self.width += 1 + word.chars().count();
        } else {
            self.push(word);
        }
    }

    fn comment(&mut self, text: &str) {
        if text.contains('}') {
            // `}` would end a brace comment early and cannot be escaped:
            // a rest-of-line comment holds it (and may pass the width).
            let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
            self.put(&format!(";{line}"), true);
            self.out.push('\n');
            self.width = 0;
            return;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [] => self.push("{}"),
            [one] => self.push(&format!("{{{one}}}")),
            [first, middle @ .., last] => {
                self.push(&format!("{{{first}"));
                middle.iter().for_each(|w| self.comment_word(w));
                self.comment_word(&format!("{last}}}"));
            }
        }
    }
}

/// Write a line of moves from `start`: numbers, SAN, notes, variations. A
/// Black move gets its number (`n...`) at the start of the line and after
/// a comment or a variation.
fn write_line(lines: &mut Lines, start: &Position, line: &Variation) {
    for c in &line.comment {
        lines.comment(c);
    }
    let mut pos = start.clone();
    let mut number_next = true;
    for (i, &mv) in line.moves.iter().enumerate() {
        let n = pos.fullmove_number();
        match pos.side_to_move() {
            Color::White => lines.push(&format!("{n}.")),
            Color::Black if number_next => lines.push(&format!("{n}...")),
            Color::Black => {}
        }
        // The moves were checked legal when they were read or played; a
        // hand-made illegal one is written in UCI notation, not dropped.
        let san = pos.to_san(mv).unwrap_or_else(|_| mv.to_string());
        lines.push(&san);
        number_next = false;
        if let Some(notes) = line.notes.get(i) {
            number_next = write_notes(lines, &pos, notes);
        }
        pos.play_unchecked(mv);
    }
}

/// Write a move's NAGs, comments and variations (`before`: the position
/// the move was played from); whether the next move needs its number.
fn write_notes(lines: &mut Lines, before: &Position, notes: &Notes) -> bool {
    for n in &notes.nags {
        lines.push(&format!("${n}"));
    }
    for c in &notes.comments {
        lines.comment(c);
    }
    for v in &notes.variations {
        lines.push("(");
        lines.glue = true;
        write_line(lines, before, v);
        lines.glue = false;
        lines.put(")", false);
    }
    !notes.comments.is_empty() || !notes.variations.is_empty()
}

/// A game in PGN export format: `tags` (any order; the Seven Tag Roster is
/// put first and completed), the movetext of `line` from `start`, and
/// `result` (which also sets the `Result` tag).
pub fn write_pgn(
    tags: &[(String, String)],
    start: &Position,
    line: &Variation,
    result: GameResult,
) -> String {
    let mut out = String::new();
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => result.as_str(),
            "Date" => tag(name).unwrap_or("????.??.??"),
            _ => tag(name).unwrap_or("?"),
        };
        out += &format!("[{name} \"{}\"]\n", escape(value));
    }
    let standard = *start == Position::startpos();
    if !standard {
        out += "[SetUp \"1\"]\n";
        out += &format!("[FEN \"{}\"]\n", escape(&start.to_string()));
    }
    for (k, v) in tags {
        let special = SEVEN_TAG_ROSTER.contains(&k.as_str()) || k == "SetUp" || k == "FEN";
        // A tag name is a PGN symbol; a tag whose name is not is left out.
        let symbol = k.starts_with(|c: char| c.is_ascii_alphanumeric())
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_+#=:-".contains(c));
        if !special && symbol {
            out += &format!("[{k} \"{}\"]\n", escape(v));
        }
    }
    out.push('\n');
    let mut lines = Lines {
        out: String::new(),
        width: 0,
        glue: false,
    };
    write_line(&mut lines, start, line);
    lines.push(result.as_str());
    out += &lines.out;
    out.push_str("\n\n");
    out
}

impl super::PgnGame {
    /// The game in PGN export format, with its comments, NAGs and
    /// variations when it was read with them.
    pub fn to_pgn(&self) -> String {
        let line = Variation {
            comment: self.comment.clone(),
            moves: self.moves.clone(),
            notes: self.notes.clone(),
        };
        write_pgn(&self.tags, &self.start, &line, self.result)
    }
}

/// `moves` as a line without notes.
pub fn plain(moves: &[Move]) -> Variation {
    Variation {
        comment: Vec::new(),
        moves: moves.to_vec(),
        notes: Vec::new(),
    }
}
