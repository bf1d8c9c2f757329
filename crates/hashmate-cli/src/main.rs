//! The hashmate binary: a UCI chess engine (run without arguments) and
//! command-line tools for the library (`perft`, `key`, …).

use clap::{Parser, Subcommand};
use hashmate::Position;
use hashmate_cli::{book, data, datagen, gtp, perft, tb, texel, tt_study, wdl_fit};
use hashmate_data::net as nnue;
use hashmate_engine::{bench, output, uci};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "hashmate",
    version = uci::VERSION,
    about = "A UCI chess engine built on hashing done right"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Start the UCI engine (the default without a subcommand).
    Uci,
    /// Count leaf nodes of the legal move tree.
    Perft(perft::PerftArgs),
    /// Search a fixed set of positions; prints the node count signature.
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Hash table size in MB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: u64,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
        /// Search without the transposition table.
        #[arg(long)]
        no_tt: bool,
        /// Evaluate with this network file (`<internal>`, the default: the
        /// embedded one).
        #[arg(long, default_value = nnue::INTERNAL)]
        nnue: String,
        /// Evaluate with the classical (hand-written) evaluation instead of
        /// a network.
        #[arg(long, conflicts_with = "nnue")]
        classical: bool,
    },
    /// Print a position's static evaluations as the UCI `eval` command
    /// does: the classical one, the network's and the one the search
    /// starts from, each from White's side in pawns (Stockfish's
    /// convention).
    Eval {
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// The network file (default: the embedded one).
        #[arg(long, default_value = nnue::INTERNAL)]
        net: String,
    },
    /// Polyglot opening books: make, probe, stats.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Syzygy endgame tablebases: probe a position.
    #[command(subcommand)]
    Tb(tb::TbCommand),
    /// Play Go over GTP, with superko decided by Zobrist keys.
    Go(gtp::GoArgs),
    /// Compare hash-table collision strategies and hash code lengths.
    TtStudy(tt_study::StudyArgs),
    /// Play self-play games and record training positions for the tuner.
    Datagen(datagen::DatagenArgs),
    /// Training data packed into its chained form (about 4 bytes a
    /// position) and unpacked again.
    #[command(subcommand)]
    Data(data::DataCommand),
    /// Fit the classical evaluation's weights to training positions (the
    /// Texel method); `tune` is its former name.
    #[command(alias = "tune")]
    Texel(texel::TexelArgs),
    /// Fit the win/draw/loss model (`UCI_ShowWDL`) to training positions
    /// and report its calibration on held-out games.
    WdlFit(wdl_fit::WdlFitArgs),
    /// Print the search parameters in OpenBench's SPSA input format
    /// (`NAME, int, VALUE, MIN, MAX, C_END, R_END`); a build with the
    /// `tune` feature also takes them as UCI options.
    Tunables,
    /// Print the Polyglot Zobrist key of a position as 16 hex digits.
    Key {
        /// The position, as FEN, X-FEN or Shredder-FEN.
        fen: String,
    },
}

/// On SIGINT, SIGTERM or SIGHUP a tool removes its temporary files and
/// folders (spilled counts, an output half written beside its target)
/// before it exits, with the status of an interrupted command.
fn remove_temporaries_on_signal() {
    let installed = ctrlc::set_handler(|| {
        hashmate_data::files::cleanup::remove_all();
        std::process::exit(130);
    });
    if let Err(e) = installed {
        eprintln!(
            "hashmate: cannot handle signals ({e}); an interrupted run may leave temporary files"
        );
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, None | Some(Command::Uci)) {
        remove_temporaries_on_signal();
    }
    match cli.command {
        None | Some(Command::Uci) => uci::run(),
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::TtStudy(args)) => tt_study::run(&args),
        Some(Command::Book(cmd)) => book::run(&cmd),
        Some(Command::Tb(cmd)) => tb::run(&cmd),
        Some(Command::Go(args)) => gtp::run(&args),
        Some(Command::Datagen(args)) => datagen::run(&args),
        Some(Command::Data(cmd)) => data::run(&cmd),
        Some(Command::Texel(args)) => texel::run(&args),
        Some(Command::WdlFit(args)) => wdl_fit::run(&args),
        Some(Command::Bench {
            depth,
            hash,
            threads,
            no_tt,
            nnue,
            classical,
        }) => {
            let file = (!classical).then_some(nnue.as_str());
            let net = match file.map(nnue::load).transpose() {
                Ok(net) => net.map(std::sync::Arc::new),
                Err(e) => {
                    eprintln!("hashmate bench: {e}");
                    return ExitCode::from(2);
                }
            };
            match bench::run(depth, hash as usize, threads as usize, no_tt, net) {
                Ok(_) => output::status(ExitCode::SUCCESS),
                Err(e) => {
                    eprintln!("hashmate bench: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Eval { fen, net }) => {
            let pos = match fen
                .as_deref()
                .map_or(Ok(Position::startpos()), Position::from_fen)
            {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("hashmate eval: {e}");
                    return ExitCode::from(2);
                }
            };
            match nnue::load(&net) {
                Ok(network) => {
                    let name = if nnue::is_internal(&net) {
                        nnue::INTERNAL
                    } else {
                        net.as_str()
                    };
                    output::emit(
                        hashmate_engine::uci::eval_report(&pos, Some((&network, name)), true)
                            .trim_end(),
                    );
                    output::status(ExitCode::SUCCESS)
                }
                Err(e) => {
                    eprintln!("hashmate eval: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Tunables) => {
            output::emit(hashmate_engine::search::params::spsa_input().trim_end());
            output::status(ExitCode::SUCCESS)
        }
        Some(Command::Key { fen }) => match Position::from_fen(&fen) {
            Ok(pos) => {
                output::emit(&format!("{:016x}", pos.key()));
                output::status(ExitCode::SUCCESS)
            }
            Err(e) => {
                eprintln!("hashmate key: {e}");
                ExitCode::from(2)
            }
        },
    }
}
