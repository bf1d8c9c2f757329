//! EPD: Extended Position Description, the line format of test suites
//! (WAC, the Strategic Test Suite, Bratko–Kopec) and opening collections.
//!
//! A line is the first four FEN fields (placement, side to move, castling,
//! en-passant square) followed by operations, each an opcode, its operands
//! and a `;`: `bm Qg6;`, `id "WAC.001";`, `c0 "a comment";`, `ce 250;`,
//! `pv e4 e5 Nf3;`, `hmvc 12;`, `fmvn 30;`. [`Epd`] keeps every operation,
//! known or not, in order, and writes them back as read ([`Display`]);
//! `hmvc` and `fmvn` also set the position's clocks.
//!
//! ```
//! use hashmate::epd::Epd;
//! let line = r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#;
//! let epd: Epd = line.parse()?;
//! assert_eq!(epd.get("id"), Some("WAC.001"));
//! let best = epd.moves("bm")?;
//! assert_eq!(epd.position().to_san(best[0])?, "Qg6");
//! assert_eq!(epd.to_string(), line);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Display`]: core::fmt::Display

use crate::fen::FenError;
use crate::moves::{Move, MoveParseError};
use crate::position::Position;
#[allow(unused_imports)]
use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

/// One operand as written: a quoted string or a bare token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A bare token (a move, a number, a word).
    Token(String),
    /// A quoted string, without its quotes (`\"` and `\\` unescaped).
    Text(String),
}

impl Operand {
    /// The operand's text.
    pub fn as_str(&self) -> &str {
        match self {
            Operand::Token(s) | Operand::Text(s) => s,
        }
    }
}

/// One operation: an opcode and its operands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The opcode (`bm`, `id`, `c0`, …).
    pub opcode: String,
    /// The operands, in order.
    pub operands: Vec<Operand>,
    /// The operands' texts joined by spaces (what [`Epd::get`] returns).
    text: String,
}

impl Operation {
    /// An operation of `opcode` with `operands`.
    pub fn new(opcode: &str, operands: Vec<Operand>) -> Operation {
        let text = operands
            .iter()
            .map(Operand::as_str)
            .collect::<Vec<_>>()
            .join(" ");
        Operation {
            opcode: opcode.to_string(),
            operands,
            text,
        }
    }
}

/// Why a line is not EPD, or an operation not what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdError {
    /// Fewer than the four position fields; names the first missing one.
    MissingField(&'static str),
    /// The position fields are not a valid position.
    Position(FenError),
    /// An opcode that does not start with a letter or holds other than
    /// letters, digits and `_` (the text found).
    Opcode(String),
    /// A quoted operand without its closing quote (the opcode).
    Unterminated(String),
    /// `hmvc` or `fmvn` whose operand is not a number (the opcode).
    Number(String),
    /// [`Epd::moves`] of an opcode the line does not have.
    NoOperation(String),
    /// A move operand that is not legal where it stands.
    Move {
        /// The opcode.
        opcode: String,
        /// The operand.
        operand: String,
        /// Why it is not a move here.
        error: MoveParseError,
    },
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::MissingField(what) => write!(f, "EPD: the {what} field is missing"),
            EpdError::Position(e) => write!(f, "EPD position: {e}"),
            EpdError::Opcode(t) => write!(f, "EPD: '{t}' is not an opcode"),
            EpdError::Unterminated(op) => {
                write!(f, "EPD: operation {op}: a quoted string is not closed")
            }
            EpdError::Number(op) => write!(f, "EPD: operation {op} needs a number"),
            EpdError::NoOperation(op) => write!(f, "EPD: no operation {op}"),
            EpdError::Move {
                opcode,
                operand,
                error,
            } => write!(f, "EPD: operation {opcode}, move '{operand}': {error}"),
        }
    }
}

impl core::error::Error for EpdError {}

/// A position and its operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    position: Position,
    /// The four position fields as they will be written.
    fields: String,
    operations: Vec<Operation>,
}

impl Epd {
    /// `position` with no operations.
    pub fn new(position: Position) -> Epd {
        let fen = position.to_string();
        let fields = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        Epd {
            position,
            fields,
            operations: Vec::new(),
        }
    }

    /// The position (its clocks from `hmvc`/`fmvn` when present, else 0
    /// and 1).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Every operation, in order.
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    /// The operand text of the first operation `opcode` (operands joined
    /// by a space, quotes removed), if the line has one.
    pub fn get(&self, opcode: &str) -> Option<&str> {
        self.operations
            .iter()
            .find(|o| o.opcode == opcode)
            .map(|o| o.text.as_str())
    }

    /// Add an operation after the others (or replace the first one of the
    /// same opcode).
    pub fn set(&mut self, operation: Operation) {
        match self
            .operations
            .iter_mut()
            .find(|o| o.opcode == operation.opcode)
        {
            Some(o) => *o = operation,
            None => self.operations.push(operation),
        }
    }

    /// The moves of operation `opcode` resolved in the position, SAN or
    /// UCI: each from the position itself for `bm`, `am` and any other
    /// opcode, one after the other for `pv` (a principal variation).
    ///
    /// # Errors
    /// [`EpdError::NoOperation`] when the line has no such operation;
    /// [`EpdError::Move`] naming the first operand that is not a legal
    /// move where it stands.
    pub fn moves(&self, opcode: &str) -> Result<Vec<Move>, EpdError> {
        let op = self
            .operations
            .iter()
            .find(|o| o.opcode == opcode)
            .ok_or_else(|| EpdError::NoOperation(opcode.to_string()))?;
        let sequential = opcode == "pv";
        let mut pos = self.position.clone();
        let mut out = Vec::with_capacity(op.operands.len());
        for operand in &op.operands {
            let text = operand.as_str();
            let mv = pos
                .parse_san(text)
                .or_else(|e| pos.parse_uci(text).map_err(|_| e))
                .map_err(|error| EpdError::Move {
                    opcode: opcode.to_string(),
                    operand: text.to_string(),
                    error,
                })?;
            if sequential {
                pos.play_unchecked(mv);
            }
            out.push(mv);
        }
        Ok(out)
    }
}

/// The operations after the four fields: `(opcode, operands)` in order.
fn parse_operations(text: &str) -> Result<Vec<Operation>, EpdError> {
    let mut ops = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ';') {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(ops);
        }
        let mut opcode = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == ';' {
                break;
            }
            opcode.push(c);
            chars.next();
        }
        let valid = opcode.starts_with(|c: char| c.is_ascii_alphabetic())
            && opcode
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(EpdError::Opcode(opcode));
        }
        let mut operands = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek() {
                None | Some(';') => break,
                Some('"') => {
                    chars.next();
                    let mut s = String::new();
                    loop {
                        match chars.next() {
                            None => return Err(EpdError::Unterminated(opcode)),
                            Some('\\') if matches!(chars.peek(), Some('"' | '\\')) => {
                                s.extend(chars.next());
                            }
                            Some('"') => break,
                            Some(c) => s.push(c),
                        }
                    }
                    operands.push(Operand::Text(s));
                }
                Some(_) => {
                    let mut s = String::new();
                    while let Some(&c) = chars.peek() {
                        if c.is_whitespace() || c == ';' {
                            break;
                        }
                        s.push(c);
                        chars.next();
                    }
                    operands.push(Operand::Token(s));
                }
            }
        }
        ops.push(Operation::new(&opcode, operands));
    }
}

impl FromStr for Epd {
    type Err = EpdError;

    fn from_str(line: &str) -> Result<Epd, EpdError> {
        let mut rest = line.trim();
        let mut fields = Vec::with_capacity(4);
        for name in ["piece placement", "side to move", "castling", "en passant"] {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                return Err(EpdError::MissingField(name));
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        let operations = parse_operations(rest)?;
        let clock = |op: &str, default: u32| -> Result<u32, EpdError> {
            match operations.iter().find(|o| o.opcode == op) {
                None => Ok(default),
                Some(o) => o.text.parse().map_err(|_| EpdError::Number(op.to_string())),
            }
        };
        let (hmvc, fmvn) = (clock("hmvc", 0)?, clock("fmvn", 1)?);
        let fen = format!("{} {hmvc} {}", fields.join(" "), fmvn.max(1));
        let position = Position::from_fen(&fen).map_err(EpdError::Position)?;
        Ok(Epd {
            position,
            fields: fields.join(" "),
            operations,
        })
    }
}

impl fmt::Display for Epd {
    /// The four fields, then each operation as `opcode operands;` (quoted
    /// operands with `"` and `\` escaped), separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fields)?;
        for op in &self.operations {
            write!(f, " {}", op.opcode)?;
            for operand in &op.operands {
                match operand {
                    Operand::Token(t) => write!(f, " {t}")?,
                    Operand::Text(t) => {
                        let escaped = t.replace('\\', "\\\\").replace('"', "\\\"");
                        write!(f, " \"{escaped}\"")?;
                    }
                }
            }
            f.write_str(";")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_are_kept_in_order_and_written_back() {
        let line = r#"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; am Qxe5+ Nf6; id "mate \"in\" 1"; c0 "Scholar's mate"; ce 32000; xyz_1 a b "c d"; hmvc 4; fmvn 4;"#;
        let epd: Epd = line.parse().unwrap();
        let codes: Vec<&str> = epd.operations().iter().map(|o| o.opcode.as_str()).collect();
        assert_eq!(
            codes,
            ["bm", "am", "id", "c0", "ce", "xyz_1", "hmvc", "fmvn"]
        );
        assert_eq!(epd.get("id"), Some("mate \"in\" 1"));
        assert_eq!(epd.get("xyz_1"), Some("a b c d"));
        assert_eq!(epd.position().halfmove_clock(), 4);
        assert_eq!(epd.position().fullmove_number(), 4);
        assert_eq!(epd.to_string(), line);
        assert_eq!(epd.to_string().parse::<Epd>().unwrap(), epd);
        assert_eq!(epd.moves("bm").unwrap().len(), 1);
        let err = epd.moves("am").unwrap_err();
        assert!(err.to_string().contains("Nf6"), "{err}");
    }

    #[test]
    fn a_principal_variation_is_played_in_turn() {
        let epd: Epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - pv e4 e5 Nf3 Nc6;"
            .parse()
            .unwrap();
        assert_eq!(epd.moves("pv").unwrap().len(), 4);
        let err = epd.moves("bm").unwrap_err();
        assert_eq!(err, EpdError::NoOperation("bm".into()));
    }

    #[test]
    fn bad_lines_name_the_problem() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert_eq!(
            "".parse::<Epd>(),
            Err(EpdError::MissingField("piece placement"))
        );
        assert_eq!(
            format!("{start} w KQkq").parse::<Epd>(),
            Err(EpdError::MissingField("en passant"))
        );
        assert!(matches!(
            format!("{start} x KQkq - bm e4;").parse::<Epd>(),
            Err(EpdError::Position(_))
        ));
        assert_eq!(
            format!("{start} w KQkq - id \"open;").parse::<Epd>(),
            Err(EpdError::Unterminated("id".into()))
        );
        assert_eq!(
            format!("{start} w KQkq - 9x 1;").parse::<Epd>(),
            Err(EpdError::Opcode("9x".into()))
        );
        assert_eq!(
            format!("{start} w KQkq - hmvc many;").parse::<Epd>(),
            Err(EpdError::Number("hmvc".into()))
        );
        let epd: Epd = format!("{start} w KQkq - bm Nf6;").parse().unwrap();
        let err = epd.moves("bm").unwrap_err();
        assert!(err.to_string().contains("'Nf6'"), "{err}");
    }
}
