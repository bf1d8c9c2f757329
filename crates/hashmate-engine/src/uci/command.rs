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
    /// What was skipped or read loosely, for `info string` lines.
    pub notes: Vec<String>,
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
    /// `eval`: the static evaluations of the current position.
    Eval,
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

/// Read a `go` parameter's number as GUIs write it: a whole number; a
/// negative clock (after a time loss) as 0, and any other negative number
/// as 0 with a note; a fraction cut to its whole part. `Err` holds why the text is no number (or one past the integer
/// range).
fn go_number(word: &str, text: &str) -> Result<(u64, Option<String>), String> {
    if let Ok(v) = text.parse::<u64>() {
        return Ok((v, None));
    }
    if text
        .strip_prefix('-')
        .is_some_and(|t| t.parse::<u64>().is_ok())
    {
        // Real GUIs send negative clocks after a time loss: 0, without a
        // note. A negative depth, node count or move time is no clock.
        let clock = matches!(word, "wtime" | "btime" | "winc" | "binc");
        let note = (!clock).then(|| format!("go {word}: '{}' is negative; read as 0", clip(text)));
        return Ok((0, note));
    }
    match text.parse::<f64>() {
        // A clock past the integer range is as unreadable as a word.
        Ok(v) if v < u64::MAX as f64 => {
            // `as` saturates: a negative number reads as 0.
            let read = v as u64;
            Ok((
                read,
                Some(format!("go {word}: read '{}' as {read}", clip(text))),
            ))
        }
        // Digits alone, past the range: say so, not "no number".
        _ if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() => Err(format!(
            "go {word}: '{}' is past the largest number read ({}); ignored",
            clip(text),
            u64::MAX
        )),
        _ => Err(format!(
            "go {word}: '{}' is not a number; ignored",
            clip(text)
        )),
    }
}

/// Parse the words after `go`. Never fails: as in Stockfish, an unknown
/// word is skipped and a parameter without a readable value is left out,
/// each with a note for the GUI (in [`Go::notes`]), and the search runs
/// with what remains — every `go` gets its `bestmove`.
fn parse_go(rest: &[&str]) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let word = rest[i];
        i += 1;
        let value = match word {
            "infinite" => {
                go.infinite = true;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                continue;
            }
            "searchmoves" => {
                while i < rest.len() && !GO_KEYWORDS.contains(&rest[i]) {
                    go.searchmoves.push(rest[i].to_string());
                    i += 1;
                }
                continue;
            }
            w if GO_KEYWORDS.contains(&w) => match rest.get(i) {
                Some(text) if !GO_KEYWORDS.contains(text) => {
                    i += 1;
                    match go_number(word, text) {
                        Ok((v, note)) => {
                            go.notes.extend(note);
                            v
                        }
                        Err(note) => {
                            go.notes.push(note);
                            continue;
                        }
                    }
                }
                _ => {
                    go.notes.push(format!("go {word} needs a number; ignored"));
                    continue;
                }
            },
            other => {
                go.notes
                    .push(format!("unknown go parameter '{}' skipped", clip(other)));
                continue;
            }
        };
        match word {
            "wtime" => go.wtime = Some(value),
            "btime" => go.btime = Some(value),
            "winc" => go.winc = Some(value),
            "binc" => go.binc = Some(value),
            "movestogo" => go.movestogo = Some(value),
            "depth" => go.depth = Some(value),
            "nodes" => go.nodes = Some(value),
            "movetime" => go.movetime = Some(value),
            "mate" => go.mate = Some(value),
            _ => {
                // "perft"
                if (1..=20).contains(&value) {
                    go.perft = Some(value as u32);
                } else {
                    go.notes
                        .push("go perft needs a depth from 1 to 20; ignored".to_string());
                }
            }
        }
    }
    go
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
        "eval" => Ok(Command::Eval),
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
        "go" => Ok(Command::Go(parse_go(&rest))),
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
        // A `go` line always parses: what cannot be read is noted and left out.
        for (line, notes) in [
            ("go perft x", 1),
            ("go perft 0", 1),
            ("go wtime", 1),
            ("go wtime abc", 1),
            ("go depth", 1),
            ("go depth abc", 1),
            ("go bogus depth 3", 1),
            ("go depth wtime 5", 1),
        ] {
            let Some(Ok(Command::Go(g))) = parse(line) else {
                panic!("{line} did not parse");
            };
            assert_eq!(g.notes.len(), notes, "{line}: {:?}", g.notes);
            assert_eq!(g.perft, None, "{line}");
        }
        let Some(Ok(Command::Go(g))) =
            parse("go wtime 1000.5 btime 99999999999999999999999 zzz winc 7")
        else {
            panic!("go did not parse");
        };
        assert_eq!((g.wtime, g.btime, g.winc), (Some(1000), None, Some(7)));
        assert_eq!(g.notes.len(), 3, "{:?}", g.notes);
        assert!(
            g.notes[1].contains("'99999999999999999999999' is past the largest number read"),
            "{:?}",
            g.notes
        );
        assert!(
            g.notes[2].contains("unknown go parameter 'zzz'"),
            "{:?}",
            g.notes
        );
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
