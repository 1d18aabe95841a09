//! The command line: every subcommand's arguments, parsed by `clap` (derive) in this module
//! alone, and the calls into the engine's modules that carry them out. `main` only calls
//! [`main`]; the modules below know nothing of the command line, and report progress through
//! callbacks that [`progress`] draws.
//!
//! Exit codes: 0 for success, 2 for bad usage or bad input (clap's usage errors, and ours: an
//! unreadable file, a malformed position), 1 when a job that was given good input failed.
//! Errors go to stderr: clap's as clap writes them, ours as `hayate <command>: <message>`.

/// `println!` for the command line's results. A reader that has gone away (`hayate mate ... |
/// head`) ends the process quietly instead of panicking as `println!` does; any other failure
/// to write is reported and exits with 1.
macro_rules! outln {
    ($($arg:tt)*) => {
        out!("{}\n", format_args!($($arg)*))
    };
}

/// `print!` for the command line's results: see [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let result = write!(std::io::stdout().lock(), $($arg)*);
        if let Err(e) = result {
            $crate::cli::output_failed(e);
        }
    }};
}

pub mod analyze;
pub mod book;
pub mod match_args;
pub mod match_toml;
pub mod mate;
pub mod progress;
pub mod train;

use std::ffi::OsString;
use std::io;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::eval::nnue::Network;
use crate::position::Position;
use crate::usi;

/// Hayate: a shogi engine speaking the USI protocol.
///
/// Without a command it runs the USI engine on stdin and stdout, as a GUI starts it.
#[derive(Debug, Parser)]
#[command(name = "hayate", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the fixed search benchmark and print its node count, the search's signature
    Bench(BenchArgs),
    /// Count the leaves of the legal move tree, with the count below each first move
    Perft(PerftArgs),
    /// Play a tournament between USI engines (any engines, Hayate or not)
    ///
    /// Two engines play each other; three or more a round robin, or with --gauntlet the first
    /// against the rest. Each opening is played twice, colours swapped. Every rule is judged
    /// here. Each game prints a "Finished game" line and the match ends with cutechess's
    /// summary lines ("Score of A vs B: ...", "Elo difference: ..."); on a terminal a bar on
    /// stderr shows the score and Elo so far.
    Match(match_args::MatchArgs),
    /// Analyse a game: every position searched, mistakes marked, KIF with ShogiHome's
    /// analysis comments, JSON, an SVG evaluation graph
    Analyze(analyze::AnalyzeArgs),
    /// Solve a tsume (the attacker to move) with the df-pn mate solver
    Mate(mate::MateArgs),
    /// Tsume problems as a composer sees them
    #[command(subcommand)]
    Tsume(mate::TsumeCommand),
    /// Make, extend, merge, sort and inspect opening books
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Play Hayate against itself for training data (resumable)
    Selfplay(train::SelfplayArgs),
    /// Train the NNUE on self-play files
    Train(train::TrainArgs),
    /// Fit the hand-written evaluation's weights to labelled positions, printed as Rust
    Tune(train::TuneArgs),
    /// Learn the king-piece table (src/eval/kp.bin) on top of the hand-written evaluation
    Learn(train::LearnArgs),
}

impl Command {
    /// The name in our error messages: `hayate <name>: ...`.
    fn name(&self) -> &'static str {
        match self {
            Command::Bench(_) => "bench",
            Command::Perft(_) => "perft",
            Command::Match(_) => "match",
            Command::Analyze(_) => "analyze",
            Command::Mate(_) => "mate",
            Command::Tsume(_) => "tsume",
            Command::Book(_) => "book",
            Command::Selfplay(_) => "selfplay",
            Command::Train(_) => "train",
            Command::Tune(_) => "tune",
            Command::Learn(_) => "learn",
        }
    }
}

/// Why a command failed, which decides its exit code.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// Bad input, the user's to fix: a file that cannot be read, a malformed position, a
    /// configuration that cannot work. Exit code 2, like clap's usage errors.
    Input(String),
    /// Good input, but the job could not be done (an output that cannot be written, a panic).
    /// Exit code 1.
    Job(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Input(e)
    }
}

impl From<&str> for Failure {
    fn from(e: &str) -> Failure {
        Failure::Input(e.to_string())
    }
}

/// What a command returns.
pub type Outcome = Result<(), Failure>;

/// The program: parses `std::env::args_os` and runs the command.
pub fn main() -> ExitCode {
    run(std::env::args_os().collect())
}

/// Parses `args` (the program name first) and runs the command.
pub fn run(args: Vec<OsString>) -> ExitCode {
    // `hayate match` alone has always printed its help and succeeded.
    if args.len() == 2 && args[1] == "match" {
        let mut help = args.clone();
        help.push("--help".into());
        return run(help);
    }
    let parsed = Cli::command().try_get_matches_from(&args).and_then(|m| {
        let mut cli = Cli::from_arg_matches(&m)?;
        // The words of each `--engine` stay together: see `MatchArgs::from_matches`.
        if let (Some(Command::Match(a)), Some(m)) =
            (&mut cli.command, m.subcommand_matches("match"))
        {
            *a = match_args::MatchArgs::from_matches(m)?;
        }
        Ok(cli)
    });
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with 0; usage errors to stderr with 2.
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    let Some(command) = cli.command else {
        return usi_loop();
    };
    let name = command.name();
    let outcome = match command {
        Command::Bench(a) => bench(a),
        Command::Perft(a) => perft(a),
        Command::Match(a) => match_args::run(a, &args[2..]),
        Command::Analyze(a) => analyze::analyze(a),
        Command::Mate(a) => mate::mate(a),
        Command::Tsume(c) => mate::tsume(c),
        Command::Book(c) => book::run(c),
        Command::Selfplay(a) => train::selfplay(a),
        Command::Train(a) => train::train(a),
        Command::Tune(a) => train::tune(a),
        Command::Learn(a) => train::learn(a),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(e)) => {
            eprintln!("hayate {name}: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Job(e)) => {
            eprintln!("hayate {name}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Standard output could not be written: a closed pipe is the reader's choice and ends the
/// process quietly; anything else is an error.
pub(crate) fn output_failed(e: io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("hayate: cannot write the output: {e}");
    std::process::exit(1);
}

/// No command: the USI engine on stdin and stdout.
fn usi_loop() -> ExitCode {
    let stdin = io::stdin();
    match usi::run(stdin.lock(), Arc::new(Mutex::new(io::stdout()))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hayate: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The evaluation a command searches with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Evaluation {
    /// The shipped neural net
    Nnue,
    /// The hand-written evaluation
    Classic,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The evaluation [default: the engine's default]
    #[arg(value_enum)]
    pub eval: Option<Evaluation>,
}

fn bench(a: BenchArgs) -> Outcome {
    let net = match a.eval {
        None => usi::options::Options::default().search.net,
        Some(Evaluation::Nnue) => Some(Network::shipped()),
        Some(Evaluation::Classic) => None,
    };
    usi::bench::run(&|line| outln!("{line}"), net);
    Ok(())
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Plies to count
    #[arg(value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: u32,
    /// The position: `startpos`, a handicap name, an SFEN (with or without `sfen`), each
    /// with `moves ...` if wanted [default: startpos]
    #[arg(num_args = 0..)]
    pub position: Vec<String>,
}

fn perft(a: PerftArgs) -> Outcome {
    let mut pos = position_argument(&a.position)?;
    let stdout = io::stdout();
    // Its only errors are the output's: the same policy as `outln!` (a reader that went away
    // ends the count quietly, any other failure is reported).
    if let Err(e) = crate::perft::write_divide(&mut stdout.lock(), &mut pos, a.depth) {
        output_failed(e);
    }
    Ok(())
}

/// A position given as command-line words (or one quoted word); none: the start position.
fn position_argument(words: &[String]) -> Result<Position, Failure> {
    let line = words.join(" ");
    if line.trim().is_empty() {
        return Ok(Position::startpos());
    }
    Position::from_usi(&line).map_err(Failure::Input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_sound() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_command_is_the_usi_loop() {
        let cli = Cli::try_parse_from(["hayate"]).unwrap();
        assert!(cli.command.is_none());
    }

    #[test]
    fn a_position_argument_takes_every_form() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            position_argument(&[]).unwrap().to_sfen(),
            Position::startpos().to_sfen()
        );
        assert!(position_argument(&words("startpos moves 7g7f")).is_ok());
        assert!(position_argument(&words("2piece")).is_ok());
        assert!(matches!(
            position_argument(&words("bogus/sfen b - 1")),
            Err(Failure::Input(e)) if e.contains("ranks")
        ));
    }
}
