//! A PGN reader: tag pairs, SAN movetext, comments, variations, NAGs and
//! results, checked move by move against the rules.
//!
//! [`PgnReader`] walks a text game by game, [`PgnStream`] any byte stream
//! (a file, a decompressor), holding one game in memory. Both cut the input
//! into games with the same code — the reader *is* the stream over the
//! text's bytes — and parse each game with the same parser, so they cannot
//! disagree. A game whose movetext has an illegal or unreadable move yields
//! a [`PgnError`] naming the line and the problem ([`PgnErrorKind`]); the
//! reader then goes on with the next game, so one bad game never loses the
//! rest of a file. By default comments, NAGs and
//! variations (`( … )`) are skipped, as opening-book building only follows
//! the main line; [`PgnReader::with_annotations`] keeps them as a tree
//! ([`Notes`] per move, each [`Variation`] a line of its own with its own
//! notes), every variation move checked legal in its position.
//! [`PgnGame::to_pgn`] and [`Game::to_pgn`](crate::Game::to_pgn) write PGN
//! export format back ([`write`](mod@write)).
//!
//! ```
//! use hashmate::pgn::{GameResult, PgnReader};
//!
//! let text = r#"[Event "Casual"]
//! [Result "1-0"]
//!
//! 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? (3... g6) 4. Qxf7# 1-0
//!
//! [Event "Broken"]
//! [Result "*"]
//!
//! 1. e4 e5 2. Ke3 *
//! "#;
//! let mut games = PgnReader::new(text);
//! let first = games.next().unwrap()?;
//! assert_eq!(first.tag("Event"), Some("Casual"));
//! assert_eq!((first.moves.len(), first.result), (7, GameResult::WhiteWins));
//! let second = games.next().unwrap();
//! assert!(second.unwrap_err().to_string().contains("Ke3")); // illegal: named, skipped
//! assert!(games.next().is_none());
//! # Ok::<(), hashmate::pgn::PgnError>(())
//! ```

use crate::fen::FenError;
use crate::moves::{Move, MoveParseError};
use crate::position::Position;
#[allow(unused_imports)]
use crate::prelude::*;
use core::fmt;

mod parse;
pub mod stream;
pub mod write;

pub use stream::{GameText, PgnStream};

/// The result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl GameResult {
    /// The result token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

/// What annotates one move: numeric annotation glyphs (`$1`, or a
/// suffix such as `!?` read as its glyph), comments after it, and the
/// variations that replace it (alternatives from the position before it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// NAGs in order (`$1` = 1; `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    pub nags: Vec<u8>,
    /// Comments after the move: the text without the braces, whitespace
    /// runs as one space.
    pub comments: Vec<String>,
    /// Alternatives to the move, in order.
    pub variations: Vec<Variation>,
}

impl Notes {
    /// Nothing noted.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comments.is_empty() && self.variations.is_empty()
    }
}

/// A line of moves with its notes: a variation, or (in [`PgnGame`]) the
/// main line's notes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// Comments before the first move.
    pub comment: Vec<String>,
    /// The moves, each legal after the ones before.
    pub moves: Vec<Move>,
    /// One entry per move.
    pub notes: Vec<Notes>,
}

/// One game: tags, main line, and (when read
/// [`with_annotations`](PgnReader::with_annotations)) its comments, NAGs
/// and variations.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The tag pairs, in file order.
    pub tags: Vec<(String, String)>,
    /// The start position (from a `FEN` tag, else the standard one).
    pub start: Position,
    /// The main line, every move checked legal.
    pub moves: Vec<Move>,
    /// Comments before the first move (only when annotations are kept).
    pub comment: Vec<String>,
    /// One entry per main-line move when annotations are kept, else empty.
    pub notes: Vec<Notes>,
    /// The result at the end of the movetext.
    pub result: GameResult,
    /// Line of the file where the game starts (1-based).
    pub line: usize,
}

impl PgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// PGN's whitespace: space, tab, line feed, carriage return, vertical tab
/// and form feed (ASCII only: a no-break space is not a separator, so text
/// is cut into tokens the same way byte by byte as character by character).
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}

/// The longest game the stream reader holds (64 MiB); a longer one is
/// skipped with [`PgnErrorKind::GameTooLong`].
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// A game that could not be read: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based line of the problem (for an unclosed comment, the line
    /// where it opened).
    pub line: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// Why a game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The input could not be read (the operating system's message).
    Read(String),
    /// More than [`MAX_GAME_BYTES`] without a new tag line.
    GameTooLong,
    /// A game whose text could not be held: memory for `bytes` bytes
    /// could not be had.
    OutOfMemory {
        /// Bytes the game needed so far.
        bytes: usize,
    },
    /// A tag without a quoted value (the tag's name).
    TagWithoutValue(String),
    /// A tag whose value runs past its line (the tag's name).
    TagNotClosed(String),
    /// A tag without its `]` (the tag's name).
    TagWithoutBracket(String),
    /// The `FEN` tag is not a legal position.
    Fen(FenError),
    /// A `[` after movetext on the same line.
    TagInMovetext,
    /// A `{` comment still open where the game's text ends: at the end of
    /// the input, or at a tag line where the next game was found.
    UnclosedComment,
    /// A variation still open where the game ends.
    UnclosedVariation,
    /// A `(` before the first move of its line.
    VariationBeforeMove,
    /// A `)` with no variation open.
    UnmatchedParenthesis,
    /// A character that no token starts with.
    UnexpectedCharacter(char),
    /// A `$` glyph that is not a number from 0 to 255 (the token).
    BadNag(String),
    /// A move that is not legal or not readable.
    Move {
        /// The move number where it stands.
        number: usize,
        /// Whether it is in a variation rather than the main line.
        in_variation: bool,
        /// Why it was refused.
        error: MoveParseError,
    },
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Read(e) => write!(f, "cannot read the input: {e}"),
            PgnErrorKind::GameTooLong => write!(
                f,
                "game longer than {} MiB without a new tag line",
                MAX_GAME_BYTES >> 20
            ),
            PgnErrorKind::OutOfMemory { bytes } => write!(
                f,
                "not enough memory to hold the game ({bytes} bytes so far)"
            ),
            PgnErrorKind::TagWithoutValue(name) => {
                write!(f, "tag [{name} …] has no quoted value")
            }
            PgnErrorKind::TagNotClosed(name) => write!(f, "tag [{name} …] is not closed"),
            PgnErrorKind::TagWithoutBracket(name) => {
                write!(f, "tag [{name} …] is missing its ']'")
            }
            PgnErrorKind::Fen(e) => write!(f, "FEN tag: {e}"),
            PgnErrorKind::TagInMovetext => {
                write!(f, "'[' inside the movetext (a tag starts a line of its own)")
            }
            PgnErrorKind::UnclosedComment => write!(
                f,
                "comment '{{' not closed before the end of the game (the next tag line or the end of the input)"
            ),
            PgnErrorKind::UnclosedVariation => {
                write!(f, "variation not closed at the end of the game")
            }
            PgnErrorKind::VariationBeforeMove => write!(f, "variation before any move"),
            PgnErrorKind::UnmatchedParenthesis => {
                write!(f, "')' without a variation to close")
            }
            PgnErrorKind::UnexpectedCharacter(c) => write!(f, "unexpected character {c:?}"),
            PgnErrorKind::BadNag(t) => write!(f, "bad NAG {t}"),
            PgnErrorKind::Move {
                number,
                in_variation,
                error,
            } => {
                let which = if *in_variation { " (in a variation)" } else { "" };
                write!(f, "move {number}{which}: {error}")
            }
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl core::error::Error for PgnError {}

/// Iterates over the games of a PGN text: the [`PgnStream`] over its bytes,
/// so that a text and a stream of the same bytes give the same games.
pub struct PgnReader<'a> {
    stream: PgnStream<&'a [u8]>,
}

impl fmt::Debug for PgnReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PgnReader")
            .field("offset", &self.stream.bytes_read())
            .finish_non_exhaustive()
    }
}

impl<'a> PgnReader<'a> {
    /// A reader of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader::starting_at_line(text, 1)
    }

    /// A reader of `text` whose first line is line `line` of a larger
    /// input (errors and games name lines of that input).
    pub fn starting_at_line(text: &'a str, line: usize) -> PgnReader<'a> {
        PgnReader {
            stream: PgnStream::starting_at_line(text.as_bytes(), line),
        }
    }

    /// Keep comments, NAGs and variations ([`PgnGame::notes`]); a variation
    /// with an illegal move then makes the game an error, as one in the
    /// main line does.
    ///
    /// ```
    /// use hashmate::pgn::PgnReader;
    /// let text = "{Start} 1. e4 $1 {best by test} (1. d4 d5) e5 2. Nf3 1-0";
    /// let game = PgnReader::new(text).with_annotations().next().unwrap()?;
    /// assert_eq!(game.comment, ["Start"]);
    /// assert_eq!(game.notes[0].nags, [1]);
    /// assert_eq!(game.notes[0].comments, ["best by test"]);
    /// assert_eq!(game.notes[0].variations[0].moves.len(), 2);
    /// assert!(game.to_pgn().contains("1. e4 $1 {best by test} (1. d4 d5) 1... e5"));
    /// # Ok::<(), hashmate::pgn::PgnError>(())
    /// ```
    pub fn with_annotations(self) -> PgnReader<'a> {
        PgnReader {
            stream: self.stream.with_annotations(),
        }
    }

    /// Bytes read so far (for progress reports): up to the end of the
    /// game last returned, and at most one line beyond it.
    pub fn offset(&self) -> usize {
        self.stream.bytes_read() as usize
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.stream.next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"[Event "Test"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6 3. d4) 3. Bb5 $1 a6 ; rest of line
4. Ba4 1-0

[Event "Second"]
[Result "1/2-1/2"]

1.d4 d5 2.c4 e6 1/2-1/2
"#;

    #[test]
    fn reads_games_with_comments_and_variations() {
        let games: Vec<_> = PgnReader::new(TWO).collect();
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.moves.len(), 7);
        assert_eq!(g.result, GameResult::WhiteWins);
        assert_eq!(g.tag("White"), Some("A"));
        let g2 = games[1].as_ref().unwrap();
        assert_eq!(g2.moves.len(), 4);
        assert_eq!(g2.result, GameResult::Draw);
        assert_eq!(g2.line, 9); // its [Event tag is the ninth line
    }

    #[test]
    fn bad_game_is_reported_and_skipped() {
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n[Event \"y\"]\n\n1. d4 d5 0-1\n";
        let games: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(games.len(), 2);
        let err = games[0].as_ref().unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.to_string().contains("Ke3"), "{err}");
        assert!(
            matches!(err.kind, PgnErrorKind::Move { number: 2, .. }),
            "{err}"
        );
        assert_eq!(games[1].as_ref().unwrap().moves.len(), 2);
    }

    #[test]
    fn an_unclosed_variation_keeps_the_next_games_tags() {
        // The second game starts from its FEN: losing that tag would replay
        // its moves from the standard position.
        let text = "[Event \"a\"]\n\n1. e4 (1. d4 d5 1-0\n\n\
                    [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[Event \"b\"]\n\n1. e4 Kd7 *\n";
        let games: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].as_ref().unwrap_err().kind,
            PgnErrorKind::UnclosedVariation
        );
        let g = games[1].as_ref().unwrap();
        assert_eq!(g.tag("Event"), Some("b"));
        assert_eq!(g.start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(g.moves.len(), 2);
    }

    #[test]
    fn lenient_notation_is_read() {
        let text = "[Event \"x\"]\n\n1. e4 d5 2. exd5 e5 3. dxe6 e.p. Nf6 4. Bb5+- c6 \
                    5. Nf3 Bd7 6. 0-0 Qe7 7. d3 Na6 8. Bd2 0-0-0 1-0 and some words\n\n\
                    a note after the game\n\n[Event \"y\"]\n\n1. d4 *\n";
        let games: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(games.len(), 2, "{games:?}");
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.moves.len(), 16);
        assert!(g.moves[10].is_castling() && g.moves[15].is_castling());
        assert_eq!(g.result, GameResult::WhiteWins);
        assert_eq!(games[1].as_ref().unwrap().moves.len(), 1);
        assert_eq!(parse::strip_move_number("12...Nf3"), "Nf3");
        assert_eq!(parse::strip_move_number("12"), "");
        assert_eq!(parse::strip_move_number("0-0-0"), "0-0-0");
    }

    #[test]
    fn an_indented_tag_line_starts_a_game() {
        // Indented tags are tags, and an indented tag line after movetext
        // begins the next game, as an unindented one does; a `[` later in
        // a line of movetext is still an error.
        let text = "  [Event \"a\"]\n\t[Site \"b\"]\n1. e4 e5\n  [Event \"c\"]\n1. d4 *\n\n\
                    [Event \"d\"]\n1. c4 [Event \"e\"]\n\n [Event \"f\"]\n1. Nf3 *\n";
        let got: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(got.len(), 4, "{got:?}");
        let a = got[0].as_ref().unwrap();
        assert_eq!(
            (a.tag("Event"), a.tag("Site"), a.moves.len()),
            (Some("a"), Some("b"), 2)
        );
        let c = got[1].as_ref().unwrap();
        assert_eq!((c.tag("Event"), c.moves.len(), c.line), (Some("c"), 1, 4));
        let d = got[2].as_ref().unwrap_err();
        assert_eq!(d.line, 8);
        assert!(d.to_string().contains("'[' inside the movetext"), "{d}");
        let f = got[3].as_ref().unwrap();
        assert_eq!((f.tag("Event"), f.moves.len(), f.line), (Some("f"), 1, 10));
    }

    #[test]
    fn an_unclosed_comment_is_named_and_the_games_after_it_are_kept() {
        let text =
            "[Event \"a\"]\n\n1. e4 { never closed e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n\n\
                    [Event \"c\"] [Site \"d\"]\n1. c4 *\n";
        let got: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(got.len(), 3, "{got:?}");
        let e = got[0].as_ref().unwrap_err();
        assert_eq!((e.line, &e.kind), (3, &PgnErrorKind::UnclosedComment));
        assert!(
            e.to_string().starts_with("line 3: comment '{' not closed"),
            "{e}"
        );
        let b = got[1].as_ref().unwrap();
        assert_eq!((b.tag("Event"), b.moves.len(), b.line), (Some("b"), 2, 5));
        assert_eq!(got[2].as_ref().unwrap().tag("Site"), Some("d"));
        // Open at the end of the input.
        let got: Vec<_> = PgnReader::new("1. e4\n{open\n e5").collect();
        assert_eq!(got.len(), 1);
        let e = got[0].as_ref().unwrap_err();
        assert_eq!((e.line, &e.kind), (2, &PgnErrorKind::UnclosedComment));
        // A comment that only mentions brackets, or a tag among other
        // words, is still a comment.
        let text = "1. e4 {see [the note]\n[Event \"x\"] and more\n} e5 1-0\n";
        let got: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].as_ref().unwrap().moves.len(), 2);
    }

    #[test]
    fn hostile_inputs_do_not_panic() {
        for text in [
            "",
            "[",
            "[Event",
            "[Event \"unterminated",
            "1. e4 (((",
            ")",
            "1. e4 { never closed",
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4",
            "1. ♞f3 e5",
            "\u{feff}1. e4 e5 *",
        ] {
            for g in PgnReader::new(text) {
                let _ = g.map(|g| g.moves.len()).map_err(|e| e.to_string());
            }
        }
    }

    #[test]
    fn a_nul_byte_is_named_and_only_its_game_is_lost() {
        let text = "[Event \"a\"]\n\n1. e4 \0 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n";
        let got: Vec<_> = PgnReader::new(text).collect();
        assert_eq!(got.len(), 2);
        let err = got[0].as_ref().unwrap_err().to_string();
        assert!(err.contains("line 3") && err.contains("'\\u{0}'"), "{err}");
        assert_eq!(got[1].as_ref().unwrap().moves.len(), 2);
    }
}
