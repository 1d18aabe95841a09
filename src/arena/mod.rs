//! `hayate match`: a tournament runner for any USI engines.
//!
//! Engines come from the command line (`--engine cmd=... name=... option.X=V tc=...`); the
//! schedule is two engines, a round robin or a gauntlet; each opening is played twice with
//! colours swapped; games run `--concurrency` at a time, each with fresh engine processes (or
//! reused ones with `--reuse`); every game is written as CSA and KIF; the summary and an
//! optional penta-nomial SPRT follow cutechess conventions.

pub mod config;
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
use crate::position::{EnteringKingRule, Position};
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
    pub out: Option<PathBuf>,
    pub sprt: Option<Sprt>,
}

/// A parsed opening: start SFEN and moves.
#[derive(Clone, Debug)]
pub struct Opening {
    pub sfen: String,
    pub moves: Vec<Move>,
}

/// Parses one opening line: `startpos [moves ...]`, `sfen <4 fields> [moves ...]` (with or without
/// a leading `position`), or a handicap name.
pub fn parse_opening(line: &str) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let words = if words.first() == Some(&"position") {
        &words[1..]
    } else {
        &words[..]
    };
    let mut pos = crate::usi::parse_position(words)?;
    let mut moves = Vec::new();
    while let Some(m) = pos.last_move() {
        moves.push(m);
        pos.undo_move(m);
    }
    moves.reverse();
    Ok(Opening {
        sfen: pos.to_sfen(),
        moves,
    })
}

/// One game to play.
#[derive(Clone, Debug)]
struct Job {
    number: usize,
    pair: usize,
    /// Engine indices by colour.
    black: usize,
    white: usize,
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
        let o = parse_opening(line).map_err(|e| format!("opening {} ('{line}'): {e}", i + 1))?;
        openings.push(o);
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

fn jobs(cfg: &MatchConfig, openings: usize) -> Vec<Job> {
    let mut order: Vec<usize> = (0..openings).collect();
    if let Some(seed) = cfg.shuffle_seed {
        // A small xorshift: a shuffle needs no more, and it stays the same across builds.
        let mut x = seed | 1;
        for i in (1..order.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            order.swap(i, (x % (i as u64 + 1)) as usize);
        }
    }
    let mut out = Vec::new();
    let mut number = 0;
    for (p, &(a, b)) in pairs(cfg).iter().enumerate() {
        for g in 0..cfg.games as usize {
            let opening = order[(g / 2) % order.len()];
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

/// Runs the match, printing progress and the summary to `out`; returns the pair results.
pub fn run(cfg: &MatchConfig, out: &mut (dyn Write + Send)) -> Result<Vec<PairResult>, String> {
    let openings = validate(cfg)?;
    let all_jobs = jobs(cfg, openings.len());
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

/// The openings `hayate match` plays when none are given: the balanced positions shipped in
/// `book/openings.sfen`, looked for as the engine looks for its book.
pub const DEFAULT_OPENINGS: &str = "openings.sfen";

/// Parses the command line of `hayate match`: [`parse_args`], then the shipped openings
/// (`book/openings.sfen`) when neither `--openings` nor `--handicap` chose a start, so every
/// match starts from real shogi. Without that file, games start from the start position.
pub fn parse_command_line(args: &[String]) -> Result<MatchConfig, String> {
    let mut cfg = parse_args(args)?;
    if cfg.openings.is_empty() {
        let path = crate::book::resolve("book", DEFAULT_OPENINGS);
        if path.is_file() {
            cfg.openings = read_openings(&path.to_string_lossy())?;
        }
    }
    Ok(cfg)
}

fn read_openings(path: &str) -> Result<Vec<String>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read openings {path}: {e}"))?;
    Ok(opening_lines(&text))
}

/// The opening lines of an `--openings` file's text: blank lines and `#` comments left out.
/// Each is read by [`parse_opening`] when the match is checked.
pub fn opening_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// Parses `hayate match` arguments.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    let mut cfg = MatchConfig {
        engines: Vec::new(),
        schedule: Schedule::RoundRobin,
        games: 2,
        tc: TimeControl::Clock {
            time: 0,
            inc: 0,
            byoyomi: 1000,
        },
        rules: GameRules::default(),
        concurrency: 1,
        reuse: false,
        openings: Vec::new(),
        shuffle_seed: None,
        out: None,
        sprt: None,
    };
    let mut i = 0;
    let value = |i: usize, what: &str| -> Result<&String, String> {
        args.get(i + 1)
            .ok_or_else(|| format!("{what} needs a value"))
    };
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--config" => {
                let path = value(i, a)?;
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read configuration {path}: {e}"))?;
                let mut expanded = config::to_args(&text)?;
                expanded.extend(args[i + 2..].iter().cloned());
                let mut base = parse_args(&expanded)?;
                // Engines given on the command line before --config come first.
                let before = parse_args(&args[..i])?;
                let mut engines = before.engines;
                engines.append(&mut base.engines);
                base.engines = engines;
                return Ok(base);
            }
            "--engine" => {
                let mut words = Vec::new();
                let mut j = i + 1;
                while j < args.len() && !args[j].starts_with("--") {
                    words.push(args[j].as_str());
                    j += 1;
                }
                cfg.engines.push(EngineConfig::parse(&words)?);
                i = j;
                continue;
            }
            "--games" => cfg.games = value(i, a)?.parse().map_err(|_| "--games needs a number")?,
            "--tc" => cfg.tc = TimeControl::parse(value(i, a)?)?,
            "--concurrency" => {
                cfg.concurrency = value(i, a)?
                    .parse()
                    .map_err(|_| "--concurrency needs a number")?
            }
            "--out" => cfg.out = Some(PathBuf::from(value(i, a)?)),
            "--seed" => {
                cfg.shuffle_seed = Some(value(i, a)?.parse().map_err(|_| "--seed needs a number")?)
            }
            "--gauntlet" => {
                cfg.schedule = Schedule::Gauntlet;
                i += 1;
                continue;
            }
            "--reuse" => {
                cfg.reuse = true;
                i += 1;
                continue;
            }
            "--openings" => cfg.openings = read_openings(value(i, a)?)?,
            "--handicap" => cfg.openings = vec![value(i, a)?.to_string()],
            "--max-plies" => {
                cfg.rules.max_plies = value(i, a)?
                    .parse()
                    .map_err(|_| "--max-plies needs a number")?
            }
            "--margin" => {
                cfg.rules.margin_ms = value(i, a)?
                    .parse()
                    .map_err(|_| "--margin needs a number (ms)")?
            }
            "--rule" => {
                cfg.rules.entering_king = EnteringKingRule::from_usi(value(i, a)?)
                    .ok_or("--rule takes NoEnteringKing, CSARule24, CSARule27 or TryRule")?
            }
            "--resign" => {
                let v = value(i, a)?;
                let (cp, n) = v.split_once(',').ok_or("--resign takes CP,MOVES")?;
                cfg.rules.resign = Some((
                    cp.parse().map_err(|_| "--resign: bad score")?,
                    n.parse().map_err(|_| "--resign: bad count")?,
                ));
            }
            "--draw" => {
                let v = value(i, a)?;
                let (cp, n) = v.split_once(',').ok_or("--draw takes CP,PLIES")?;
                cfg.rules.draw = Some((
                    cp.parse().map_err(|_| "--draw: bad score")?,
                    n.parse().map_err(|_| "--draw: bad count")?,
                ));
            }
            "--sprt" => {
                let mut words = Vec::new();
                let mut j = i + 1;
                while j < args.len() && !args[j].starts_with("--") {
                    words.push(args[j].as_str());
                    j += 1;
                }
                cfg.sprt = Some(Sprt::parse(&words)?);
                i = j;
                continue;
            }
            other => return Err(format!("unknown match option '{other}'")),
        }
        i += 2;
    }
    Ok(cfg)
}

pub const HELP: &str =
    "usage: hayate match --engine cmd=PATH [name=NAME] [dir=DIR] [option.NAME=VALUE ...] [tc=TC]
                    --engine ... [--engine ...] [options]
  --config FILE      read these settings (and [[engine]] tables) from a TOML file
  --games N          games per pair (default 2; each opening is played twice, colours swapped)
  --tc TC            byoyomi=MS | time=MS,inc=MS | time=MS,byoyomi=MS | time=MS | movetime=MS |
                     nodes=N | depth=N (default byoyomi=1000); tc= inside --engine overrides it
  --gauntlet         the first engine plays each of the others (default: round robin)
  --openings FILE    lines of 'sfen ...' / 'startpos moves ...' / handicap names (# comments);
                     default: the balanced positions of book/openings.sfen
  --handicap NAME    start every game from a handicap position (e.g. 2piece)
  --seed N           shuffle the openings with this seed
  --concurrency K    games at once (default 1)
  --reuse            keep engine processes between games (default: fresh ones per game)
  --out DIR          write each game as DIR/game-NNNN.csa and .kifu
  --max-plies N      draw after N plies (default 320, 0 = no limit)
  --margin MS        time a move may overrun before it loses on time (default 1000)
  --rule RULE        entering-king rule: CSARule27 (default), CSARule24, TryRule, NoEnteringKing
  --resign CP,N      adjudicate a loss after N moves at or below -CP (confirmed by the opponent)
  --draw CP,N        adjudicate a draw after N plies with both scores within CP
  --sprt elo0=E0 elo1=E1 alpha=A beta=B   stop when the penta-nomial SPRT decides";
