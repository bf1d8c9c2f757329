//! UCI commands: each input line parsed into a typed [`Command`] before
//! anything acts on it, so that a malformed line changes nothing.

/// Parameters of `go`.
#[derive(Debug, Default, PartialEq)]
pub struct Go {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub mate: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
}

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
    Go(Go),
    Stop,
    PonderHit,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Display,
    Bench {
        depth: Option<u32>,
    },
    Quit,
}

/// Why a line was not understood.
#[derive(Debug, PartialEq)]
pub enum CommandError {
    Unknown(String),
    Malformed(String),
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Unknown(w) => write!(f, "unknown command '{w}'"),
            CommandError::Malformed(why) => write!(f, "malformed command: {why}"),
        }
    }
}

fn malformed(s: &str) -> CommandError {
    CommandError::Malformed(s.to_string())
}

const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

fn parse_go(rest: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let word = rest[i];
        let mut number = || -> Result<u64, CommandError> {
            i += 1;
            let v = rest
                .get(i)
                .ok_or_else(|| CommandError::Malformed(format!("go {word} needs a number")))?;
            // Negative clocks happen in real GUIs after a time loss; read them as 0.
            if let Some(neg) = v.strip_prefix('-') {
                if neg.parse::<u64>().is_ok() {
                    return Ok(0);
                }
            }
            v.parse::<u64>().map_err(|_| {
                CommandError::Malformed(format!("go {word}: '{}' is not a number", clip(v)))
            })
        };
        match word {
            "wtime" => go.wtime = Some(number()?),
            "btime" => go.btime = Some(number()?),
            "winc" => go.winc = Some(number()?),
            "binc" => go.binc = Some(number()?),
            "movestogo" => go.movestogo = Some(number()?),
            "depth" => go.depth = Some(number()?),
            "nodes" => go.nodes = Some(number()?),
            "movetime" => go.movetime = Some(number()?),
            "mate" => go.mate = Some(number()?),
            "perft" => {
                let d = number()?;
                if !(1..=20).contains(&d) {
                    return Err(malformed("go perft needs a depth from 1 to 20"));
                }
                go.perft = Some(d as u32);
            }
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i + 1 < rest.len() && !GO_KEYWORDS.contains(&rest[i + 1]) {
                    i += 1;
                    go.searchmoves.push(rest[i].to_string());
                }
            }
            other => {
                return Err(CommandError::Malformed(format!(
                    "unknown go parameter '{}'",
                    clip(other)
                )))
            }
        }
        i += 1;
    }
    Ok(go)
}

/// At most this much of a bad input is quoted back.
pub(crate) fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().nth(40).is_some() {
        out.push('…');
    }
    out
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
        "bench" => match rest.first() {
            None => Ok(Command::Bench { depth: None }),
            Some(d) => d
                .parse()
                .ok()
                .filter(|d| (1..=30).contains(d))
                .map(|d| Command::Bench { depth: Some(d) })
                .ok_or_else(|| malformed("bench takes a depth from 1 to 30")),
        },

        "position" => parse_position(&rest),
        "go" => parse_go(&rest).map(Command::Go),
        "setoption" => parse_setoption(&rest),
        other => Err(CommandError::Unknown(clip(other))),
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
        ["fen"] => return Err(malformed("position fen needs a FEN")),
        _ => {
            return Err(malformed(
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
        return Err(malformed("expected 'setoption name <id> [value <x>]'"));
    }
    let value_at = rest.iter().position(|&w| w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(malformed("option name missing"));
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value: value_at.map(|i| rest[i + 1..].join(" ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse(""), None);
        assert_eq!(parse("uci"), Some(Ok(Command::Uci)));
        assert!(matches!(
            parse("go perft 3"),
            Some(Ok(Command::Go(Go { perft: Some(3), .. })))
        ));
        assert!(matches!(
            parse("go perft x"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("go perft 0"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("go wtime"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("go wtime abc"),
            Some(Err(CommandError::Malformed(_)))
        ));
        assert!(matches!(
            parse("bogus"),
            Some(Err(CommandError::Unknown(_)))
        ));
        let Some(Ok(Command::Go(g))) =
            parse("go wtime 1000 btime -5 winc 10 movestogo 3 searchmoves e2e4 d2d4 depth 4")
        else {
            panic!("go did not parse");
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.movestogo, g.depth),
            (Some(1000), Some(0), Some(10), Some(3), Some(4))
        );
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
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
}
