//! Training positions chosen from self-play records, as feature lists ready for the trainer.
//!
//! A position is kept when it says something about the quiet value of the board: its side to
//! move is not in check, the move played from it is not a capture, and its score is not a
//! mate or close to one. Whole games go either to training or to validation (every
//! `VALID_EVERY`-th game), so validation never sees a position of a game it trained on.

use crate::eval::nnue::features;
use crate::position::Position;
use crate::selfplay::record::{self, GameRecord};

/// Every this many games, one goes to validation.
pub const VALID_EVERY: usize = 20;
/// Positions scored further from zero than this are left out (mates and lost causes).
pub const SCORE_CAP: i32 = 4000;

/// Positions as feature lists: for each position its side to move's features, then the other
/// side's (the same number each).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    pub features: Vec<u16>,
    /// Where each position's features start in `features`; one more entry than positions.
    pub offsets: Vec<u32>,
    /// The search score, side to move's view, centipawns.
    pub scores: Vec<i16>,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub results: Vec<f32>,
    /// The hand-written evaluation of each position (side to move's view), kept for the
    /// validation positions only: the baseline a net has to beat.
    pub classic: Vec<i16>,
}

impl Samples {
    pub fn new() -> Samples {
        Samples {
            offsets: vec![0],
            ..Samples::default()
        }
    }

    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// The side to move's and the other side's features of position `i`.
    pub fn sides(&self, i: usize) -> (&[u16], &[u16]) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        self.features[a..b].split_at((b - a) / 2)
    }

    /// Adds every sample of `other`.
    pub fn append(&mut self, other: &Samples) {
        let base = self.features.len() as u32;
        self.features.extend_from_slice(&other.features);
        self.offsets
            .extend(other.offsets[1..].iter().map(|&o| o + base));
        self.scores.extend_from_slice(&other.scores);
        self.results.extend_from_slice(&other.results);
    }

    /// Adds `pos` with its score and its game's result for the side to move.
    pub fn push(&mut self, pos: &Position, score: i32, result: f32) {
        let us = pos.side_to_move();
        features(pos, us, |f| self.features.push(f as u16));
        features(pos, !us, |f| self.features.push(f as u16));
        self.offsets.push(self.features.len() as u32);
        self.scores.push(score as i16);
        self.results.push(result);
    }
}

/// Whether the position before `m` is one to learn from.
fn wanted(pos: &Position, m: crate::types::Move, score: i32) -> bool {
    !pos.in_check() && (m.is_drop() || pos.piece_on(m.to()).is_none()) && score.abs() <= SCORE_CAP
}

/// Adds the chosen positions of one game.
pub fn add_game(g: &GameRecord, out: &mut Samples) -> Result<(), String> {
    let mut pos = Position::from_sfen(&g.start).map_err(|e| e.to_string())?;
    for (&m, &score) in g.moves.iter().zip(&g.scores) {
        if wanted(&pos, m, score) {
            out.push(&pos, score, g.outcome.points(pos.side_to_move()));
        }
        pos.do_move(m);
    }
    Ok(())
}

/// The hand-written evaluation of the chosen positions of one game.
fn classic_scores(g: &GameRecord, out: &mut Vec<i16>) {
    let Ok(mut pos) = Position::from_sfen(&g.start) else {
        return;
    };
    for (&m, &score) in g.moves.iter().zip(&g.scores) {
        if wanted(&pos, m, score) {
            let v = crate::eval::evaluate(&pos).clamp(-SCORE_CAP, SCORE_CAP);
            out.push(v as i16);
        }
        pos.do_move(m);
    }
}

/// What loading found.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    pub games: usize,
    pub positions: usize,
    /// Bytes at the end of a file that were not a whole game (a copy taken while it was being
    /// written).
    pub damaged_tails: usize,
}

/// Reads self-play files into training and validation samples.
pub fn load(paths: &[String]) -> Result<(Samples, Samples, LoadReport), String> {
    load_games(paths).map(|(t, v, r, _)| (t, v, r))
}

/// [`load`], with the training games themselves (for [`distill`]).
pub fn load_games(
    paths: &[String],
) -> Result<(Samples, Samples, LoadReport, Vec<GameRecord>), String> {
    let mut games = Vec::new();
    let mut train = Samples::new();
    let mut valid = Samples::new();
    let mut report = LoadReport::default();
    for path in paths {
        let data = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let mut r = record::Reader::new(&data).map_err(|e| format!("{path}: {e}"))?;
        while let Some(g) = r.next_game() {
            let g = match g {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("{path}: stopped at byte {}: {e}", r.offset());
                    report.damaged_tails += 1;
                    break;
                }
            };
            report.positions += g.moves.len();
            let into = if report.games % VALID_EVERY == VALID_EVERY - 1 {
                &mut valid
            } else {
                &mut train
            };
            add_game(&g, into).map_err(|e| format!("{path}: {e}"))?;
            if report.games % VALID_EVERY == VALID_EVERY - 1 {
                classic_scores(&g, &mut valid.classic);
                debug_assert_eq!(valid.classic.len(), valid.len());
            } else {
                games.push(g);
            }
            report.games += 1;
        }
    }
    Ok((train, valid, report, games))
}

/// Random plies of a walk away from a game position: between 1 and this many.
const WALK_PLIES: u32 = 6;

/// About `count` quiet positions a few random plies away from the positions of `games`, each
/// scored by the hand-written evaluation: cheap labels that teach a new net the basics (which
/// pieces are worth what, where they stand well) before it learns from search scores.
///
/// Each walk plays moves that lose nothing by static exchange; a position is kept when its
/// side to move is not in check and has no capture that wins material (where the static
/// evaluation would be wrong). The game's result is not known there: it is recorded as a draw
/// and should be given no weight (`--score-share 1`). Deterministic for a seed and a thread
/// count.
pub fn distill(games: &[GameRecord], count: usize, seed: u64, threads: usize) -> Samples {
    use crate::movegen::{generate_captures_promotions, generate_legal, MoveList};
    use crate::search::see::see;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    let total: usize = games.iter().map(|g| g.moves.len()).sum::<usize>().max(1);
    let threads = threads.max(1);
    let chunk = games.len().div_ceil(threads).max(1);
    let parts: Vec<Samples> = std::thread::scope(|s| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .enumerate()
            .map(|(t, part)| {
                s.spawn(move || {
                    let mut out = Samples::new();
                    let mut list = MoveList::new();
                    for (k, g) in part.iter().enumerate() {
                        let index = (t * chunk + k) as u64;
                        let mut rng =
                            StdRng::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                        let quota = (count * g.moves.len()).div_ceil(total);
                        let mut plies: Vec<usize> = (0..quota)
                            .map(|_| rng.gen_range(0..g.moves.len()))
                            .collect();
                        plies.sort_unstable();
                        let Ok(mut pos) = Position::from_sfen(&g.start) else {
                            continue;
                        };
                        let mut next = 0;
                        for (ply, &m) in g.moves.iter().enumerate() {
                            while next < plies.len() && plies[next] == ply {
                                next += 1;
                                let mut walk = pos.clone();
                                for _ in 0..rng.gen_range(1..=WALK_PLIES) {
                                    list.clear();
                                    generate_legal(&walk, &mut list);
                                    list.retain(|m| see(&walk, m) >= 0);
                                    if list.is_empty() {
                                        break;
                                    }
                                    let m = list[rng.gen_range(0..list.len())];
                                    walk.do_move(m);
                                }
                                if walk.in_check() {
                                    continue;
                                }
                                list.clear();
                                generate_captures_promotions(&walk, &mut list);
                                let winning = list
                                    .iter()
                                    .any(|&c| walk.piece_on(c.to()).is_some() && see(&walk, c) > 0);
                                if winning {
                                    continue;
                                }
                                let v = crate::eval::evaluate(&walk).clamp(-SCORE_CAP, SCORE_CAP);
                                out.push(&walk, v, 0.5);
                            }
                            pos.do_move(m);
                        }
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut all = Samples::new();
    for p in parts {
        all.append(&p);
    }
    all
}
