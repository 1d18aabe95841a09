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
            report.games += 1;
        }
    }
    Ok((train, valid, report))
}
