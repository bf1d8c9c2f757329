//! The UCI options: one table from which both the `uci` listing and the
//! checking of `setoption` are derived, so the two can never disagree.

use std::fmt;

/// The type and range of an option, as UCI declares it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// Default value.
        default: bool,
    },
    /// An action without a value.
    Button,
    /// Free text (a file name).
    Text {
        /// Default value (`<empty>` prints as UCI's empty string).
        default: &'static str,
    },
}

/// Which option a [`Spec`] is: what `setoption` dispatches on, so that
/// an option the table lacks cannot be named, and one the table has
/// cannot go unhandled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// `Hash`: the transposition table's size in MB.
    Hash,
    /// `Threads`: search threads.
    Threads,
    /// `Clear Hash`: forget the table and the histories.
    ClearHash,
    /// `MultiPV`: principal variations reported.
    MultiPv,
    /// `Ponder`: the GUI may let the engine ponder.
    Ponder,
    /// `Move Overhead`: the GUI's latency in ms.
    MoveOverhead,
    /// `UCI_Chess960`: castling written as king takes rook.
    Chess960,
    /// `UCI_ShowWDL`: win/draw/loss estimates in `info` lines.
    ShowWdl,
    /// `UCI_LimitStrength`: play at the strength `UCI_Elo` names.
    LimitStrength,
    /// `UCI_Elo`: the strength played when it is limited.
    Elo,
    /// `Skill Level`: a strength from 0 to 20, where `UCI_LimitStrength`
    /// is off.
    SkillLevel,
    /// `OwnBook`: play from the opening book.
    OwnBook,
    /// `BookFile`: the Polyglot book.
    BookFile,
    /// `BookBestMove`: the book's best move, not a weighted pick.
    BookBestMove,
    /// `UseNNUE`: evaluate with the network instead of the classical
    /// evaluation.
    UseNnue,
    /// `EvalFile`: the network file (`<internal>`: the embedded one).
    EvalFile,
    /// `SyzygyPath`: directories of Syzygy tables, `:`-separated.
    SyzygyPath,
    /// `SyzygyProbeDepth`: the least depth probed at the piece limit.
    SyzygyProbeDepth,
    /// `SyzygyProbeLimit`: the most pieces probed.
    SyzygyProbeLimit,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses are draws.
    Syzygy50MoveRule,
    /// A search parameter of a tuning build (`--features tune`): the
    /// index of its row in [`TUNABLES`](crate::search::params::TUNABLES).
    #[cfg(feature = "tune")]
    Param(usize),
}

/// One option: its name as the GUI shows it, and its kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Which option this is.
    pub id: OptionId,
    /// The name, case as printed; `setoption` matches it in any case.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: Kind,
}

/// Every option the engine has.
pub const OPTIONS: &[Spec] = &[
    Spec {
        id: OptionId::Hash,
        name: "Hash",
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: 65_536,
        },
    },
    Spec {
        id: OptionId::Threads,
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    Spec {
        id: OptionId::ClearHash,
        name: "Clear Hash",
        kind: Kind::Button,
    },
    Spec {
        id: OptionId::MultiPv,
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    Spec {
        id: OptionId::Ponder,
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: OptionId::MoveOverhead,
        name: "Move Overhead",
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
    },
    Spec {
        id: OptionId::Chess960,
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: OptionId::ShowWdl,
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: OptionId::LimitStrength,
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: OptionId::Elo,
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: crate::strength::ELO_MIN as i64,
            min: crate::strength::ELO_MIN as i64,
            max: crate::strength::ELO_MAX as i64,
        },
    },
    Spec {
        id: OptionId::SkillLevel,
        name: "Skill Level",
        kind: Kind::Spin {
            default: crate::strength::SKILL_MAX as i64,
            min: 0,
            max: crate::strength::SKILL_MAX as i64,
        },
    },
    Spec {
        id: OptionId::OwnBook,
        name: "OwnBook",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: OptionId::BookFile,
        name: "BookFile",
        kind: Kind::Text { default: "<empty>" },
    },
    Spec {
        id: OptionId::BookBestMove,
        name: "BookBestMove",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: OptionId::UseNnue,
        name: "UseNNUE",
        kind: Kind::Check { default: true },
    },
    Spec {
        id: OptionId::EvalFile,
        name: "EvalFile",
        kind: Kind::Text {
            default: hashmate_data::net::INTERNAL,
        },
    },
    Spec {
        id: OptionId::SyzygyPath,
        name: "SyzygyPath",
        kind: Kind::Text { default: "<empty>" },
    },
    Spec {
        id: OptionId::SyzygyProbeDepth,
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    },
    Spec {
        id: OptionId::SyzygyProbeLimit,
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
    },
    Spec {
        id: OptionId::Syzygy50MoveRule,
        name: "Syzygy50MoveRule",
        kind: Kind::Check { default: true },
    },
];

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// For a spin option.
    Int(i64),
    /// For a check option.
    Bool(bool),
    /// For a button.
    Press,
    /// For a string option (`<empty>` and nothing give "").
    Text(String),
}

impl fmt::Display for Spec {
    /// The `option name … type …` line of the `uci` listing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match self.kind {
            Kind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => write!(f, "check default {default}"),
            Kind::Button => write!(f, "button"),
            Kind::Text { default } => write!(f, "string default {default}"),
        }
    }
}

use super::command::clip;

/// Why a `setoption` was refused; the option keeps its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name (quoted, clipped).
    Unknown(String),
    /// A spin option without `value`.
    NeedsValue(&'static str),
    /// A spin option's value that is no integer in its range.
    OutOfRange {
        /// The option.
        name: &'static str,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// The value given (quoted, clipped).
        got: String,
    },
    /// A check option's value other than `true` or `false`.
    NotBool(&'static str),
    /// Applying a valid value failed (a table that cannot be allocated,
    /// a book that cannot be read): the reason.
    Failed(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::NeedsValue(name) => write!(f, "option {name} needs a value"),
            OptionError::OutOfRange {
                name,
                min,
                max,
                got,
            } => write!(
                f,
                "option {name} takes an integer from {min} to {max}, not '{got}'"
            ),
            OptionError::NotBool(name) => write!(f, "option {name} takes true or false"),
            OptionError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for OptionError {}

/// Every option: the table, and in a tuning build the search parameters
/// as spin options after it.
pub fn all() -> Vec<Spec> {
    #[allow(unused_mut)]
    let mut specs = OPTIONS.to_vec();
    #[cfg(feature = "tune")]
    specs.extend(
        crate::search::params::TUNABLES
            .iter()
            .enumerate()
            .map(|(i, t)| Spec {
                id: OptionId::Param(i),
                name: t.name,
                kind: Kind::Spin {
                    default: i64::from(t.default),
                    min: i64::from(t.min),
                    max: i64::from(t.max),
                },
            }),
    );
    specs
}

/// Look up `name` (any case) and check `value` against its kind.
///
/// # Errors
/// [`OptionError`]: an unknown option, or a value of the wrong type or out
/// of range.
pub fn parse(name: &str, value: Option<&str>) -> Result<(Spec, Value), OptionError> {
    let spec = all()
        .into_iter()
        .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| OptionError::Unknown(clip(name)))?;
    let value = value.map(str::trim);
    let parsed = match spec.kind {
        Kind::Spin { min, max, .. } => {
            let v = value.ok_or(OptionError::NeedsValue(spec.name))?;
            v.parse::<i64>()
                .ok()
                .filter(|x| (min..=max).contains(x))
                .map(Value::Int)
                .ok_or_else(|| OptionError::OutOfRange {
                    name: spec.name,
                    min,
                    max,
                    got: clip(v),
                })?
        }
        Kind::Check { .. } => match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Value::Bool(true),
            Some("false") => Value::Bool(false),
            _ => return Err(OptionError::NotBool(spec.name)),
        },
        Kind::Button => Value::Press,
        Kind::Text { .. } => {
            let v = value.unwrap_or("");
            Value::Text(if v == "<empty>" {
                String::new()
            } else {
                v.to_string()
            })
        }
    };
    Ok((spec, parsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_and_checking_agree() {
        for spec in OPTIONS {
            let line = spec.to_string();
            assert!(line.starts_with(&format!("option name {} type ", spec.name)));
            let good = match spec.kind {
                Kind::Spin { default, .. } => Some(default.to_string()),
                Kind::Check { default } => Some(default.to_string()),
                Kind::Button => None,
                Kind::Text { default } => Some(default.to_string()),
            };
            // The default the listing prints is accepted.
            assert!(parse(spec.name, good.as_deref()).is_ok(), "{line}");
            assert!(parse(&spec.name.to_ascii_uppercase(), good.as_deref()).is_ok());
            if let Kind::Spin { min, max, .. } = spec.kind {
                assert!(parse(spec.name, Some(&(min - 1).to_string())).is_err());
                assert!(parse(spec.name, Some(&(max + 1).to_string())).is_err());
                assert!(parse(spec.name, Some("lots")).is_err());
            }
        }
        assert!(parse("Nonsense", Some("1")).is_err());
        // Each id names one row, each name one id.
        for (i, a) in OPTIONS.iter().enumerate() {
            for b in &OPTIONS[i + 1..] {
                assert!(
                    a.id != b.id && !a.name.eq_ignore_ascii_case(b.name),
                    "{a:?} {b:?}"
                );
            }
        }
        assert_eq!(
            parse("BookFile", Some("<empty>")).unwrap().1,
            Value::Text(String::new())
        );
    }
}
