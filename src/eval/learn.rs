//! Learning the king–piece table (`kp.rs`) from labelled positions.
//!
//! The table's value is a sum of entries, so the evaluation is linear in them: the hand-written
//! terms give each position a fixed base, and the entries are fitted by gradient descent (Adam;
//! weight decay is available but off by default) so that `sigmoid((base + table) / SCALE)`
//! predicts the reference engine's score, in the file format `hayate tune` reads. `hayate
//! learn` runs it and writes `kp.bin`.

use super::handwritten_black;
use super::kp;
use super::tune::{self, SCALE};
use super::weights::Weights;

/// The positions reduced to what the learner needs: each one's base value, target and active
/// table entries (index, with the top bit set where the entry counts for White).
pub struct Data {
    base: Vec<f32>,
    target: Vec<f32>,
    /// `features[starts[i]..starts[i + 1]]` are sample i's entries.
    starts: Vec<usize>,
    features: Vec<u32>,
}

const WHITE_BIT: u32 = 1 << 31;

impl Data {
    /// Reads a file in the format of `hayate tune` (`sfen<TAB>score<TAB>result`), with the
    /// target's score share `score_share`; the base is the hand-written evaluation with
    /// weights `w`. Also returns the count of skipped lines.
    pub fn load(path: &str, w: &Weights, score_share: f64) -> Result<(Data, usize), String> {
        let (samples, bad) = tune::load(path, score_share)?;
        let mut d = Data {
            base: Vec::with_capacity(samples.len()),
            target: Vec::with_capacity(samples.len()),
            starts: vec![0],
            features: Vec::new(),
        };
        let mut active = Vec::new();
        for s in &samples {
            d.base.push(handwritten_black(&s.pos, w) as f32);
            d.target.push(s.target as f32);
            active.clear();
            kp::active(&s.pos, &mut active);
            d.features.extend(
                active
                    .iter()
                    .map(|&(i, sign)| if sign > 0 { i } else { i | WHITE_BIT }),
            );
            d.starts.push(d.features.len());
        }
        Ok((d, bad))
    }

    pub fn len(&self) -> usize {
        self.base.len()
    }

    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    /// Sample i's value from Black's point of view with table `t`.
    fn predict(&self, i: usize, t: &[f32]) -> f32 {
        let mut v = self.base[i];
        for &f in &self.features[self.starts[i]..self.starts[i + 1]] {
            let w = t[(f & !WHITE_BIT) as usize];
            v += if f & WHITE_BIT == 0 { w } else { -w };
        }
        v
    }

    /// Mean squared error between the predicted probability and the target, as `hayate tune`
    /// reports it.
    pub fn error(&self, t: &[f32]) -> f64 {
        let sum: f64 = (0..self.len())
            .map(|i| {
                let d = sigmoid(self.predict(i, t)) - self.target[i];
                (d * d) as f64
            })
            .sum();
        sum / self.len().max(1) as f64
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x / SCALE as f32).exp())
}

/// How to learn.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub epochs: usize,
    /// Adam's step size in centipawns, at the start (it falls linearly to a tenth).
    pub rate: f32,
    /// Weight decay per step, as a share of the step size.
    pub decay: f32,
    pub batch: usize,
    /// Seed of the shuffle.
    pub seed: u64,
    /// The reference score's share in the target (the game result has the rest). All of it
    /// by default: tens of thousands of entries fitted to results learn each training game's
    /// outcome by heart (every position of a game shares it) and predict new games worse.
    pub score_share: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            epochs: 6,
            rate: 0.3,
            decay: 0.0,
            batch: 4096,
            seed: 1,
            score_share: 1.0,
        }
    }
}

/// Fits a table to `train` from zero, reporting after each epoch (epoch, error on `train`).
pub fn learn(train: &Data, opts: &Options, report: &mut dyn FnMut(usize, &[f32])) -> Vec<f32> {
    let n = kp::LEN;
    let mut t = vec![0f32; n];
    let mut m = vec![0f32; n];
    let mut v = vec![0f32; n];
    let mut grad = vec![0f32; n];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = crate::rng::Rng::seeded(opts.seed);
    let batches_per_epoch = train.len().div_ceil(opts.batch.max(1));
    let total_steps = (opts.epochs * batches_per_epoch).max(1);
    let mut step = 0usize;
    for epoch in 1..=opts.epochs {
        rng.shuffle(&mut order);
        for batch in order.chunks(opts.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in batch {
                let p = sigmoid(train.predict(i, &t));
                // The gradient of the cross-entropy in the logit, per centipawn.
                let g = (p - train.target[i]) / SCALE as f32 / batch.len() as f32;
                for &f in &train.features[train.starts[i]..train.starts[i + 1]] {
                    let j = (f & !WHITE_BIT) as usize;
                    grad[j] += if f & WHITE_BIT == 0 { g } else { -g };
                }
            }
            step += 1;
            let rate = opts.rate * (1.0 - 0.9 * step as f32 / total_steps as f32);
            let (c1, c2) = (1.0 - b1.powi(step as i32), 1.0 - b2.powi(step as i32));
            for j in 0..n {
                m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
                v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
                t[j] -= rate * ((m[j] / c1) / ((v[j] / c2).sqrt() + eps) + opts.decay * t[j]);
            }
        }
        report(epoch, &t);
    }
    t
}

/// The table as `kp.bin` stores it: each entry rounded to a centipawn, little-endian `i16`.
pub fn to_bytes(t: &[f32]) -> Vec<u8> {
    t.iter()
        .flat_map(|&x| (x.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16).to_le_bytes())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions where Black's extra gold beside its king should be worth more than the base
    /// says: the learner must find a positive entry for it.
    #[test]
    fn learning_moves_the_prediction_towards_the_targets() {
        let dir = std::env::temp_dir().join(format!("hayate-learn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.tsv");
        let mut text = String::new();
        for _ in 0..50 {
            text += "4k4/9/9/9/9/9/9/3G5/4K4 b - 1\t1500\t1\n";
            text += "4k4/9/9/9/9/9/9/9/G3K4 b - 1\t-200\t0\n";
        }
        std::fs::write(&path, text).unwrap();
        let (data, bad) = Data::load(path.to_str().unwrap(), &super::super::DEFAULT, 1.0).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((data.len(), bad), (100, 0));
        let zero = vec![0f32; kp::LEN];
        let opts = Options {
            epochs: 30,
            rate: 5.0,
            decay: 0.0,
            batch: 10,
            seed: 7,
            score_share: 1.0,
        };
        let t = learn(&data, &opts, &mut |_, _| {});
        assert!(data.error(&t) < data.error(&zero) * 0.5);
        // The near gold gained against the far one.
        assert!(data.predict(0, &t) - data.base[0] > data.predict(1, &t) - data.base[1]);
        assert_eq!(to_bytes(&t).len(), 2 * kp::LEN);
    }
}
