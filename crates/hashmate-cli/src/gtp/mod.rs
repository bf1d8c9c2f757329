//! `hashmate go`: a Go engine over GTP (Go Text Protocol, version 2) with
//! the superko rules of the `hashmate-go` crate. The protocol and the
//! random move policy are [`protocol`]; this front end reads lines
//! and prints the replies.

pub mod protocol;

use clap::{Args, ValueEnum};
use hashmate_engine::output;
use hashmate_go::{KoRule, Rules};
pub use protocol::{parse_line, Gtp, Reply, MAX_LINE};
use std::process::ExitCode;

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum Ko {
    None,
    Simple,
    Positional,
    Situational,
}

#[derive(Args)]
pub struct GoArgs {
    /// Ko rule.
    #[arg(long, value_enum, default_value = "positional")]
    pub ko: Ko,
    /// Allow suicide (the suicided group is removed).
    #[arg(long)]
    pub suicide: bool,
    /// Seed of the random move generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(args: &GoArgs) -> ExitCode {
    let rules = Rules {
        ko: match args.ko {
            Ko::None => KoRule::None,
            Ko::Simple => KoRule::Simple,
            Ko::Positional => KoRule::PositionalSuperko,
            Ko::Situational => KoRule::SituationalSuperko,
        },
        suicide: args.suicide,
    };
    let Some(mut gtp) = Gtp::new(rules, args.seed) else {
        return ExitCode::from(2);
    };
    hashmate_engine::input::for_each_line(MAX_LINE, |line| {
        match line {
            hashmate_engine::input::Line::Text(t) => match gtp.respond(t) {
                Reply::Answer(a) => output::emit(&a),
                Reply::Quit(a) => {
                    output::emit(&a);
                    return false;
                }
                Reply::Nothing => {}
            },
            hashmate_engine::input::Line::TooLong { bytes } => {
                output::emit(&format!(
                    "? line of {bytes} bytes refused (at most {MAX_LINE})\n"
                ));
            }
        }
        !output::closed()
    });
    output::status(ExitCode::SUCCESS)
}
