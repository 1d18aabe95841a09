//! Texel-style tuning of the evaluation weights.
//!
//! Each sample is a quiet position with a target probability that Black wins: a blend of the
//! game's result and of a reference engine's search score (both from Black's point of view).
//! The weights are moved one at a time, up or down by a step, whenever that lowers the mean
//! squared error between `sigmoid(eval / SCALE)` and the target (local search, as in Texel's
//! method). `hayate tune FILE` runs it and prints the new `DEFAULT` as Rust source.

use std::io::BufRead;

use super::evaluate_black_with;
use super::weights::Weights;
use crate::position::Position;
use crate::types::Color;

/// Centipawns per unit of the logistic curve.
pub const SCALE: f64 = 600.0;
/// Weight of the reference score in the target; the rest is the game result.
pub const SCORE_SHARE: f64 = 0.75;

pub struct Sample {
    pub(crate) pos: Position,
    pub(crate) target: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x / SCALE).exp())
}

/// Reads `sfen<TAB>score<TAB>result` lines: the score in centipawns from the side to move's
/// view, the result 1, 0.5 or 0 from Black's view. The target gives the score the share
/// `score_share` and the result the rest. Bad lines are counted and skipped.
pub fn load(path: &str, score_share: f64) -> Result<(Vec<Sample>, usize), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut samples = Vec::new();
    let mut bad = 0;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| format!("{path}: {e}"))?;
        let f: Vec<&str> = line.split('\t').collect();
        let parsed = (|| {
            let pos = Position::from_sfen(f.first()?).ok()?;
            let score: f64 = f.get(1)?.parse().ok()?;
            let result: f64 = f.get(2)?.parse().ok()?;
            let black_score = if pos.side_to_move() == Color::Black {
                score
            } else {
                -score
            };
            let target = score_share * sigmoid(black_score) + (1.0 - score_share) * result;
            Some(Sample { pos, target })
        })();
        match parsed {
            Some(s) => samples.push(s),
            None => bad += 1,
        }
    }
    Ok((samples, bad))
}

/// Mean squared error of `w` over the samples, on two threads.
pub fn error(samples: &[Sample], w: &Weights) -> f64 {
    let half = samples.len() / 2;
    let (a, b) = samples.split_at(half);
    let part = |chunk: &[Sample]| -> f64 {
        chunk
            .iter()
            .map(|s| {
                let d = sigmoid(evaluate_black_with(&s.pos, w) as f64) - s.target;
                d * d
            })
            .sum()
    };
    let (ea, eb) = std::thread::scope(|sc| {
        let h = sc.spawn(|| part(a));
        (part(b), h.join().unwrap_or(0.0))
    });
    (ea + eb) / samples.len().max(1) as f64
}

/// Steps a weight may take in one direction within one pass: a line search, so that a weight
/// far from its best value gets there in a pass or two instead of one step per pass.
const MAX_RUN: usize = 24;

/// Runs `passes` rounds of local search from `start`, reporting after each round. Each weight
/// in turn moves by the pass's step, up or down, for as long as every step lowers the error.
pub fn tune(
    samples: &[Sample],
    start: &Weights,
    passes: usize,
    report: &mut dyn FnMut(usize, f64),
) -> Weights {
    let mut w = start.clone();
    let mut best = error(samples, &w);
    report(0, best);
    for pass in 1..=passes {
        let step = match pass {
            1..=2 => 16,
            3..=4 => 8,
            5..=6 => 4,
            _ => 2,
        };
        let n = w.params_mut().len();
        for i in 0..n {
            for dir in [1, -1] {
                let mut moved = false;
                for _ in 0..MAX_RUN {
                    let Some(old) = nudge(&mut w, i, dir * step) else {
                        break;
                    };
                    let e = error(samples, &w);
                    if e < best {
                        best = e;
                        moved = true;
                    } else {
                        *w.params_mut()[i].0 = old;
                        break;
                    }
                }
                if moved {
                    break;
                }
            }
        }
        report(pass, best);
    }
    w
}

/// Moves weight `i` by `delta` within its range; the old value, or `None` at the range's end.
fn nudge(w: &mut Weights, i: usize, delta: i32) -> Option<i32> {
    let mut params = w.params_mut();
    let (p, lo, hi) = &mut params[i];
    let old = **p;
    **p = (old + delta).clamp(*lo, *hi);
    (**p != old).then_some(old)
}
