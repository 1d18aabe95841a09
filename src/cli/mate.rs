//! `hayate mate` (solve a tsume) and `hayate tsume check` (a composer's verdict).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::progress::{Progress, Spinner};
use super::{position_argument, Failure, Outcome};
use crate::kifu::{self, Format};
use crate::mate::{
    check_batch, check_with_record, defender_to_move, intended_line, japanese_line, ply_count,
    with_main_line, BatchRows, CheckLimits, LineProgress, Report, SolveLimits, Solver, Verdict,
    SOLVER_STACK,
};
use crate::position::Position;
use crate::types::Move;

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
    /// Report the first mate proven. Without it, up to twice its work goes to shorter mates, and
    /// what the limits leave (at most 16 times the solve's nodes, and 5M) to the main line
    /// under the rules, the quickest mate against the longest defence, as `tsume check` finds it
    #[arg(long)]
    pub first: bool,
    /// Solve every row of a TSV of name<TAB>sfen, printing name, result, plies, nodes, time
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub batch: Option<PathBuf>,
    /// Also write the answer as a KIF record to FILE: the problem and its mating line, ending
    /// in 詰み, the answer as the start's comment. A .kif file is written in Shift_JIS, any
    /// other (.kifu) in UTF-8; '-' prints it instead of the answer
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    pub kif: Option<PathBuf>,
    /// With --batch: how many problems to solve at once, each with a table of --hash
    /// megabytes (so N times the memory); the rows come out in the file's order, the same but
    /// for the times
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// The problem, attacker to move: an SFEN (with or without `sfen`), or a problem file as
    /// `tsume check` reads one. A position after the attacker's check (the defender to move
    /// and in check, no king on the attacker's side) is solved for the defender: the line
    /// starts with his longest reply
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
    /// Check every row of a TSV of name<TAB>sfen, with an optional third column: the intended
    /// line in USI (moves separated by spaces), held to the rules too
    #[arg(long, value_name = "FILE", conflicts_with = "problem")]
    pub batch: Option<PathBuf>,
    /// Also write the report as a KIF record to FILE, for a GUI to step through: the main line,
    /// with each line the report speaks of (余詰 and the minor flaws, the checks and drops left
    /// unsettled, the intended line) as a variation where it leaves it, and the summary as the
    /// start's comment. A .kif file is written in Shift_JIS, as GUIs read that extension, any
    /// other (.kifu) in UTF-8; '-' prints it instead of the summary. With --batch, FILE is a
    /// directory (made if missing) that gets a NAME.kifu for each row
    #[arg(long, value_name = "FILE")]
    pub kif: Option<PathBuf>,
    /// The df-pn solver's table, which finds the first mate and settles the alternatives (the
    /// exact search's memory is --memory)
    #[arg(long, value_name = "MB", default_value_t = CheckLimits::default().hash_mb)]
    pub hash: usize,
    /// The most the exact search's tables take: they grow with the nodes (about 60 bytes a
    /// node), and past this they forget their cheapest entries instead, so that a large
    /// --nodes does not run the machine out of memory
    #[arg(long, value_name = "MB", default_value_t = CheckLimits::default().memory_mb as u64,
          value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: u64,
    /// With --batch: how many problems to check at once, each with the memory of one check
    /// (about 250 MB at the default --nodes and --hash); the rows come out the same, in the
    /// file's order
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// The problem: an SFEN; a file holding one (on its first line, or as name<TAB>sfen); or a
    /// record (KIF, KI2, CSA, or a board diagram alone) whose start position is the problem and
    /// whose moves, if any, are the intended line (作意), checked against the rules too
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

/// How often a single solve's line on the terminal is brought up to date.
const SPINNER_EVERY: Duration = Duration::from_millis(500);

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
    let mut pos = match problem_file(&a.position)? {
        Some(problem) => Position::from_sfen(&problem.sfen).map_err(|e| e.to_string())?,
        None => position_argument(&a.position)?,
    };
    let mut solver = Solver::new(a.hash);
    let start = Instant::now();
    // On a terminal a long solve shows its nodes as it goes (ミクロコスモス takes most of a
    // minute); elsewhere only the answer is printed.
    let spinner = Spinner::new("mate");
    if spinner.is_live() {
        let line = spinner.clone();
        solver.report_progress(SPINNER_EVERY, move |p| {
            let detail = format!("table {}‰ full", p.hashfull);
            line.set(&progress_text(start, p.nodes, &detail));
        });
    }
    let limits = limits();
    let verdict = solver.solve_problem(&mut pos, limits.clone());
    solver.stop_reporting();
    let solved = solver.nodes();
    let progress = spinner.is_live().then(|| {
        let line = spinner.clone();
        LineProgress {
            every: SPINNER_EVERY,
            tell: Box::new(move |n| {
                line.set(&progress_text(
                    start,
                    solved + n,
                    "the main line under the rules",
                ));
            }),
        }
    });
    let (verdict, line_nodes) = with_main_line(&mut solver, &pos, verdict, limits, progress);
    let nodes = solved + line_nodes;
    spinner.finish();
    let ms = start.elapsed().as_millis();
    // A position after the attacker's check: the line starts with the defender's reply.
    let first = if defender_to_move(&pos) {
        ", the defender moving first"
    } else {
        ""
    };
    let mut answer = Vec::new();
    match &verdict {
        Verdict::Mate(line) => {
            let usi: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            answer.push(format!(
                "mate in {}{first} ({nodes} nodes, {ms} ms)",
                ply_count(line.len())
            ));
            answer.push(format!("usi: {}", usi.join(" ")));
            answer.push(format!("japanese: {}", japanese_line(&pos, line)));
        }
        Verdict::NoMate => answer.push(format!("no mate ({nodes} nodes, {ms} ms)")),
        Verdict::Unknown => answer.push(format!("unknown: time ran out ({nodes} nodes, {ms} ms)")),
    }
    let record = a.kif.as_ref().map(|path| {
        let mut rec = kifu::GameRecord::empty();
        rec.start_sfen = pos.to_sfen();
        rec.event = "hayate mate".to_string();
        if let Verdict::Mate(line) = &verdict {
            rec.moves = line
                .iter()
                .map(|&m| kifu::RecordedMove::untimed(m))
                .collect();
            rec.ending = Some(kifu::Ending::Mate);
        }
        (path, kifu::kif::write_annotated(&rec, &[answer.clone()]))
    });
    answer_and_record(record, || {
        for line in &answer {
            outln!("{line}");
        }
    })
}

/// Prints a command's answer with `print_answer` and writes its KIF `record` where `--kif`
/// asked for it: to `-`, the record is printed instead of the answer; to a file, after the
/// answer, so that a record that cannot be written does not cost the answer.
fn answer_and_record(
    record: Option<(&PathBuf, Result<String, String>)>,
    print_answer: impl FnOnce(),
) -> Outcome {
    if let Some((path, text)) = &record {
        if path.as_os_str() == "-" {
            out!("{}", text.as_ref().map_err(|e| Failure::Job(e.clone()))?);
            return Ok(());
        }
    }
    print_answer();
    if let Some((path, text)) = record {
        write_kif(path, &text.map_err(Failure::Job)?)?;
    }
    Ok(())
}

/// The spinner's line: the nodes, their rate since `start`, `detail` and the time.
fn progress_text(start: Instant, nodes: u64, detail: &str) -> String {
    let secs = start.elapsed().as_secs_f64();
    let rate = nodes as f64 / secs.max(1e-3) / 1000.0;
    format!("{nodes} nodes, {rate:.0}k nodes/s, {detail}, {secs:.1} s")
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
        hash_mb: a.hash,
        memory_mb: a.memory as usize,
    };
    if let Some(path) = &a.batch {
        let text = read(path)?;
        // Off a terminal, a line per problem as before: one check may take minutes.
        let progress = Progress::bar_only("tsume check", "problems", 0);
        let mut records = match &a.kif {
            Some(dir) if dir.as_os_str() == "-" => {
                return Err(Failure::Input(
                    "--kif - prints one problem's record: with --batch, give a directory".into(),
                ))
            }
            Some(dir) => Some(RecordDir::new(dir)?),
            None => None,
        };
        let verbose = a.verbose;
        let mut write_record = |name: &str, r: &Report| {
            if let Some(d) = records.as_mut() {
                d.write(name, r.kif(verbose));
            }
        };
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
            a.kif
                .is_some()
                .then_some(&mut write_record as &mut dyn FnMut(&str, &Report)),
            &mut |done, rows, name| {
                progress.set_total(rows as u64);
                progress.update(done as u64, name);
                if !progress.is_live() {
                    progress.note(&format!("[{}/{rows}] {name}", done + 1));
                }
            },
        );
        progress.finish();
        if let Some(d) = records {
            d.finish()?;
        }
        if a.json {
            // Standard output stays one JSON object a line.
            eprintln!("{summary}");
        } else {
            outln!("{summary}");
        }
        return Ok(());
    }
    let problem = problem_argument(&a.problem)?;
    let report = check_with_record(
        &problem.sfen,
        &problem.intended,
        &problem.variations,
        &limits,
    )?;
    let record = a.kif.as_ref().map(|path| (path, report.kif(a.verbose)));
    answer_and_record(record, || {
        if a.json {
            outln!("{}", report.json(a.verbose));
        } else {
            out!("{}", report.human(a.verbose));
        }
        if problem.unread_variations > 0 {
            // Not on stdout with --json, which stays one object.
            let n = problem.unread_variations;
            let note = format!(
                "note: the record's {} (変化) {} not held to the rules: a block does not read \
                 as moves off the line before it",
                count_of(n, "variation"),
                if n == 1 { "is" } else { "are" }
            );
            if a.json {
                eprintln!("{note}");
            } else {
                outln!("{note}");
            }
        }
    })
}

/// The directory of `--batch --kif DIR`: a record a row, `NAME.kifu` (UTF-8), the name made
/// safe for a file and told apart from the rows' before it.
struct RecordDir {
    dir: PathBuf,
    taken: std::collections::HashSet<String>,
    /// The first record that could not be made or written: the batch goes on, and ends with
    /// it as its failure.
    failed: Option<String>,
}

impl RecordDir {
    fn new(dir: &std::path::Path) -> Result<RecordDir, Failure> {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Job(format!("cannot make {}: {e}", dir.display())))?;
        Ok(RecordDir {
            dir: dir.to_path_buf(),
            taken: Default::default(),
            failed: None,
        })
    }

    fn write(&mut self, name: &str, kif: Result<String, String>) {
        // Letters, digits and a few marks, any script; anything else (a path's separators, a
        // control character) becomes '_'.
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let safe = match safe.trim_start_matches('.') {
            "" => "problem".to_string(),
            s => s.to_string(),
        };
        let mut file = safe.clone();
        let mut n = 1;
        while !self.taken.insert(file.clone()) {
            n += 1;
            file = format!("{safe}-{n}");
        }
        let path = self.dir.join(format!("{file}.kifu"));
        let result = kif.and_then(|text| {
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        });
        if let Err(e) = result {
            self.failed.get_or_insert(format!("{name}: {e}"));
        }
    }

    fn finish(self) -> Result<(), Failure> {
        self.failed.map_or(Ok(()), |e| Err(Failure::Job(e)))
    }
}

/// `n` things: "1 variation", "7 variations".
fn count_of(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// Writes KIF `text` to `path`: in Shift_JIS for a `.kif` file, in UTF-8 otherwise.
fn write_kif(path: &std::path::Path, text: &str) -> Result<(), Failure> {
    let replaced = kifu::save(path, text).map_err(Failure::Job)?;
    if let Some(w) = kifu::save_warning(path, replaced) {
        eprintln!("{w}");
    }
    Ok(())
}

/// A problem given on the command line.
#[derive(Debug)]
pub struct Problem {
    /// Its position, the attacker to move.
    pub sfen: String,
    /// The composer's intended line (作意), when a record gave one.
    pub intended: Vec<Move>,
    /// The record's variations (変化), each as the whole line from the position: a KIF or KI2
    /// record's, held to the rules with the intended line.
    pub variations: Vec<Vec<Move>>,
    /// How many variations the record has that are not read as lines (when a block does not
    /// read), and so not held to the rules.
    pub unread_variations: usize,
}

/// Whether `words` name a file, and the problem it holds (see [`problem_in`]). `None` when no
/// such file exists: the words are the position.
fn problem_file(words: &[String]) -> Result<Option<Problem>, Failure> {
    let arg = words.join(" ");
    let path = std::path::Path::new(arg.trim());
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !path.is_file() {
        // A name that only a file could have (an SFEN has no such ending) must be one.
        if Format::from_extension(ext).is_some() || matches!(ext, "tsv" | "txt" | "sfen") {
            return Err(Failure::Input(format!("cannot read {arg}: no such file")));
        }
        return Ok(None);
    }
    let text = kifu::read_text(path).map_err(Failure::Input)?;
    problem_in(&text, ext)
        .map(Some)
        .map_err(|e| Failure::Input(format!("{arg}: {e}")))
}

/// The problem a file's `text` holds, `ext` its extension. A record (KIF, KI2 or CSA by its
/// extension or its look; a board diagram alone reads as KIF) gives its start position, with
/// the defender's `残り全部` (KIF) or `00AL` (CSA), and its moves as the intended line. Any
/// other file holds the SFEN on its first line that is not a comment, alone or as a row of
/// `--batch` (name, SFEN, and an intended line in USI if there is a third column).
pub fn problem_in(text: &str, ext: &str) -> Result<Problem, String> {
    if let Some(format) = Format::from_extension(ext).or_else(|| Format::sniff(text)) {
        let rec = format.read(text)?;
        let intended: Vec<Move> = rec.moves.iter().map(|m| m.mv).collect();
        // KIF and KI2 keep variations after the main line, each behind its `変化` line. They
        // are read as lines; blocks that do not read are only counted.
        let headers = text
            .lines()
            .filter(|l| l.starts_with("変化：") || l.starts_with("変化:"))
            .count();
        let read = match format {
            _ if headers == 0 => None,
            Format::Kif => kifu::kif::read_with_variations(text).ok(),
            Format::Ki2 => kifu::ki2::read_with_variations(text).ok(),
            Format::Csa => None,
        };
        let (variations, unread_variations) = match read {
            Some((_, read)) => {
                let lines = read
                    .into_iter()
                    .map(|v| {
                        let before = &intended[..(v.ply - 1).min(intended.len())];
                        before.iter().chain(&v.moves).copied().collect()
                    })
                    .collect();
                (lines, 0)
            }
            None => (Vec::new(), headers),
        };
        return Ok(Problem {
            sfen: rec.start_sfen,
            intended,
            variations,
            unread_variations,
        });
    }
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    // A row as `--batch` reads them: name, SFEN and an intended line; or the SFEN alone.
    let mut columns = first.split('\t');
    let (sfen, line) = match (columns.next(), columns.next()) {
        (_, Some(sfen)) => (sfen, columns.next().unwrap_or("")),
        (alone, None) => (alone.unwrap_or(""), ""),
    };
    if sfen.trim().is_empty() {
        return Err("no position in the file".into());
    }
    Ok(Problem {
        sfen: sfen.trim().to_string(),
        intended: intended_line(line)?,
        variations: Vec::new(),
        unread_variations: 0,
    })
}

/// The problem `words` give: a file as [`problem_file`] reads it, or the SFEN itself.
fn problem_argument(words: &[String]) -> Result<Problem, Failure> {
    if let Some(p) = problem_file(words)? {
        return Ok(p);
    }
    let sfen = words.join(" ");
    if sfen.trim().is_empty() {
        return Err("no position given".into());
    }
    Ok(Problem {
        sfen,
        intended: Vec::new(),
        variations: Vec::new(),
        unread_variations: 0,
    })
}
