//! `hayate selfplay`: games of Hayate against itself at a fixed node budget, the training data
//! of the neural evaluation.
//!
//! Each game starts from a position of the openings file, followed by a few random legal plies
//! so that no two games repeat. Every later position is searched with the same node budget by
//! one search thread with its own table; the score and the move it chose are recorded. A game
//! ends by mate, repetition (the first repetition, as the search counts it), the entering-king
//! declaration, a ply limit (a draw), or when the side to move sees itself lost by more than
//! the resign score.
//!
//! Games are appended to one file as they finish, so the run can be stopped at any time and
//! resumed: it counts the games already there and plays the rest.

pub mod psv;
pub mod record;

use std::fs::OpenOptions;
use std::io::Write;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::movegen::{generate_legal, MoveList};
use crate::position::{Position, Repetition};
use crate::search::see::quiet_board_moves;
use crate::search::{self, BestMove, Histories, Info, Limits, Score, SearchOptions};
use crate::tt::TranspositionTable;
use crate::types::Move;
use record::{GameRecord, Outcome};

/// What `hayate selfplay` plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// Total games wanted in the file (those already there count).
    pub games: usize,
    /// Search nodes per move.
    pub nodes: u64,
    pub threads: usize,
    /// Random legal plies after the opening position: between 0 and this many.
    pub random_plies: usize,
    /// A game longer than this many plies (from its opening) is a draw.
    pub max_plies: usize,
    /// The side to move resigns when its score is below minus this.
    pub resign: i32,
    pub hash_mb: usize,
    pub seed: u64,
    /// The net that evaluates, or `None` for the hand-written evaluation.
    pub net: Option<std::sync::Arc<crate::eval::nnue::Network>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            games: 1000,
            nodes: 5000,
            threads: 1,
            random_plies: 6,
            max_plies: 320,
            resign: 3000,
            hash_mb: 16,
            seed: 1,
            net: None,
        }
    }
}

/// Reads the openings: lines `sfen <4 fields> [moves ...]`, `startpos [moves ...]`, a bare
/// SFEN or a handicap name ([`Position::from_usi`]); `#` starts a comment.
pub fn parse_openings(text: &str) -> Result<Vec<Position>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // The `position` command's own reader, so openings take exactly what a GUI may send.
        let pos = Position::from_usi(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push(Position::from_sfen(&pos.to_sfen()).map_err(|e| e.to_string())?);
    }
    if out.is_empty() {
        return Err("no opening positions".into());
    }
    Ok(out)
}

/// Openings whose quick search score is further from even than this are drawn again.
const BALANCED: i32 = 300;
/// Nodes of that quick search.
const BALANCE_NODES: u64 = 2000;

/// The position where game `index` starts: an opening and random plies, drawn from a
/// generator seeded by the run's seed and the game's index alone. The random plies are board
/// moves that lose nothing by static exchange (a random drop or a hanging piece makes a game
/// that is over before it starts), and a start that a quick search scores as clearly won for
/// one side is drawn again, a few times at most.
fn start_position(
    openings: &[Position],
    opts: &Options,
    index: usize,
    tt: &TranspositionTable,
) -> Position {
    let mut rng =
        StdRng::seed_from_u64(opts.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut list = MoveList::new();
    let mut start = openings[0].clone();
    for _attempt in 0..8 {
        let mut pos = openings[rng.gen_range(0..openings.len())].clone();
        let plies = rng.gen_range(0..=opts.random_plies);
        for _ in 0..plies {
            quiet_board_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list[rng.gen_range(0..list.len())];
            pos.do_move(m);
        }
        // Start afresh, so the record's first position has no history the reader cannot see.
        start = Position::from_sfen(&pos.to_sfen()).unwrap_or(pos);
        let (_, score) = think(&start, BALANCE_NODES, opts, tt, &Mutex::new(Vec::new()));
        if score.abs() <= BALANCED {
            break;
        }
    }
    start
}

/// One search of `pos` within `nodes`: the decision and the score of the last iteration.
fn think(
    pos: &Position,
    nodes: u64,
    opts: &Options,
    tt: &TranspositionTable,
    histories: &Histories,
) -> (BestMove, i32) {
    let options = SearchOptions {
        threads: 1,
        resign_value: opts.resign,
        net: opts.net.clone(),
        ..SearchOptions::default()
    };
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let last = AtomicI32::new(0);
    let report = |info: &Info| {
        if info.multipv == 1 {
            last.store(score_value(info.score), Ordering::Relaxed);
        }
    };
    let shared = search::Shared::default();
    let best = search::search(pos, &limits, &options, tt, histories, &shared, &report);
    (best, last.load(Ordering::Relaxed))
}

/// A score as the search's value, mates included.
fn score_value(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n >= 0 => search::VALUE_MATE - n,
        Score::Mate(n) => -search::VALUE_MATE - n,
    }
}

/// Plays game `index` to its end.
pub fn play_game(
    openings: &[Position],
    opts: &Options,
    index: usize,
    tt: &TranspositionTable,
) -> GameRecord {
    tt.clear();
    let mut pos = start_position(openings, opts, index, tt);
    let start = pos.to_sfen();
    tt.clear();
    let histories: Histories = Mutex::new(Vec::new());
    let mut moves: Vec<Move> = Vec::new();
    let mut scores = Vec::new();
    let mut list = MoveList::new();
    let outcome = loop {
        let us = pos.side_to_move();
        list.clear();
        generate_legal(&pos, &mut list);
        if list.is_empty() {
            break Outcome::win(!us);
        }
        if !moves.is_empty() {
            match pos.repetition(usize::MAX) {
                Repetition::Draw => break Outcome::Draw,
                // The opponent checked all the way round: they lose.
                Repetition::Win => break Outcome::win(us),
                Repetition::Loss => break Outcome::win(!us),
                _ => {}
            }
        }
        if moves.len() >= opts.max_plies {
            break Outcome::Draw;
        }
        match think(&pos, opts.nodes, opts, tt, &histories) {
            (BestMove::Win, _) => break Outcome::win(us),
            (BestMove::Resign, _) => break Outcome::win(!us),
            (BestMove::Move { best, .. }, score) => {
                moves.push(best);
                scores.push(score);
                pos.do_move(best);
            }
        }
    };
    GameRecord {
        start,
        moves,
        scores,
        outcome,
    }
}

/// Counts the whole games of an existing file and cuts off a damaged tail; creates the file
/// with its magic when it does not exist.
fn prepare_file(path: &str) -> Result<(usize, usize), String> {
    let data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::write(path, record::MAGIC).map_err(|e| format!("{path}: {e}"))?;
            return Ok((0, 0));
        }
        Err(e) => return Err(format!("{path}: {e}")),
    };
    let mut r = record::Reader::new(&data).map_err(|e| format!("{path}: {e}"))?;
    let (mut games, mut positions) = (0, 0);
    while let Some(g) = r.next_game() {
        match g {
            Ok(g) => {
                games += 1;
                positions += g.moves.len();
            }
            Err(_) => break,
        }
    }
    if r.offset() < data.len() {
        eprintln!(
            "{path}: the last {} bytes are not a whole game: cut off",
            data.len() - r.offset()
        );
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{path}: {e}"))?;
        f.set_len(r.offset() as u64)
            .map_err(|e| format!("{path}: {e}"))?;
    }
    Ok((games, positions))
}

fn format_duration(secs: f64) -> String {
    let s = secs.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// What a self-play run tells its caller as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// A line worth showing once: what the file held at the start, a thread that failed, the
    /// totals at the end.
    Note(String),
    /// A few times a second: the games and the positions in the file now.
    Progress { games: usize, positions: u64 },
}

/// Plays games into `path` until it holds `opts.games`, telling `report` how it goes.
pub fn run(
    path: &str,
    openings: &[Position],
    opts: &Options,
    report: &mut dyn FnMut(Report),
) -> Result<(), String> {
    let (done, old_positions) = prepare_file(path)?;
    if done >= opts.games {
        report(Report::Note(format!("{path}: already {done} games")));
        return Ok(());
    }
    report(Report::Note(format!(
        "{path}: {done} games ({old_positions} positions) there; playing to {}",
        opts.games
    )));
    report(Report::Progress {
        games: done,
        positions: old_positions as u64,
    });
    let file = Mutex::new(
        OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{path}: {e}"))?,
    );
    let next = AtomicUsize::new(done);
    let finished = AtomicUsize::new(done);
    let positions = AtomicU64::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let begun = Instant::now();
    std::thread::scope(|s| {
        let mut workers = Vec::new();
        for _ in 0..opts.threads.max(1) {
            let builder = std::thread::Builder::new().stack_size(64 << 20);
            let worker = builder.spawn_scoped(s, || {
                let tt = TranspositionTable::new(opts.hash_mb);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= opts.games || failure.lock().map_or(true, |f| f.is_some()) {
                        break;
                    }
                    let game = play_game(openings, opts, index, &tt);
                    let mut bytes = Vec::new();
                    let written = game.encode(&mut bytes).and_then(|()| {
                        let mut f = file.lock().map_err(|_| "file lock poisoned".to_string())?;
                        f.write_all(&bytes).map_err(|e| format!("{path}: {e}"))
                    });
                    if let Err(e) = written {
                        if let Ok(mut f) = failure.lock() {
                            *f = Some(e);
                        }
                        break;
                    }
                    positions.fetch_add(game.moves.len() as u64, Ordering::Relaxed);
                    finished.fetch_add(1, Ordering::Relaxed);
                }
            });
            match worker {
                Ok(w) => workers.push(w),
                Err(e) => report(Report::Note(format!(
                    "selfplay: could not start a thread: {e}"
                ))),
            }
        }
        while workers.iter().any(|w| !w.is_finished()) {
            std::thread::sleep(Duration::from_millis(200));
            report(Report::Progress {
                games: finished.load(Ordering::Relaxed),
                positions: old_positions as u64 + positions.load(Ordering::Relaxed),
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let games = finished.load(Ordering::Relaxed);
    report(Report::Note(format!(
        "selfplay: {games} games, {} positions, in {}",
        old_positions as u64 + positions.load(Ordering::Relaxed),
        format_duration(begun.elapsed().as_secs_f64())
    )));
    Ok(())
}
