//! `hayate match`: a tournament runner for any USI engines.
//!
//! Engines come from the command line (`--engine cmd=... name=... option.X=V tc=...`); the
//! schedule is two engines, a round robin or a gauntlet; each opening is played twice with
//! colours swapped; games run `--concurrency` at a time, each with fresh engine processes (or
//! reused ones with `--reuse`); every game is written as CSA and KIF; the summary and an
//! optional penta-nomial SPRT follow cutechess conventions.

pub mod engine;
pub mod game;
pub mod stats;
pub mod tc;

use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use engine::{EngineConfig, UsiProcess};
use game::GameRules;
use stats::{Penta, Sprt, SprtVerdict, Wld};
use tc::TimeControl;

use crate::kifu::{csa, kif, Outcome};
use crate::position::Position;
use crate::types::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// A whole match as the command line describes it.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub schedule: Schedule,
    /// Games per pair.
    pub games: u32,
    pub tc: TimeControl,
    pub rules: GameRules,
    pub concurrency: usize,
    pub reuse: bool,
    /// Lines of `sfen ...`, `startpos moves ...` or a handicap name; empty: the start position.
    pub openings: Vec<String>,
    pub shuffle_seed: Option<u64>,
    /// After each opening, up to this many random board moves that lose nothing by static
    /// exchange, drawn afresh for each pair of games (both colours get the same start).
    pub random_plies: usize,
    pub out: Option<PathBuf>,
    pub sprt: Option<Sprt>,
}

/// A parsed opening: start SFEN and moves.
#[derive(Clone, Debug)]
pub struct Opening {
    pub sfen: String,
    pub moves: Vec<Move>,
}

/// One game to play.
#[derive(Clone, Debug)]
struct Job {
    number: usize,
    pair: usize,
    /// Engine indices by colour.
    black: usize,
    white: usize,
    /// Index into the match's starts ([`game_openings`]): one per pair of games.
    opening: usize,
    /// Which of the two games of this opening (colours swapped in the second).
    leg: usize,
}

/// Results for one pair, from the first engine's view.
#[derive(Clone, Debug, Default)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub wld: Wld,
    pub penta: Penta,
    /// Points of the first engine in the first leg of each opening, waiting for the second.
    pending: Vec<(usize, f64)>,
}

/// The most games per pair: the schedule is made up front, so a mistyped huge number must be
/// refused rather than exhaust memory.
pub const MAX_GAMES: u32 = 1_000_000;
/// The most games at once (each runs two engine processes and a thread).
pub const MAX_CONCURRENCY: usize = 256;

/// Checks the configuration, starts nothing long: errors are for the user at once.
pub fn validate(cfg: &MatchConfig) -> Result<Vec<Opening>, String> {
    if cfg.engines.len() < 2 {
        return Err("a match needs at least two --engine".into());
    }
    if cfg.games == 0 || cfg.games > MAX_GAMES {
        return Err(format!("--games must be 1 to {MAX_GAMES}"));
    }
    if cfg.concurrency > MAX_CONCURRENCY {
        return Err(format!("--concurrency must be at most {MAX_CONCURRENCY}"));
    }
    let mut openings = Vec::new();
    for (i, line) in cfg.openings.iter().enumerate() {
        let pos =
            Position::from_usi(line).map_err(|e| format!("opening {} ('{line}'): {e}", i + 1))?;
        let (start, moves) = pos.start_and_moves();
        openings.push(Opening {
            sfen: start.to_sfen(),
            moves,
        });
    }
    if openings.is_empty() {
        openings.push(Opening {
            sfen: Position::startpos().to_sfen(),
            moves: Vec::new(),
        });
    }
    if let Some(dir) = &cfg.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create output folder {}: {e}", dir.display()))?;
        let probe = dir.join(".hayate-write-test");
        std::fs::write(&probe, b"")
            .map_err(|e| format!("cannot write to output folder {}: {e}", dir.display()))?;
        let _ = std::fs::remove_file(probe);
    }
    // Each engine must start and answer before the match begins.
    for e in &cfg.engines {
        UsiProcess::start(e)?.quit();
    }
    Ok(openings)
}

fn pairs(cfg: &MatchConfig) -> Vec<(usize, usize)> {
    let n = cfg.engines.len();
    match cfg.schedule {
        Schedule::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Schedule::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// The start of each pair of games, in the order they are played: the openings (shuffled with
/// the seed) in turn, each followed by up to `random_plies` random moves.
///
/// Without random moves a match longer than twice the openings plays them again, and at a fixed
/// node count deterministic engines then play the same games again: an SPRT would count each
/// game two or three times and reach its verdict on a fraction of the evidence it claims.
fn game_openings(cfg: &MatchConfig, openings: &[Opening]) -> Vec<Opening> {
    let mut order: Vec<usize> = (0..openings.len()).collect();
    let seed = cfg.shuffle_seed.unwrap_or(0);
    if cfg.shuffle_seed.is_some() {
        crate::rng::Rng::seeded(seed).shuffle(&mut order);
    }
    (0..(cfg.games as usize).div_ceil(2))
        .map(|k| {
            let mut o = openings[order[k % order.len()]].clone();
            if cfg.random_plies > 0 {
                let mut rng = crate::rng::Rng::seeded(
                    seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
                add_random_plies(&mut o, cfg.random_plies, &mut rng);
            }
            o
        })
        .collect()
}

/// Plays `0..=max` random board moves after the opening `o`, each one that loses nothing by
/// static exchange (a random drop or a hanging piece would decide the game before it starts).
fn add_random_plies(o: &mut Opening, max: usize, rng: &mut crate::rng::Rng) {
    let Ok(mut pos) = Position::from_sfen(&o.sfen) else {
        return;
    };
    for &m in &o.moves {
        pos.do_move(m);
    }
    let mut list = crate::movegen::MoveList::new();
    for _ in 0..rng.below(max as u64 + 1) {
        crate::search::see::quiet_board_moves(&pos, &mut list);
        if list.is_empty() {
            break;
        }
        let m = list[rng.below(list.len() as u64) as usize];
        pos.do_move(m);
        o.moves.push(m);
    }
}

fn jobs(cfg: &MatchConfig) -> Vec<Job> {
    let mut out = Vec::new();
    let mut number = 0;
    for (p, &(a, b)) in pairs(cfg).iter().enumerate() {
        for g in 0..cfg.games as usize {
            let opening = g / 2;
            let leg = g % 2;
            let (black, white) = if leg == 0 { (a, b) } else { (b, a) };
            number += 1;
            out.push(Job {
                number,
                pair: p,
                black,
                white,
                opening,
                leg,
            });
        }
    }
    out
}

/// The state of a match after a game, for a progress display: the runner prints its lines to
/// its output, and whoever draws progress (the command line) takes this.
pub struct Progress<'a> {
    /// Games finished, and games scheduled.
    pub done: usize,
    pub total: usize,
    /// The pair of the game just finished, from its first engine's view.
    pub pair: &'a PairResult,
    /// The names of the pair's first and second engines.
    pub names: (&'a str, &'a str),
}

/// Runs the match, printing progress and the summary to `out`; returns the pair results.
pub fn run(cfg: &MatchConfig, out: &mut (dyn Write + Send)) -> Result<Vec<PairResult>, String> {
    run_reporting(cfg, out, &|_| {})
}

/// [`run`], telling `progress` the state after each game (from the games' threads).
pub fn run_reporting(
    cfg: &MatchConfig,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<Vec<PairResult>, String> {
    let openings = validate(cfg)?;
    if cfg.random_plies == 0 && cfg.games as usize > 2 * openings.len() {
        eprintln!(
            "warning: {} games but {} openings: games after the first {} start from the same \
             positions again, and at a fixed node count repeat exactly (--random-plies varies them)",
            cfg.games,
            openings.len(),
            2 * openings.len()
        );
    }
    let openings = game_openings(cfg, &openings);
    let all_jobs = jobs(cfg);
    let total = all_jobs.len();
    let queue = Mutex::new(all_jobs.into_iter().collect::<VecDeque<Job>>());
    let results = Mutex::new(
        pairs(cfg)
            .into_iter()
            .map(|(a, b)| PairResult {
                a,
                b,
                ..PairResult::default()
            })
            .collect::<Vec<_>>(),
    );
    let done = Mutex::new(0usize);
    let out = Mutex::new(out);
    let say = |text: &str| {
        if let Ok(mut o) = out.lock() {
            let _ = writeln!(o, "{text}");
            let _ = o.flush();
        }
    };
    say(&format!(
        "Match: {} engines, {} games, {} at a time, tc {}",
        cfg.engines.len(),
        total,
        cfg.concurrency.max(1),
        cfg.tc
    ));
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            s.spawn(|| {
                let mut kept: Vec<Option<UsiProcess>> = cfg.engines.iter().map(|_| None).collect();
                // The lock is taken inside the closure so that it is released before the game:
                // a guard in a `while let` condition would live for the whole loop body.
                let next_job = || queue.lock().ok().and_then(|mut q| q.pop_front());
                while let Some(job) = next_job() {
                    let rec = play_job(cfg, &openings, &job, &mut kept);
                    let outcome = rec.as_ref().ok().and_then(|r| r.outcome());
                    let reason = rec.as_ref().map(|r| r.ending.map_or("?", |e| e.describe())).unwrap_or("could not start");
                    if let (Ok(r), Some(dir)) = (&rec, &cfg.out) {
                        if let Err(e) = write_records(dir, job.number, r) {
                            say(&format!("warning: game {}: {e}", job.number));
                        }
                    }
                    if let Err(e) = &rec {
                        say(&format!("game {}: {e}", job.number));
                    }
                    // Points of the pair's first engine.
                    let first_is_black = job.leg == 0;
                    let points = match outcome {
                        Some(Outcome::BlackWin) => Some(if first_is_black { 1.0 } else { 0.0 }),
                        Some(Outcome::WhiteWin) => Some(if first_is_black { 0.0 } else { 1.0 }),
                        Some(Outcome::Draw) => Some(0.5),
                        None => None,
                    };
                    let n = done.lock().map(|mut d| {
                        *d += 1;
                        *d
                    }).unwrap_or(0);
                    let mut stop = false;
                    if let Ok(mut res) = results.lock() {
                        let single_pair = res.len() == 1;
                        let r = &mut res[job.pair];
                        if let Some(p) = points {
                            match p {
                                1.0 => r.wld.wins += 1,
                                0.0 => r.wld.losses += 1,
                                _ => r.wld.draws += 1,
                            }
                            if let Some(i) = r.pending.iter().position(|(o, _)| *o == job.opening) {
                                let (_, first) = r.pending.swap_remove(i);
                                r.penta.add_pair(first + p);
                            } else {
                                r.pending.push((job.opening, p));
                            }
                        }
                        let (e, m) = stats::elo_with_error(&r.wld);
                        say(&format!(
                            "Finished game {} ({} vs {}): {} {{{}}}  [{}/{}]  {} {}-{}-{}  Elo {:+.0} +/- {:.0}",
                            job.number,
                            cfg.engines[job.black].name,
                            cfg.engines[job.white].name,
                            match outcome {
                                Some(Outcome::BlackWin) => "1-0",
                                Some(Outcome::WhiteWin) => "0-1",
                                Some(Outcome::Draw) => "1/2-1/2",
                                None => "*",
                            },
                            reason,
                            n,
                            total,
                            cfg.engines[r.a].name,
                            r.wld.wins,
                            r.wld.losses,
                            r.wld.draws,
                            e,
                            m
                        ));
                        progress(&Progress {
                            done: n,
                            total,
                            pair: r,
                            names: (&cfg.engines[r.a].name, &cfg.engines[r.b].name),
                        });
                        if let Some(t) = cfg.sprt {
                            let v = t.verdict(&r.penta);
                            if v != SprtVerdict::Continue && single_pair {
                                say(&format!("SPRT: llr {:.2} ({:.2}, {:.2}): {}", t.llr(&r.penta), t.bounds().0, t.bounds().1, if v == SprtVerdict::H1 { "H1 accepted" } else { "H0 accepted" }));
                                stop = true;
                            }
                        }
                    }
                    if stop {
                        if let Ok(mut q) = queue.lock() {
                            q.clear();
                        }
                    }
                }
                for p in kept.into_iter().flatten() {
                    p.quit();
                }
            });
        }
    });
    let results = results.into_inner().map_err(|_| "results lost")?;
    for r in &results {
        say(&stats::summary(
            &cfg.engines[r.a].name,
            &cfg.engines[r.b].name,
            &r.wld,
        ));
        if let Some(t) = cfg.sprt {
            say(&format!(
                "SPRT: llr {:.2} ({:.2}, {:.2}), pairs {:?}",
                t.llr(&r.penta),
                t.bounds().0,
                t.bounds().1,
                r.penta.counts
            ));
        }
    }
    if cfg.schedule == Schedule::RoundRobin && cfg.engines.len() > 2 {
        say(&crosstable(cfg, &results));
    }
    Ok(results)
}

fn play_job(
    cfg: &MatchConfig,
    openings: &[Opening],
    job: &Job,
    kept: &mut [Option<UsiProcess>],
) -> Result<crate::kifu::GameRecord, String> {
    // An engine that cannot be (re)started loses the game; say why on stderr.
    let say_err = |e: &str| eprintln!("game {}: {e}", job.number);
    let mut take = |i: usize| -> Result<UsiProcess, String> {
        match kept[i].take() {
            Some(mut p) if cfg.reuse => {
                if p.alive() {
                    Ok(p)
                } else {
                    UsiProcess::start(&cfg.engines[i])
                }
            }
            _ => UsiProcess::start(&cfg.engines[i]),
        }
    };
    let start_failed = |i: usize| -> crate::kifu::GameRecord {
        // An engine that cannot start loses the game.
        let o = &openings[job.opening];
        let loser = if i == job.black {
            crate::types::Color::Black
        } else {
            crate::types::Color::White
        };
        let mut pos = Position::from_sfen(&o.sfen).unwrap_or_default();
        for &m in &o.moves {
            pos.do_move(m);
        }
        crate::kifu::GameRecord {
            black: cfg.engines[job.black].name.clone(),
            white: cfg.engines[job.white].name.clone(),
            event: "hayate match".into(),
            start_time: game::now_text(),
            time_control: cfg.tc.to_string(),
            start_sfen: o.sfen.clone(),
            moves: o
                .moves
                .iter()
                .map(|&mv| crate::kifu::RecordedMove {
                    mv,
                    time_ms: 0,
                    comment: None,
                })
                .collect(),
            ending: Some(crate::kifu::Ending::Crash { loser }),
        }
    };
    let mut black = match take(job.black) {
        Ok(p) => p,
        Err(e) => {
            say_err(&e);
            return Ok(start_failed(job.black));
        }
    };
    let mut white = match take(job.white) {
        Ok(p) => p,
        Err(e) => {
            say_err(&e);
            return Ok(start_failed(job.white));
        }
    };
    let tcs = [
        cfg.engines[job.black].tc.unwrap_or(cfg.tc),
        cfg.engines[job.white].tc.unwrap_or(cfg.tc),
    ];
    let o = &openings[job.opening];
    let rec = game::play([&mut black, &mut white], tcs, &o.sfen, &o.moves, &cfg.rules);
    if cfg.reuse {
        if black.alive() {
            kept[job.black] = Some(black);
        }
        if white.alive() {
            kept[job.white] = Some(white);
        }
    } else {
        black.quit();
        white.quit();
    }
    Ok(rec)
}

fn write_records(
    dir: &std::path::Path,
    number: usize,
    rec: &crate::kifu::GameRecord,
) -> Result<(), String> {
    let base = dir.join(format!("game-{number:04}"));
    let c = csa::write(rec)?;
    std::fs::write(base.with_extension("csa"), c)
        .map_err(|e| format!("cannot write record: {e}"))?;
    let k = kif::write(rec)?;
    std::fs::write(base.with_extension("kifu"), k)
        .map_err(|e| format!("cannot write record: {e}"))?;
    Ok(())
}

fn crosstable(cfg: &MatchConfig, results: &[PairResult]) -> String {
    let n = cfg.engines.len();
    let width = cfg
        .engines
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut points = vec![0.0f64; n];
    let mut games = vec![0u32; n];
    let mut cell = vec![vec![String::from("-"); n]; n];
    for r in results {
        let a = r.wld.wins as f64 + 0.5 * r.wld.draws as f64;
        let b = r.wld.losses as f64 + 0.5 * r.wld.draws as f64;
        points[r.a] += a;
        points[r.b] += b;
        games[r.a] += r.wld.games();
        games[r.b] += r.wld.games();
        cell[r.a][r.b] = format!("{a}/{}", r.wld.games());
        cell[r.b][r.a] = format!("{b}/{}", r.wld.games());
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| {
        points[y]
            .partial_cmp(&points[x])
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut s = format!(
        "{:>3} {:<width$} {:>7} {:>5}",
        "#", "Engine", "Points", "Games"
    );
    for (i, _) in order.iter().enumerate() {
        s.push_str(&format!(" {:>8}", i + 1));
    }
    s.push('\n');
    for (rank, &i) in order.iter().enumerate() {
        s.push_str(&format!(
            "{:>3} {:<width$} {:>7.1} {:>5}",
            rank + 1,
            cfg.engines[i].name,
            points[i],
            games[i]
        ));
        for &j in &order {
            s.push_str(&format!(" {:>8}", cell[i][j]));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(games: u32, random_plies: usize) -> MatchConfig {
        MatchConfig {
            engines: Vec::new(),
            schedule: Schedule::RoundRobin,
            games,
            tc: TimeControl::parse("nodes=1000").unwrap(),
            rules: GameRules::default(),
            concurrency: 1,
            reuse: false,
            openings: Vec::new(),
            shuffle_seed: Some(7),
            random_plies,
            out: None,
            sprt: None,
        }
    }

    fn two_openings() -> Vec<Opening> {
        ["startpos", "startpos moves 7g7f 3c3d"]
            .iter()
            .map(|line| {
                let (start, moves) = Position::from_usi(line).unwrap().start_and_moves();
                Opening {
                    sfen: start.to_sfen(),
                    moves,
                }
            })
            .collect()
    }

    #[test]
    fn without_random_plies_the_openings_come_round_again() {
        let starts = game_openings(&config(12, 0), &two_openings());
        assert_eq!(starts.len(), 6);
        for k in 2..6 {
            assert_eq!(starts[k].moves, starts[k - 2].moves);
        }
    }

    #[test]
    fn random_plies_give_each_pair_of_games_its_own_legal_start() {
        let base = two_openings();
        let starts = game_openings(&config(40, 4), &base);
        assert_eq!(starts.len(), 20);
        let mut lines = std::collections::HashSet::new();
        for o in &starts {
            // Each start is one of the openings followed by at most four board moves, each
            // legal where it is played.
            let b = base
                .iter()
                .filter(|b| o.moves.starts_with(&b.moves))
                .max_by_key(|b| b.moves.len())
                .expect("an opening's moves first");
            assert!(o.moves.len() - b.moves.len() <= 4);
            let mut pos = Position::from_sfen(&o.sfen).unwrap();
            for &m in &o.moves {
                assert!(pos.is_legal(m) && !m.is_drop());
                pos.do_move(m);
            }
            lines.insert(o.moves.clone());
        }
        // Two openings, yet (nearly) every pair of games starts from its own position.
        assert!(lines.len() >= 15, "only {} different starts", lines.len());
        // The same seed gives the same starts.
        let again = game_openings(&config(40, 4), &base);
        assert!(starts.iter().zip(&again).all(|(a, b)| a.moves == b.moves));
    }
}
