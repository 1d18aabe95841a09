//! The search: iterative deepening, aspiration windows, principal-variation alpha-beta with a
//! shared transposition table, quiescence, pruning and Lazy SMP threads.
//!
//! The search never prints: it reports each iteration through a callback and returns the result;
//! the USI layer formats both.

pub mod correction;
pub mod history;
mod movepick;
pub mod params;
mod searcher;
pub mod see;
pub mod timeman;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use history::{Histories, History};
pub use searcher::Searcher;
pub use timeman::{Limits, TimeOptions};

use crate::position::{EnteringKingRule, Position};
use crate::tt::TranspositionTable;
use crate::types::{Color, Move};

pub use crate::eval::Value;
pub const MAX_PLY: usize = 120;
pub const VALUE_MATE: Value = 32000;
pub const VALUE_INFINITE: Value = 32001;
pub const VALUE_MATE_IN_MAX_PLY: Value = VALUE_MATE - MAX_PLY as Value;
/// A superior repetition (same board, more in hand): a clear gain short of a win.
pub const VALUE_SUPERIOR: Value = 3000;

/// A score as USI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Plies to mate: positive when the side to move mates.
    Mate(i32),
}

impl Score {
    pub fn from_value(v: Value) -> Score {
        if v >= VALUE_MATE_IN_MAX_PLY {
            Score::Mate(VALUE_MATE - v)
        } else if v <= -VALUE_MATE_IN_MAX_PLY {
            Score::Mate(-(VALUE_MATE + v))
        } else {
            Score::Cp(v)
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub multipv: usize,
    pub pv: Vec<Move>,
}

/// What the search decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    Move { best: Move, ponder: Option<Move> },
    Resign,
    Win,
}

/// Settings the search reads from the engine options.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub time: TimeOptions,
    /// Value of a draw for Black and for White, from that side's point of view.
    pub draw_value: [Value; 2],
    pub resign_value: Value,
    pub max_moves_to_draw: u32,
    pub entering_king_rule: EnteringKingRule,
    /// The neural net that evaluates, or `None` for the hand-written evaluation.
    pub net: Option<std::sync::Arc<crate::eval::nnue::Network>>,
    /// The search's margins and reductions.
    pub params: params::SearchParams,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            multipv: 1,
            time: TimeOptions::default(),
            draw_value: [-2, -2],
            resign_value: 99999,
            max_moves_to_draw: 0,
            entering_king_rule: EnteringKingRule::Csa27,
            net: None,
            params: params::DEFAULT,
        }
    }
}

/// State shared by all threads of one search and by the protocol thread that may stop it.
pub struct Shared {
    /// Set by the protocol thread (`stop`, `gameover`, `quit`) or by the time limit.
    pub stop: AtomicBool,
    /// Set when the main search thread is done, to end the helper threads. Kept apart from
    /// `stop` because a finished search must still wait for `stop` when pondering or infinite.
    pub main_done: AtomicBool,
    /// True while pondering: no time limit applies until `ponderhit`.
    pub pondering: AtomicBool,
    pub nodes: AtomicU64,
    /// Time allotment in ms, (optimum, maximum); recomputed at `ponderhit`.
    pub allotment: Mutex<Option<(u64, u64)>>,
    /// When the clock for this move started (the `go`, or the `ponderhit`).
    pub clock_start: Mutex<Instant>,
}

impl Default for Shared {
    fn default() -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            main_done: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            allotment: Mutex::new(None),
            clock_start: Mutex::new(Instant::now()),
        }
    }
}

impl Shared {
    /// Whether the search threads should stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.main_done.load(Ordering::Relaxed)
    }

    /// Milliseconds on this move's clock.
    pub fn elapsed_ms(&self) -> u64 {
        self.clock_start
            .lock()
            .map(|t| t.elapsed().as_millis() as u64)
            .unwrap_or(0)
    }

    fn allotment(&self) -> Option<(u64, u64)> {
        self.allotment.lock().ok().and_then(|a| *a)
    }
}

/// Searches `pos` with `options.threads` threads sharing `tt`, reporting through `report`, and
/// returns the decision. `shared.stop` ends it early.
pub fn search(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    tt: &TranspositionTable,
    histories: &Histories,
    shared: &Shared,
    report: &(dyn Fn(&Info) + Sync),
) -> BestMove {
    if options.entering_king_rule != EnteringKingRule::Try
        && pos.can_declare_win(options.entering_king_rule)
    {
        return BestMove::Win;
    }
    let mut root_moves = crate::movegen::MoveList::new();
    crate::movegen::generate_legal(pos, &mut root_moves);
    let mut root: Vec<Move> = root_moves.to_vec();
    // Only the `searchmoves` that are legal here count; with none of them legal, all moves do.
    if limits.searchmoves.iter().any(|m| root.contains(m)) {
        root.retain(|m| limits.searchmoves.contains(m));
    }
    if root.is_empty() {
        return BestMove::Resign;
    }
    tt.new_search();
    let threads = options.threads.max(1);
    let results: Mutex<Vec<(usize, Option<searcher::RootResult>)>> = Mutex::new(Vec::new());
    // A poisoned lock only means an earlier search panicked: its histories are still numbers.
    let mut histories = histories.lock().unwrap_or_else(|e| e.into_inner());
    if histories.len() < threads {
        histories.resize_with(threads, History::default);
    }
    // The main thread's best line so far, kept from its reports: the answer if it panics.
    let reported: Mutex<Option<(Move, Option<Move>)>> = Mutex::new(None);
    let keep_and_report = |info: &Info| {
        if info.multipv <= 1 {
            if let (Some(&best), Ok(mut r)) = (info.pv.first(), reported.lock()) {
                *r = Some((best, info.pv.get(1).copied()));
            }
        }
        report(info);
    };
    let panicked = AtomicBool::new(false);
    std::thread::scope(|s| {
        for (id, history) in histories.iter_mut().take(threads).enumerate() {
            let root = root.clone();
            let results = &results;
            let (panicked, keep_and_report) = (&panicked, &keep_and_report);
            let builder = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(64 << 20);
            let handle = builder.spawn_scoped(s, move || {
                // A panic (a bug) must not cost the game: it is caught here. A helper's ends
                // only that helper; the main thread's ends the search, which answers from what
                // is known.
                let run = std::panic::AssertUnwindSafe(|| {
                    let mut searcher =
                        Searcher::new(pos.clone(), tt, shared, options, limits, history, id);
                    let main_report: &(dyn Fn(&Info) + Sync) = keep_and_report;
                    searcher.iterate(root, if id == 0 { Some(main_report) } else { None })
                });
                let r = std::panic::catch_unwind(run).unwrap_or_else(|_| {
                    panicked.store(true, Ordering::Relaxed);
                    None
                });
                if id == 0 {
                    // The main thread decides; helpers stop with it.
                    shared.main_done.store(true, Ordering::Relaxed);
                }
                if let Ok(mut v) = results.lock() {
                    v.push((id, r));
                }
            });
            if handle.is_err() {
                // Could not start a helper thread: search with fewer.
                continue;
            }
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut main = None;
    let mut helper = None;
    for (id, r) in results {
        match r {
            Some(r) if id == 0 => main = Some(r),
            Some(r) if helper.is_none() => helper = Some(r),
            _ => {}
        }
    }
    let Some(main) = main else {
        if !panicked.load(Ordering::Relaxed) {
            return BestMove::Move {
                best: root[0],
                ponder: None,
            };
        }
        // After a panic: the main thread's best line so far, else a helper's result, else
        // resign (nothing is known about the moves).
        let reported = reported.into_inner().unwrap_or_else(|e| e.into_inner());
        return match reported.or(helper.map(|h| (h.best, h.ponder))) {
            Some((best, ponder)) if root.contains(&best) => BestMove::Move { best, ponder },
            _ => BestMove::Resign,
        };
    };
    if main.score <= -options.resign_value && main.score > -VALUE_INFINITE {
        return BestMove::Resign;
    }
    BestMove::Move {
        best: main.best,
        ponder: main.ponder,
    }
}

/// Waits while pondering or in infinite mode until the protocol thread ends it (the rule: no
/// `bestmove` before `stop`/`ponderhit` then).
pub fn wait_for_release(shared: &Shared, infinite: bool) {
    while (shared.pondering.load(Ordering::Relaxed) || infinite)
        && !shared.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The draw value at a node, from the side to move's point of view.
fn draw_value(options: &SearchOptions, root: Color, stm: Color) -> Value {
    let v = options.draw_value[root.index()];
    if stm == root {
        v
    } else {
        -v
    }
}
