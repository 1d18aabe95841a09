//! `hayate mate` (solve a tsume) and `hayate tsume check` (a composer's verdict).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::progress::Progress;
use super::{position_argument, Failure, Outcome};
use crate::mate::{
    check_batch, check_problem, japanese_line, BatchRows, CheckLimits, SolveLimits, Solver,
    Verdict, SOLVER_STACK,
};

#[derive(Debug, Args)]
pub struct MateArgs {
    /// Time per problem
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub time: u64,
    /// Nodes per problem [default: no limit]
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Hash table size
    #[arg(long, value_name = "MB", default_value_t = 256)]
    pub hash: usize,
    /// Report the first mate proven, not the shortest (which may take up to twice the work)
    #[arg(long)]
    pub first: bool,
    /// Solve every row of a TSV of name<TAB>sfen, printing name, result, plies, nodes, time
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub batch: Option<PathBuf>,
    /// With --batch: how many problems to solve at once, each with a table of --hash
    /// megabytes (so N times the memory); the rows come out in the file's order, the same but
    /// for the times
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// The problem: an SFEN (with or without `sfen`), attacker to move
    #[arg(required_unless_present = "batch", num_args = 1..)]
    pub position: Vec<String>,
}

#[derive(Debug, Subcommand)]
pub enum TsumeCommand {
    /// The composer's verdict: 不詰, n手詰, 駒余り, 余詰, 最終手余詰, 変同 (beyond the limits: unknown)
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Nodes for everything: the exhaustive search and every df-pn solve together
    #[arg(long, value_name = "N", default_value_t = CheckLimits::default().nodes)]
    pub nodes: u64,
    /// The longest main line tried; longer problems are unknown
    #[arg(long, value_name = "N", default_value_t = CheckLimits::default().max_plies,
          value_parser = clap::value_parser!(u16).range(1..=CheckLimits::MAX_PLIES as i64))]
    pub plies: u16,
    /// Leave the defender the pieces given (default: the defender holds every piece not on
    /// the board or in the attacker's hand)
    #[arg(long)]
    pub as_given: bool,
    /// Print the report as JSON (with --batch: one object a line, each with its "name")
    #[arg(long)]
    pub json: bool,
    /// Print every line examined
    #[arg(long)]
    pub verbose: bool,
    /// Check every row of a TSV of name<TAB>sfen
    #[arg(long, value_name = "FILE", conflicts_with = "problem")]
    pub batch: Option<PathBuf>,
    /// With --batch: how many problems to check at once, each with the memory of one check
    /// (about 250 MB at the default --nodes); the rows come out the same, in the file's order
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// The problem: an SFEN, or a file holding one (on its first line, or as name<TAB>sfen)
    #[arg(required_unless_present = "batch", num_args = 1..)]
    pub problem: Vec<String>,
}

/// Runs `f` on a thread with the solver's deep stack: long mates recurse deep.
fn on_solver_stack(f: impl FnOnce() -> Outcome + Send + 'static) -> Outcome {
    std::thread::Builder::new()
        .stack_size(SOLVER_STACK)
        .spawn(f)
        .map_err(|e| Failure::Job(format!("cannot start the solver: {e}")))?
        .join()
        .unwrap_or_else(|_| Err(Failure::Job("the solver failed".into())))
}

fn read(path: &PathBuf) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))
}

/// `hayate mate`.
pub fn mate(a: MateArgs) -> Outcome {
    on_solver_stack(move || solve(a))
}

fn solve(a: MateArgs) -> Outcome {
    let limits = || SolveLimits {
        // A time too far off for the clock is no deadline.
        deadline: Instant::now().checked_add(Duration::from_millis(a.time)),
        nodes: a.nodes,
        shorten: !a.first,
        tsume_line: true,
        ..SolveLimits::default()
    };
    if let Some(path) = &a.batch {
        let text = read(path)?;
        let progress = Progress::new("mate", "problems", 0);
        let report = crate::mate::run_batch(
            &text,
            a.hash,
            a.jobs as usize,
            limits,
            &mut |line| progress.say(line),
            &mut |done, rows, name| {
                progress.set_total(rows as u64);
                progress.update(done as u64, name);
            },
        );
        progress.finish();
        outln!("{report}");
        return Ok(());
    }
    let mut pos = position_argument(&a.position)?;
    let mut solver = Solver::new(a.hash);
    let start = Instant::now();
    let verdict = solver.solve(&mut pos, limits());
    let ms = start.elapsed().as_millis();
    let nodes = solver.nodes();
    match verdict {
        Verdict::Mate(line) => {
            let usi: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            outln!("mate in {} plies ({nodes} nodes, {ms} ms)", line.len());
            outln!("usi: {}", usi.join(" "));
            outln!("japanese: {}", japanese_line(&pos, &line));
        }
        Verdict::NoMate => outln!("no mate ({nodes} nodes, {ms} ms)"),
        Verdict::Unknown => outln!("unknown: time ran out ({nodes} nodes, {ms} ms)"),
    }
    Ok(())
}

/// `hayate tsume check`: on a thread with the solver's deep stack, like `hayate mate`.
pub fn tsume(command: TsumeCommand) -> Outcome {
    let TsumeCommand::Check(a) = command;
    on_solver_stack(move || check(a))
}

fn check(a: CheckArgs) -> Outcome {
    let limits = CheckLimits {
        nodes: a.nodes,
        max_plies: a.plies,
        complete_hand: !a.as_given,
        early_mates: a.verbose,
    };
    if let Some(path) = &a.batch {
        let text = read(path)?;
        // Off a terminal, a line per problem as before: one check may take minutes.
        let progress = Progress::bar_only("tsume check", "problems", 0);
        let rows_as = if a.json {
            BatchRows::Json { verbose: a.verbose }
        } else {
            BatchRows::Table
        };
        let summary = check_batch(
            &text,
            &limits,
            rows_as,
            a.jobs as usize,
            &mut |line| progress.say(line),
            &mut |done, rows, name| {
                progress.set_total(rows as u64);
                progress.update(done as u64, name);
                if !progress.is_live() {
                    progress.note(&format!("[{}/{rows}] {name}", done + 1));
                }
            },
        );
        progress.finish();
        if a.json {
            // Standard output stays one JSON object a line.
            eprintln!("{summary}");
        } else {
            outln!("{summary}");
        }
        return Ok(());
    }
    let arg = a.problem.join(" ");
    // A file holds the SFEN on its first line (or a name<TAB>SFEN row); anything else is
    // taken as the SFEN itself.
    let sfen = match std::fs::read_to_string(&arg) {
        Ok(text) => {
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .unwrap_or("");
            first.rsplit('\t').next().unwrap_or("").to_string()
        }
        Err(_) => arg,
    };
    if sfen.trim().is_empty() {
        return Err("no position given".into());
    }
    let report = check_problem(&sfen, &limits)?;
    if a.json {
        outln!("{}", report.json(a.verbose));
    } else {
        out!("{}", report.human(a.verbose));
    }
    Ok(())
}
