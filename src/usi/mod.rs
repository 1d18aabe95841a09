//! The USI protocol: commands parsed from lines, an engine driven by them, replies formatted to
//! lines.
//!
//! The protocol thread reads commands; each `go` runs on a search thread, so `stop`,
//! `ponderhit`, `gameover` and `quit` take effect during a search. Both threads write through
//! one locked output. The loop reads from any `BufRead` and writes to any `Write`, so tests
//! drive it in memory.

pub mod bench;
mod book;
mod format;
pub mod options;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use format::format_info;
use options::Options;

use crate::mate::{with_main_line, LineProgress, SolveLimits, Solver, Verdict};
use crate::perft;
use crate::position::Position;
use crate::search::{self, BestMove, Limits, Shared};
use crate::tt::TranspositionTable;

pub const ENGINE_NAME: &str = concat!("Hayate ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Hayate developers";

/// Longest input line accepted; longer ones are rejected whole.
const MAX_LINE: usize = 64 * 1024;

/// A parsed command line.
#[derive(Debug, PartialEq)]
pub enum Command {
    Usi,
    IsReady,
    UsiNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position(Box<Position>),
    Go(Box<Limits>),
    GoPerft(u32),
    Stop,
    PonderHit(Option<Box<Limits>>),
    GameOver,
    Bench,
    Display,
    Quit,
    /// A blank line: ignored.
    Empty,
}

/// Parses one line. Errors are the text for an `info string`.
pub fn parse_command(line: &str) -> Result<Command, String> {
    if line.len() > MAX_LINE {
        return Err(format!("line of {} bytes is too long", line.len()));
    }
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = words.collect();
    match first {
        "usi" => Ok(Command::Usi),
        "isready" => Ok(Command::IsReady),
        "usinewgame" => Ok(Command::UsiNewGame),
        "quit" => Ok(Command::Quit),
        "stop" => Ok(Command::Stop),
        "gameover" => Ok(Command::GameOver),
        "bench" => Ok(Command::Bench),
        "d" => Ok(Command::Display),
        "setoption" => parse_setoption(&rest),
        "position" => Position::from_usi_words(&rest).map(|p| Command::Position(Box::new(p))),
        "ponderhit" => {
            if rest.is_empty() {
                Ok(Command::PonderHit(None))
            } else {
                parse_go(&rest).map(|l| Command::PonderHit(Some(Box::new(l))))
            }
        }
        "go" => match rest.as_slice() {
            ["perft", n] => n
                .parse()
                .ok()
                .filter(|&d| d >= 1)
                .map(Command::GoPerft)
                .ok_or_else(|| format!("bad perft depth '{n}'")),
            ["perft"] => Err("go perft needs a depth".into()),
            _ => parse_go(&rest).map(|l| Command::Go(Box::new(l))),
        },
        other => Err(format!("unknown command '{other}'")),
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    // setoption name <id> [value <x>]; names have no spaces, values may.
    match words {
        ["name", name] => Ok(Command::SetOption {
            name: name.to_string(),
            value: None,
        }),
        ["name", name, "value", value @ ..] => {
            let v = value.join(" ");
            let v = if v == "<empty>" { String::new() } else { v };
            Ok(Command::SetOption {
                name: name.to_string(),
                value: Some(v),
            })
        }
        _ => Err("setoption needs 'name <id> [value <x>]'".into()),
    }
}

/// The arguments of `go` (and of `ponderhit` with times).
pub fn parse_go(words: &[&str]) -> Result<Limits, String> {
    let mut l = Limits::default();
    let mut i = 0;
    let number = |i: usize, what: &str| -> Result<u64, String> {
        let w = words
            .get(i)
            .ok_or_else(|| format!("go {what} needs a number"))?;
        // GUIs may send negative remaining times after an overrun: treat them as zero. A
        // number too large for 64 bits saturates.
        match w.parse::<i64>() {
            Ok(n) => Ok(n.max(0) as u64),
            Err(e) => match e.kind() {
                std::num::IntErrorKind::PosOverflow => Ok(i64::MAX as u64),
                std::num::IntErrorKind::NegOverflow => Ok(0),
                _ => Err(format!("go {what}: '{w}' is not a number")),
            },
        }
    };
    while i < words.len() {
        if matches!(words[i], "btime" | "wtime" | "binc" | "winc" | "byoyomi") {
            l.clock_given = true;
        }
        match words[i] {
            "btime" => l.time[0] = number(i + 1, "btime")?,
            "wtime" => l.time[1] = number(i + 1, "wtime")?,
            "binc" => l.inc[0] = number(i + 1, "binc")?,
            "winc" => l.inc[1] = number(i + 1, "winc")?,
            "byoyomi" => l.byoyomi = number(i + 1, "byoyomi")?,
            "movetime" => l.movetime = Some(number(i + 1, "movetime")?),
            "depth" => l.depth = Some(number(i + 1, "depth")?.min(1000) as i32),
            "nodes" => l.nodes = Some(number(i + 1, "nodes")?),
            "infinite" => {
                l.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                l.ponder = true;
                i += 1;
                continue;
            }
            "mate" => {
                l.mate = Some(match words.get(i + 1) {
                    Some(&"infinite") | None => None,
                    Some(_) => Some(number(i + 1, "mate")?),
                });
            }
            "searchmoves" => {
                // Moves are checked for legality against the position by the search; text that
                // is no move at all is skipped, so that a GUI's `go` still gets a `bestmove`.
                l.searchmoves = words[i + 1..]
                    .iter()
                    .filter_map(|w| crate::position::parse_move_syntax(w))
                    .collect();
                break;
            }
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        i += 2;
    }
    Ok(l)
}

/// Output shared by the protocol thread and the search thread.
pub type SharedOut = Arc<Mutex<dyn Write + Send>>;

/// How often `go mate` tells the GUI its nodes while it searches.
const MATE_PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// The megabytes of `go mate`'s table for each second of its time limit. The solver fills
/// 15-25 MB a second (zuko001 from an empty table: `hashfull` 131 of 256 MB after 2 s, 410 after
/// 5 s, and 366 of 128 MB after 3 s), and the kernel zeroes each page the first time a store
/// lands on it, which the stores, spread over the whole table, do within the first thousand
/// nodes or so: with `USI_Hash` 4096 a `go mate 3000` on zuko001 spent 7 s zeroing its 4 GB
/// table and answered `checkmate timeout` after 1,024 nodes (now 1.86M nodes, at 2.95 s, with
/// 64 MB). A table of 64 MB a second took most of the first of 10 s zeroing its 512 MB on this
/// machine.
const MATE_MB_PER_SECOND: u64 = 32;

/// The smallest table a timed `go mate` gets (unless `USI_Hash` is smaller).
const MATE_MB_MIN: u64 = 64;

/// The size of `go mate`'s table: `USI_Hash`, or for a time limit what the solver can use in
/// that time ([`MATE_MB_PER_SECOND`], at least [`MATE_MB_MIN`]) when that is less, rounded down
/// to a power of two as the table rounds it, so that limits that make the same table keep it.
/// So the default 256 MB stands from 8 s up, and a large `USI_Hash` is taken whole only by a
/// long or infinite solve, beside the game search's table of the same size.
fn mate_table_mb(hash_mb: usize, time_ms: Option<u64>) -> usize {
    let wanted = time_ms.map_or(usize::MAX, |ms| {
        let mb = MATE_MB_PER_SECOND
            .saturating_mul(ms.div_ceil(1000))
            .max(MATE_MB_MIN);
        usize::try_from(mb).unwrap_or(usize::MAX)
    });
    crate::mate::table_mb(hash_mb.min(wanted))
}

/// `go mate`'s `info` line: the time since the command, the nodes searched, and how full the
/// solver's table is.
fn mate_info(start: Instant, nodes: u64, hashfull: usize) -> String {
    let ms = start.elapsed().as_millis().max(1) as u64;
    format!(
        "info time {ms} nodes {nodes} nps {} hashfull {hashfull}",
        nodes * 1000 / ms
    )
}

fn emit(out: &SharedOut, text: &str) {
    if let Ok(mut o) = out.lock() {
        // A closed output (the GUI went away) is not our problem to report.
        let _ = writeln!(o, "{text}");
        let _ = o.flush();
    }
}

/// A running `go` (`H` is its thread's handle; `()` while the thread is being started).
struct Running<H = JoinHandle<()>> {
    shared: Arc<Shared>,
    handle: H,
    limits: Limits,
    side: crate::types::Color,
    game_ply: u32,
    /// The stop flag of a `go mate` solve.
    mate_stop: Option<Arc<AtomicBool>>,
}

/// The engine state the protocol drives.
pub struct Engine {
    out: SharedOut,
    options: Options,
    tt: Arc<TranspositionTable>,
    /// Move-ordering histories, kept from move to move within a game.
    histories: Arc<search::Histories>,
    pos: Position,
    /// Why the last `position` command was refused, until a good one arrives: `go` then
    /// answers `bestmove resign` rather than a move of the older position in `pos`, which the
    /// GUI would play where it may be illegal.
    refused_position: Option<String>,
    /// The `USI_Hash` the table was last made for (it may have got less memory).
    hash_asked_mb: usize,
    running: Option<Running>,
    /// The df-pn solver for `go mate` and its table's size, made on first use and again when
    /// the size [`mate_table_mb`] asks for changes.
    mate_solver: Option<(usize, Arc<Mutex<Solver>>)>,
    book: crate::book::OpeningBook,
}

impl Engine {
    pub fn new(out: SharedOut) -> Engine {
        Engine {
            out,
            options: Options::default(),
            // A small table until `isready` sizes it, so `usi` answers at once.
            tt: Arc::new(TranspositionTable::new(1)),
            hash_asked_mb: 1,
            histories: Arc::default(),
            pos: Position::startpos(),
            refused_position: None,
            running: None,
            mate_solver: None,
            book: crate::book::OpeningBook::default(),
        }
    }

    fn say(&self, text: &str) {
        emit(&self.out, text);
    }

    /// Stops a running search and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.shared.pondering.store(false, Ordering::Relaxed);
            r.shared.stop.store(true, Ordering::Relaxed);
            if let Some(stop) = &r.mate_stop {
                stop.store(true, Ordering::Relaxed);
            }
            let _ = r.handle.join();
        }
    }

    fn search_is_running(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Handles one command; returns false on `quit`.
    pub fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Usi => {
                self.say(&format!("id name {ENGINE_NAME}"));
                self.say(&format!("id author {ENGINE_AUTHOR}"));
                for o in options::declarations() {
                    self.say(&o);
                }
                self.say("usiok");
            }
            Command::IsReady => {
                if !self.search_is_running() {
                    // A game may follow: `go mate`'s table (up to `USI_Hash` megabytes beside the
                    // game search's) goes, so that a game keeps to its own table's memory. The
                    // next `go mate` makes a new one, whose pages cost only as they are touched.
                    self.mate_solver = None;
                    self.resize_hash();
                    self.prepare_book();
                }
                self.say("readyok");
            }
            Command::UsiNewGame => {
                if !self.search_is_running() {
                    self.finish_search();
                    self.tt.clear();
                    if let Ok(mut h) = self.histories.lock() {
                        h.clear();
                    }
                }
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    self.say(&format!("info string {e}"));
                }
            }
            Command::Position(p) => {
                if self.search_is_running() {
                    self.finish_search();
                }
                self.pos = *p;
                self.refused_position = None;
            }
            Command::Go(limits) => self.go(*limits),
            Command::GoPerft(depth) => {
                self.finish_search();
                if let Some(why) = &self.refused_position {
                    self.say(&format!("info string no position to count: {why}"));
                    return true;
                }
                let mut text = Vec::new();
                let mut pos = self.pos.clone();
                if perft::write_divide(&mut text, &mut pos, depth).is_ok() {
                    self.say(String::from_utf8_lossy(&text).trim_end());
                }
            }
            Command::Stop | Command::GameOver => self.finish_search(),
            Command::PonderHit(times) => self.ponderhit(times.map(|b| *b)),
            Command::Bench => {
                self.finish_search();
                let out = self.out.clone();
                bench::run(
                    &|line: &str| emit(&out, line),
                    self.options.search.net.clone(),
                );
            }
            Command::Display => {
                let mut list = crate::movegen::MoveList::new();
                crate::movegen::generate_legal(&self.pos, &mut list);
                let text = format!("{}Legal moves: {}", self.pos.pretty(), list.len());
                if let Some(why) = &self.refused_position {
                    self.say(&format!(
                        "info string the last position was refused ({why}); this is the one before, which go will not search"
                    ));
                }
                self.say(&text);
            }
            Command::Quit => {
                self.finish_search();
                return false;
            }
            Command::Empty => {}
        }
        true
    }

    /// Records a `position` command that was refused (the reason was already sent): a search
    /// in progress ends, and `go` will not search the position before it.
    pub fn refuse_position(&mut self, why: String) {
        if self.search_is_running() {
            self.finish_search();
        }
        self.refused_position = Some(why);
    }

    /// Sizes the hash table as `USI_Hash` says, printing an empty keep-alive line every few
    /// seconds while a large table is cleared. A size the machine cannot give gets a smaller
    /// table and an `info string`.
    fn resize_hash(&mut self) {
        if self.hash_asked_mb == self.options.hash_mb || self.options.hash_mb == 0 {
            return;
        }
        let mb = self.options.hash_mb;
        self.hash_asked_mb = mb;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(TranspositionTable::new(mb));
        });
        loop {
            match rx.recv_timeout(Duration::from_secs(4)) {
                Ok(tt) => {
                    if tt.size_mb() < mb {
                        self.say(&format!(
                            "info string could not allocate {mb} MB of hash; using {} MB",
                            tt.size_mb()
                        ));
                    }
                    self.tt = Arc::new(tt);
                    return;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => self.say(""),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.say(&format!(
                        "info string could not allocate {mb} MB of hash; keeping the old table"
                    ));
                    return;
                }
            }
        }
    }

    fn go(&mut self, limits: Limits) {
        self.finish_search();
        let refused = self.refused_position.is_some();
        if let Some(why) = &self.refused_position {
            self.say(&format!(
                "info string no position to search, so resigning: the last position command was refused: {why}"
            ));
            if limits.mate.is_some() {
                self.say("checkmate timeout");
                return;
            }
        }
        if let Some(time) = limits.mate {
            self.go_mate(limits.clone(), time);
            return;
        }
        self.resize_hash();
        let book_hit = if refused {
            None
        } else {
            self.book_move(&limits)
        };
        let shared = Arc::new(Shared::default());
        shared.pondering.store(limits.ponder, Ordering::Relaxed);
        let us = self.pos.side_to_move();
        let game_ply = self.pos.game_ply();
        if let Ok(mut a) = shared.allotment.lock() {
            *a = search::timeman::allot(&limits, us, &self.options.search.time, game_ply);
        }
        let pos = self.pos.clone();
        let tt = self.tt.clone();
        let histories = self.histories.clone();
        let options = self.options.search.clone();
        let out = self.out.clone();
        let sh = shared.clone();
        let lim = limits.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let report = |info: &search::Info| emit(&out, &format_info(info));
                // The search catches a panic of its own threads; this catches one anywhere
                // else on the way to the answer, which the GUI is owed whatever happens.
                let decide = || match book_hit {
                    _ if refused => BestMove::Resign,
                    Some(hit) => {
                        for line in book::book_info(&hit) {
                            emit(&out, &line);
                        }
                        BestMove::Move {
                            best: hit.chosen.mv,
                            ponder: hit.ponder,
                        }
                    }
                    None => search::search(&pos, &lim, &options, &tt, &histories, &sh, &report),
                };
                let best = std::panic::catch_unwind(std::panic::AssertUnwindSafe(decide))
                    .unwrap_or_else(|_| {
                        emit(&out, "info string the search failed (a bug); resigning");
                        BestMove::Resign
                    });
                // When pondering or infinite, the answer still waits for `stop` or `ponderhit`.
                search::wait_for_release(&sh, lim.infinite);
                let line = match best {
                    BestMove::Move {
                        best,
                        ponder: Some(p),
                    } => format!("bestmove {best} ponder {p}"),
                    BestMove::Move { best, ponder: None } => format!("bestmove {best}"),
                    BestMove::Resign => "bestmove resign".to_string(),
                    BestMove::Win => "bestmove win".to_string(),
                };
                emit(&out, &line);
            });
        let started = Running {
            shared,
            handle: (),
            limits,
            side: us,
            game_ply,
            mate_stop: None,
        };
        self.keep_running(handle, started, "search", "bestmove resign");
    }

    /// `go mate <ms|infinite>`: a df-pn solve on its own thread, answered with `checkmate`,
    /// with an `info` line every [`MATE_PROGRESS_EVERY`] and one before the answer.
    fn go_mate(&mut self, limits: Limits, time_ms: Option<u64>) {
        // The clock starts with the command: a new table (the first `go mate`, or one whose
        // size changed) is made within the time given, and the kernel zeroes its pages as the
        // solve first touches them.
        let start = Instant::now();
        let mb = mate_table_mb(self.options.hash_mb, time_ms);
        let solver = match &self.mate_solver {
            Some((size, s)) if *size == mb => s.clone(),
            _ => {
                self.mate_solver = None;
                let s = Arc::new(Mutex::new(Solver::new(mb)));
                self.mate_solver = Some((mb, s.clone()));
                s
            }
        };
        let shared = Arc::new(Shared::default());
        let mut pos = self.pos.clone();
        let out = self.out.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let solve_stop = stop.clone();
        let handle = std::thread::Builder::new()
            .name("mate".into())
            .stack_size(crate::mate::SOLVER_STACK)
            .spawn(move || {
                let Ok(mut solver) = solver.lock() else {
                    emit(&out, "checkmate timeout");
                    return;
                };
                // A long solve says how it goes, as a search does: GUIs show the nodes.
                let progress_out = out.clone();
                solver.report_progress(MATE_PROGRESS_EVERY, move |p| {
                    emit(&progress_out, &mate_info(start, p.nodes, p.hashfull));
                });
                let solve_limits = SolveLimits {
                    nodes: None,
                    // A time too far off for the clock is no deadline.
                    deadline: time_ms.and_then(|ms| start.checked_add(Duration::from_millis(ms))),
                    stop: Some(solve_stop),
                    shorten: true,
                    // `go mate` answers a tsume: its line leaves out useless interpositions.
                    tsume_line: true,
                };
                let verdict = solver.solve(&mut pos, solve_limits.clone());
                solver.stop_reporting();
                let work = solver.work();
                // With the time left, the main line under the tsume rules, which a GUI shows
                // as the solution: the quickest mate against the longest defence. Its search
                // tells its nodes as the solve did.
                let hashfull = solver.hashfull();
                let line_out = out.clone();
                let progress = LineProgress {
                    every: MATE_PROGRESS_EVERY,
                    tell: Box::new(move |n| {
                        emit(&line_out, &mate_info(start, work + n, hashfull));
                    }),
                };
                let (verdict, line_nodes) =
                    with_main_line(&mut solver, &pos, verdict, solve_limits, Some(progress));
                emit(
                    &out,
                    &mate_info(start, work + line_nodes, solver.hashfull()),
                );
                let reply = match verdict {
                    Verdict::Mate(line) => {
                        let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
                        format!("checkmate {}", moves.join(" "))
                    }
                    Verdict::NoMate => "checkmate nomate".to_string(),
                    Verdict::Unknown => "checkmate timeout".to_string(),
                };
                emit(&out, &reply);
            });
        let started = Running {
            shared,
            handle: (),
            side: self.pos.side_to_move(),
            game_ply: self.pos.game_ply(),
            limits,
            mate_stop: Some(stop),
        };
        self.keep_running(handle, started, "mate search", "checkmate timeout");
    }

    /// Keeps a started `go` thread as the running one, or says why it could not start and gives
    /// the reply the GUI is owed.
    fn keep_running(
        &mut self,
        handle: std::io::Result<JoinHandle<()>>,
        started: Running<()>,
        what: &str,
        owed_reply: &str,
    ) {
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    shared: started.shared,
                    handle,
                    limits: started.limits,
                    side: started.side,
                    game_ply: started.game_ply,
                    mate_stop: started.mate_stop,
                })
            }
            Err(e) => {
                self.say(&format!("info string cannot start the {what}: {e}"));
                self.say(owed_reply);
            }
        }
    }

    fn ponderhit(&mut self, times: Option<Limits>) {
        let Some(r) = &self.running else { return };
        let mut limits = r.limits.clone();
        limits.ponder = false;
        if let Some(t) = times {
            limits.time = t.time;
            limits.inc = t.inc;
            limits.byoyomi = t.byoyomi;
            limits.clock_given |= t.clock_given;
        }
        if let Ok(mut a) = r.shared.allotment.lock() {
            *a = search::timeman::allot(&limits, r.side, &self.options.search.time, r.game_ply);
        }
        if let Ok(mut c) = r.shared.clock_start.lock() {
            *c = Instant::now();
        }
        r.shared.pondering.store(false, Ordering::Relaxed);
    }
}

/// Reads commands until `quit` or the end of input.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    input: R,
    out: Arc<Mutex<W>>,
) -> std::io::Result<()> {
    let out: SharedOut = out;
    let mut engine = Engine::new(out.clone());
    for line in input.split(b'\n') {
        let line = line?;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches('\r');
        let keep_going = match parse_command(text) {
            Ok(cmd) => engine.handle(cmd),
            Err(e) => {
                emit(&out, &format!("info string {e}"));
                if text.split_whitespace().next() == Some("position") {
                    engine.refuse_position(e);
                }
                true
            }
        };
        if !keep_going {
            return Ok(());
        }
    }
    // End of input: finish like `quit`.
    engine.finish_search();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isready_lets_go_of_the_mate_table() {
        let out: SharedOut = Arc::new(Mutex::new(Vec::<u8>::new()));
        let mut engine = Engine::new(out);
        for line in [
            "setoption name USI_Hash value 1",
            "position sfen p8/k8/9/S8/9/9/9/9/9 b GN 1",
            "go mate infinite",
        ] {
            engine.handle(parse_command(line).unwrap());
        }
        engine.finish_search();
        assert!(engine.mate_solver.is_some(), "made by go mate");
        engine.handle(Command::IsReady);
        assert!(engine.mate_solver.is_none(), "gone at isready");
    }

    #[test]
    fn a_timed_go_mate_takes_the_table_its_time_can_use() {
        // The default 256 MB from 8 s up, less below.
        assert_eq!(mate_table_mb(256, Some(10_000)), 256);
        assert_eq!(mate_table_mb(256, Some(8_000)), 256);
        assert_eq!(mate_table_mb(256, Some(3_000)), 64);
        assert_eq!(mate_table_mb(256, Some(1)), 64);
        assert_eq!(mate_table_mb(256, Some(0)), 64);
        // A large USI_Hash only for a long solve, and whole for an infinite one.
        assert_eq!(mate_table_mb(4096, Some(3_000)), 64);
        assert_eq!(mate_table_mb(4096, Some(60_000)), 1024);
        assert_eq!(mate_table_mb(4096, Some(u64::MAX)), 4096);
        assert_eq!(mate_table_mb(4096, None), 4096);
        // Limits that make the same table ask for the same size, and a USI_Hash that is no
        // power of two is rounded down as the table rounds it.
        assert_eq!(mate_table_mb(4096, Some(9_000)), 256);
        assert_eq!(mate_table_mb(1000, None), 512);
        // Never more than USI_Hash.
        assert_eq!(mate_table_mb(16, Some(10_000)), 16);
        assert_eq!(mate_table_mb(1, None), 1);
    }
}
