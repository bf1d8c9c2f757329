//! The parser of one game's text, as [`PgnStream`](super::PgnStream)
//! cuts it: tag pairs, SAN movetext checked move by move, comments, NAGs
//! and variations (kept as a tree when annotations are asked for). Both
//! public readers hand their text to it only through the stream's cutter,
//! so they find the same games.

use super::{is_space, GameResult, Notes, PgnError, PgnErrorKind, PgnGame, Variation};
use crate::moves::Move;
use crate::position::Position;
#[allow(unused_imports)]
use crate::prelude::*;
use crate::text::clip;

/// Reads the games of one cut of the input.
pub(crate) struct GameParser<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    annotations: bool,
}

impl<'a> GameParser<'a> {
    /// A parser of `text`, one game's text as the stream cut it (normally
    /// one game; more when it holds games without tags), whose first line
    /// is line `line` of the input.
    pub(crate) fn new(text: &'a str, line: usize, annotations: bool) -> GameParser<'a> {
        GameParser {
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            pos: 0,
            line,
            annotations,
        }
    }

    #[inline]
    fn peek(&self) -> Option<char> {
        // PGN's syntax is ASCII: decode UTF-8 only where a byte says so.
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self.text[self.pos..].chars().next(),
            None => None,
        }
    }

    #[inline]
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if is_space(c) {
                self.bump();
            } else if c == '%' && self.at_line_start() {
                // Escape line.
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    /// Skip spaces and tabs, not line breaks.
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n'
    }

    /// Whether only whitespace stands before this point on its line (a tag
    /// line may be indented).
    fn at_indent(&self) -> bool {
        let before = &self.text.as_bytes()[..self.pos];
        match before
            .iter()
            .rposition(|&b| !is_space(char::from(b)) || b == b'\n')
        {
            None => true,
            Some(i) => before[i] == b'\n',
        }
    }

    /// After an error, skip to the next line that starts with `[` (a new
    /// game's tags), after any indent — or stay, if already at one.
    fn recover(&mut self) {
        // Tracked forward, so that a long run of spaces is crossed once.
        let mut indent = self.at_indent();
        loop {
            match self.peek() {
                None => return,
                Some('[') if indent => return,
                Some(c) => {
                    self.bump();
                    indent = c == '\n' || (indent && is_space(c));
                }
            }
        }
    }

    fn read_tag(&mut self) -> Result<(String, String), PgnErrorKind> {
        self.bump(); // '['
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if is_space(c) || c == '"' || c == ']' {
                break;
            }
            name.push(c);
            self.bump();
        }
        // A tag is one line: a missing quote or bracket is an error of
        // this line, and the next line (another tag, say) is left alone.
        self.skip_blanks();
        if self.peek() != Some('"') {
            return Err(PgnErrorKind::TagWithoutValue(name));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Err(PgnErrorKind::TagNotClosed(name)),
                // An escape never takes a line break: a tag is one line.
                Some('\\') => match self.peek() {
                    None | Some('\n') => return Err(PgnErrorKind::TagNotClosed(name)),
                    Some(c) => {
                        self.bump();
                        value.push(c);
                    }
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        self.skip_blanks();
        if self.peek() != Some(']') {
            return Err(PgnErrorKind::TagWithoutBracket(name));
        }
        self.bump();
        Ok((name, value))
    }

    /// The next token, in `t` (cleared first; a buffer reused from token to
    /// token).
    fn read_token(&mut self, t: &mut String) {
        t.clear();
        while let Some(c) = self.peek() {
            if is_space(c) || matches!(c, '{' | '}' | '(' | ')' | ';' | '[' | ']') {
                break;
            }
            t.push(c);
            self.bump();
        }
    }

    fn game(&mut self) -> Option<Result<PgnGame, PgnError>> {
        loop {
            let start = self.pos;
            let game = self.game_or_junk()?;
            if game.is_some() {
                return game;
            }
            // Text that is neither tags nor moves (a note after the last
            // result, say): skipped, not a game.
            if self.pos == start {
                self.bump();
            }
        }
    }

    /// The next game; `Some(None)` for text between games that has no tags
    /// and does not begin with a move.
    fn game_or_junk(&mut self) -> Option<Option<Result<PgnGame, PgnError>>> {
        self.skip_ws();
        self.peek()?;
        let start_line = self.line;
        let mut tags = Vec::new();
        let fail = |r: &mut Self, line: usize, kind: PgnErrorKind| {
            r.recover();
            Some(Some(Err(PgnError { line, kind })))
        };
        while self.peek() == Some('[') {
            let line = self.line;
            match self.read_tag() {
                Ok(t) => tags.push(t),
                Err(e) => return fail(self, line, e),
            }
            self.skip_ws();
        }
        let fen = tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map(|(_, v)| v.clone());
        let start = match fen {
            None => Position::startpos(),
            Some(f) => match Position::from_fen(&f) {
                Ok(p) => p,
                Err(e) => return fail(self, start_line, PgnErrorKind::Fen(e)),
            },
        };
        // The main line is frame 0; each open variation (kept only with
        // annotations) is a frame above it. Without annotations `depth`
        // counts the variations skipped.
        let mut frames = vec![Frame::new(start.clone())];
        let mut result = None;
        let mut depth = 0usize;
        let keep = self.annotations;
        let mut tok = String::new();
        loop {
            self.skip_ws();
            let line = self.line;
            let open = depth > 0 || frames.len() > 1;
            let top = frames.len() - 1;
            match self.peek() {
                None => break,
                Some('[') if open && self.at_indent() => {
                    // The next game's tags: this game's variation was never
                    // closed. Leave the tags for the next game.
                    return fail(self, line, PgnErrorKind::UnclosedVariation);
                }
                // The next game, without a result before it.
                Some('[') if !open && self.at_indent() => break,
                Some('[') if !open => {
                    return fail(self, line, PgnErrorKind::TagInMovetext);
                }
                Some('{') => {
                    self.bump();
                    let mut text = String::new();
                    let mut closed = false;
                    while let Some(c) = self.bump() {
                        if c == '}' {
                            closed = true;
                            break;
                        }
                        if keep {
                            text.push(c);
                        }
                    }
                    if !closed {
                        // It ran to the end of the game's text: to the end
                        // of the input, or to a tag line where the stream
                        // cut (docs of `stream`).
                        return fail(self, line, PgnErrorKind::UnclosedComment);
                    }
                    if keep {
                        frames[top].comment(text.trim());
                    }
                }
                Some(';') => {
                    self.bump();
                    let mut text = String::new();
                    while let Some(c) = self.bump() {
                        if c == '\n' {
                            break;
                        }
                        if keep {
                            text.push(c);
                        }
                    }
                    if keep {
                        frames[top].comment(text.trim());
                    }
                }
                Some('(') => {
                    self.bump();
                    if !keep {
                        depth += 1;
                        continue;
                    }
                    match frames[top].before.clone() {
                        Some(before) => frames.push(Frame::new(before)),
                        None => return fail(self, line, PgnErrorKind::VariationBeforeMove),
                    }
                }
                Some(')') => {
                    self.bump();
                    if !keep {
                        if depth == 0 {
                            return fail(self, line, PgnErrorKind::UnmatchedParenthesis);
                        }
                        depth -= 1;
                        continue;
                    }
                    if top == 0 {
                        return fail(self, line, PgnErrorKind::UnmatchedParenthesis);
                    }
                    let done = frames.pop().map(|f| f.line).unwrap_or_default();
                    if let Some(n) = frames[top - 1].line.notes.last_mut() {
                        n.variations.push(done);
                    }
                }
                Some(_) => {
                    self.read_token(&mut tok);
                    if tok.is_empty() {
                        let c = self.bump().unwrap_or(' ');
                        return fail(self, line, PgnErrorKind::UnexpectedCharacter(c));
                    }
                    let tok = tok.as_str();
                    if let Some(r) = GameResult::parse(tok) {
                        if !open {
                            result = Some(r);
                            self.skip_rest_of_line();
                            break;
                        }
                        continue;
                    }
                    if let Some(n) = tok.strip_prefix('$') {
                        if keep {
                            match n.parse::<u8>() {
                                Ok(n) => frames[top].nag(n),
                                Err(_) => return fail(self, line, PgnErrorKind::BadNag(clip(tok))),
                            }
                        }
                        continue;
                    }
                    // "e.p." after an en-passant capture; lone suffixes.
                    if matches!(tok, "e.p." | "ep") {
                        continue;
                    }
                    if let Some(n) = suffix_nag(tok) {
                        if keep {
                            frames[top].nag(n);
                        }
                        continue;
                    }
                    if depth > 0 {
                        continue;
                    }
                    let san = strip_move_number(tok);
                    if san.is_empty() {
                        continue;
                    }
                    let frame = &mut frames[top];
                    match frame.pos.parse_san(san) {
                        Ok(mv) => {
                            frame.play(mv, keep);
                            if keep {
                                let glyph = san.trim_start_matches(|c| c != '!' && c != '?');
                                if let Some(n) = suffix_nag(glyph) {
                                    frame.nag(n);
                                }
                            }
                        }
                        Err(_) if tags.is_empty() && top == 0 && frame.line.moves.is_empty() => {
                            // No tags and no move: not a game at all.
                            self.recover();
                            return Some(None);
                        }
                        Err(e) => {
                            let number = frame.line.moves.len() / 2 + 1;
                            let kind = PgnErrorKind::Move {
                                number,
                                in_variation: top > 0,
                                error: e,
                            };
                            return fail(self, line, kind);
                        }
                    }
                }
            }
        }
        if frames.len() > 1 || depth > 0 {
            return fail(self, self.line, PgnErrorKind::UnclosedVariation);
        }
        let main = frames.pop().map(|f| f.line).unwrap_or_default();
        let result = result
            .or_else(|| {
                tags.iter()
                    .find(|(k, _)| k == "Result")
                    .and_then(|(_, v)| GameResult::parse(v))
            })
            .unwrap_or(GameResult::Unknown);
        Some(Some(Ok(PgnGame {
            tags,
            start,
            moves: main.moves,
            comment: main.comment,
            notes: if keep { main.notes } else { Vec::new() },
            result,
            line: start_line,
        })))
    }

    /// After a result: the rest of its line is no part of the next game.
    /// (A next game starts on a line of its own: a `[` after a result on
    /// the same line is not read as its tags, so that a game is cut at the
    /// same place whether the text is read whole or line by line.)
    fn skip_rest_of_line(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }
}

/// A line being read: its position now and before its last move (where a
/// variation of that move starts), and what was read of it.
struct Frame {
    pos: Position,
    before: Option<Position>,
    line: Variation,
}

impl Frame {
    fn new(pos: Position) -> Frame {
        Frame {
            pos,
            before: None,
            line: Variation::default(),
        }
    }

    /// Play `mv`; with `annotations`, also keep the position before it
    /// (where a variation starts) and a place for its notes.
    fn play(&mut self, mv: Move, annotations: bool) {
        if annotations {
            self.before = Some(self.pos.clone());
            self.line.notes.push(Notes::default());
        }
        self.pos.play_unchecked(mv);
        self.line.moves.push(mv);
    }

    /// A comment: after the last move, or before the first. Whitespace
    /// in a comment is not significant in PGN (a writer may break its
    /// lines anywhere): runs of it are kept as one space.
    fn comment(&mut self, text: &str) {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let text = text.as_str();
        match self.line.notes.last_mut() {
            Some(n) => n.comments.push(text.to_string()),
            None => self.line.comment.push(text.to_string()),
        }
    }

    /// A NAG of the last move (ignored before the first).
    fn nag(&mut self, n: u8) {
        if let Some(notes) = self.line.notes.last_mut() {
            notes.nags.push(n);
        }
    }
}

/// The NAG of a move suffix: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6.
fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// The move of a token without its move number: `12.e4`, `12...e5` and `e4`
/// give `e4`; `12.` and `12...` give nothing. Castling written with zeros
/// (`0-0`, `0-0-0`) is not a move number.
pub(crate) fn strip_move_number(tok: &str) -> &str {
    let digits = tok.len() - tok.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &tok[digits..];
    if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else if digits > 0 && rest.is_empty() {
        ""
    } else {
        tok
    }
}

impl Iterator for GameParser<'_> {
    type Item = Result<PgnGame, PgnError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.game()
    }
}
