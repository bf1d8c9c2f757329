//! The UCI front end: parse each line into a typed command, apply it, and
//! report problems as `info string` without ever losing the current state.
//!
//! A line that cannot be parsed, a bad FEN, or an illegal move in
//! `position` leaves the previous position in place.

use hashmate::{Move, Position};
use std::io::{BufRead, Write};

/// One parsed UCI command.
#[derive(Debug, PartialEq)]
pub enum Command {
    Uci,
    IsReady,
    UciNewGame,
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    GoPerft(u32),
    Go(Vec<String>),
    Stop,
    PonderHit,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Display,
    Quit,
}

/// Why a line was not understood.
#[derive(Debug, PartialEq)]
pub enum CommandError {
    Unknown(String),
    Malformed(&'static str),
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Unknown(w) => write!(f, "unknown command '{w}'"),
            CommandError::Malformed(why) => write!(f, "malformed command: {why}"),
        }
    }
}

/// Parse one line of input (`None` for a blank line).
pub fn parse(line: &str) -> Option<Result<Command, CommandError>> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    Some(match first {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "position" => parse_position(&rest),
        "go" => match rest.as_slice() {
            ["perft", d] => d
                .parse()
                .ok()
                .filter(|&d| (1..=20).contains(&d))
                .map(Command::GoPerft)
                .ok_or(CommandError::Malformed(
                    "go perft needs a depth from 1 to 20",
                )),
            ["perft", ..] => Err(CommandError::Malformed(
                "go perft needs a depth from 1 to 20",
            )),
            _ => Ok(Command::Go(rest.iter().map(|s| s.to_string()).collect())),
        },
        "setoption" => parse_setoption(&rest),
        other => Err(CommandError::Unknown(other.chars().take(40).collect())),
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let fen = match setup {
        ["startpos"] => None,
        ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
        ["fen"] => return Err(CommandError::Malformed("position fen needs a FEN")),
        _ => {
            return Err(CommandError::Malformed(
                "expected 'position startpos' or 'position fen <FEN>'",
            ))
        }
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|s| s.to_string()).collect(),
    })
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(CommandError::Malformed(
            "expected 'setoption name <id> [value <x>]'",
        ));
    }
    let value_at = rest.iter().position(|&w| w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(CommandError::Malformed("option name missing"));
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value: value_at.map(|i| rest[i + 1..].join(" ")),
    })
}

/// Engine state owned by the UCI loop.
pub struct Engine {
    pub position: Position,
    /// Keys of the game so far, for repetition detection.
    pub history: Vec<u64>,
    pub chess960: bool,
}

impl Engine {
    pub fn new() -> Engine {
        let position = Position::startpos();
        Engine {
            history: vec![position.key()],
            position,
            chess960: false,
        }
    }

    /// Set up a position; on any error the old one stays.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        let mut pos = match fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f).map_err(|e| e.to_string())?,
        };
        let mut history = vec![pos.key()];
        for (i, text) in moves.iter().enumerate() {
            let mv: Move = pos
                .parse_uci(text)
                .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
            pos.play(mv);
            history.push(pos.key());
        }
        self.position = pos;
        self.history = history;
        Ok(())
    }
}

pub const NAME: &str = concat!("hashmate ", env!("CARGO_PKG_VERSION"));

/// Run the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{NAME} by the hashmate developers");
    let _ = out.flush();
    let mut engine = Engine::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let cmd = match parse(&line) {
            None => continue,
            Some(Err(e)) => {
                let _ = writeln!(out, "info string {e}");
                let _ = out.flush();
                continue;
            }
            Some(Ok(cmd)) => cmd,
        };
        match cmd {
            Command::Uci => {
                let _ = writeln!(out, "id name {NAME}");
                let _ = writeln!(out, "id author the hashmate developers");
                let _ = writeln!(out, "option name UCI_Chess960 type check default false");
                let _ = writeln!(out, "uciok");
            }
            Command::IsReady => {
                let _ = writeln!(out, "readyok");
            }
            Command::UciNewGame => {
                engine.set_position(None, &[]).ok();
            }
            Command::Position { fen, moves } => {
                if let Err(e) = engine.set_position(fen.as_deref(), &moves) {
                    let _ = writeln!(out, "info string {e}; position unchanged");
                }
            }
            Command::GoPerft(depth) => {
                let pos = engine.position.clone();
                let c960 = engine.chess960 || pos.is_chess960();
                crate::perft_cmd::report(&pos, depth, true, c960, None, &mut out);
            }
            Command::Go(_) => {
                let _ = writeln!(out, "info string search is not available yet");
                let mv = engine.position.legal_moves().first().copied();
                let text = mv.map_or("0000".to_string(), |m| {
                    engine.position.to_uci(m, engine.chess960)
                });
                let _ = writeln!(out, "bestmove {text}");
            }
            Command::Stop | Command::PonderHit => {}
            Command::SetOption { name, value } => {
                match (name.to_ascii_lowercase().as_str(), value.as_deref()) {
                    ("uci_chess960", Some("true")) => engine.chess960 = true,
                    ("uci_chess960", Some("false")) => engine.chess960 = false,
                    ("uci_chess960", v) => {
                        let _ = writeln!(
                            out,
                            "info string UCI_Chess960 takes true or false, not {v:?}"
                        );
                    }
                    _ => {
                        let _ = writeln!(out, "info string unknown option '{name}'");
                    }
                }
            }
            Command::Display => {
                let _ = writeln!(out, "{}", engine.position);
            }
            Command::Quit => break,
        }
        let _ = out.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("uci"), Some(Ok(Command::Uci)));
        assert_eq!(parse("go perft 3"), Some(Ok(Command::GoPerft(3))));
        assert!(matches!(
            parse("go perft x"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("go perft 0"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("bogus"),
            Some(Err(CommandError::Unknown(_)))
        ));
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Some(Ok(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }))
        );
        assert!(matches!(parse("position"), Some(Err(_))));
        assert!(matches!(parse("position fen"), Some(Err(_))));
        assert_eq!(
            parse("setoption name Clear Hash"),
            Some(Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
    }

    #[test]
    fn bad_position_keeps_state() {
        let mut e = Engine::new();
        e.set_position(None, &["e2e4".into()]).unwrap();
        let before = e.position.clone();
        assert!(e
            .set_position(None, &["e2e4".into(), "e2e4".into()])
            .is_err());
        assert!(e
            .set_position(Some("8/8/8/8/8/8/8/8 w - - 0 1"), &[])
            .is_err());
        assert_eq!(e.position, before);
        assert_eq!(e.history.len(), 2);
    }
}
