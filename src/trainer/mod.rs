//! `hayate train`: fits the NNUE ([`crate::eval::nnue`]) to self-play positions.
//!
//! The net is trained in `f32` and quantised at the end. Each position's target blends its
//! search score and its game's result, both as win probabilities:
//! `target = λ·σ(score / 600) + (1 − λ)·result`, and the loss is `(σ(output) − target)²`, the
//! output being in units of 600 centipawns ([`OUTPUT_SCALE`]).
//!
//! - Adam over every parameter; the input layer's gradient is sparse: a position touches only
//!   the rows of its ~40 active features, so backpropagation adds into those rows only.
//! - A batch is split into one contiguous slice per thread; each thread sums its gradients in
//!   its own buffers, and the buffers are added in thread order. With the same `--seed` and
//!   `--threads`, a run gives the same net bit for bit.
//! - Each epoch sees every position once, in a shuffled order, each mirrored left to right with
//!   probability ½ (shogi is symmetric under it).
//! - The output weights are kept within the range an i16 holds once quantised.
//! - With a head (`--head`, [`crate::eval::nnue::Head`]), the head's output adds to the linear
//!   output; a head added to a trained net starts with output weights of zero, so training
//!   starts from the net's own evaluation.

pub mod data;

use std::time::Instant;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::eval::nnue::{
    mirror_feature, Head, Network, FEATURES, HEAD, HEAD_ONE, HIDDEN, OUTPUT_SCALE, QA, QA_ACC, QB,
    QV,
};
use data::Samples;

const H: usize = HIDDEN;
/// The largest output weight the quantised net can hold.
const W2_LIMIT: f32 = 32767.0 / QB as f32;
/// The head's weights stay within ±8, so that its i32 sums (256 · 8·QV · 2·HIDDEN at most)
/// never wrap.
const V_LIMIT: f32 = 8.0;

/// The trainer's settings.
#[derive(Clone, Debug)]
pub struct Options {
    pub epochs: usize,
    pub batch: usize,
    pub rate: f32,
    /// The learning rate is multiplied by this after each epoch.
    pub rate_decay: f32,
    /// λ: the share of the search score in the target (the rest is the game result).
    pub score_share: f32,
    pub threads: usize,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            epochs: 20,
            batch: 4096,
            rate: 1e-3,
            rate_decay: 0.9,
            score_share: 0.75,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
        }
    }
}

/// The net in `f32`, laid out as the quantised one.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
    pub head: Option<FloatHead>,
}

/// The head in `f32`, laid out as [`Head`].
#[derive(Clone, Debug, PartialEq)]
pub struct FloatHead {
    pub v: Vec<f32>,
    pub c: Vec<f32>,
    pub u: Vec<f32>,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// SCReLU.
#[inline(always)]
fn activate(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// Small random weights: about 40 active features sum to an accumulator in the
    /// activation's live range.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = StdRng::seed_from_u64(seed);
        FloatNet {
            w1: (0..FEATURES * H)
                .map(|_| rng.gen_range(-0.08..0.08))
                .collect(),
            b1: (0..H).map(|_| rng.gen_range(0.1..0.4)).collect(),
            w2: (0..2 * H).map(|_| rng.gen_range(-0.15..0.15)).collect(),
            b2: 0.0,
            head: None,
        }
    }

    /// Gives the net a head (if it has none): output weights of zero, so that the net's
    /// evaluation does not change until it is trained, and random input weights scaled to the
    /// net's activations on `s` (up to 4096 of its positions), so that each unit's sum starts
    /// inside its live range 0..1 on most positions (a unit outside it learns nothing).
    pub fn add_head(&mut self, s: &Samples, seed: u64) {
        if self.head.is_some() {
            return;
        }
        // The mean of Σx² over the positions: a sum of independent weights of spread σ has a
        // spread of σ·√(Σx²).
        let n = s.len().min(4096);
        let mut sum_sq = 0f64;
        for i in 0..n {
            let (us, them) = s.sides(i);
            let mut a = [0f32; H];
            let mut b = [0f32; H];
            self.accumulate(us, false, &mut a);
            self.accumulate(them, false, &mut b);
            sum_sq += inputs(&a, &b).iter().map(|x| (x * x) as f64).sum::<f64>();
        }
        let norm = (sum_sq / n.max(1) as f64).sqrt().max(1.0) as f32;
        // Uniform on ±r has a spread of r/√3: a spread of 0.2 in the sum.
        let r = 0.2 * 3f32.sqrt() / norm;
        let mut rng = StdRng::seed_from_u64(seed ^ 0x4845_4144);
        self.head = Some(FloatHead {
            v: (0..HEAD * 2 * H).map(|_| rng.gen_range(-r..r)).collect(),
            c: (0..HEAD).map(|_| rng.gen_range(0.3..0.7)).collect(),
            u: vec![0.0; HEAD],
        });
    }

    fn len(&self) -> usize {
        self.params().count()
    }

    /// A net of zeros of the same shape (a gradient's buffer).
    fn zeros_like(&self) -> FloatNet {
        FloatNet {
            w1: vec![0.0; FEATURES * H],
            b1: vec![0.0; H],
            w2: vec![0.0; 2 * H],
            b2: 0.0,
            head: self.head.as_ref().map(|_| FloatHead {
                v: vec![0.0; HEAD * 2 * H],
                c: vec![0.0; HEAD],
                u: vec![0.0; HEAD],
            }),
        }
    }

    fn accumulate(&self, feats: &[u16], mirror: bool, acc: &mut [f32; H]) {
        acc.copy_from_slice(&self.b1);
        for &f in feats {
            let f = if mirror {
                mirror_feature(f as usize)
            } else {
                f as usize
            };
            let row = &self.w1[f * H..(f + 1) * H];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (units of 600 cp) from the two sides' feature lists.
    pub fn output(&self, us: &[u16], them: &[u16]) -> f32 {
        let mut a = [0f32; H];
        let mut b = [0f32; H];
        self.accumulate(us, false, &mut a);
        self.accumulate(them, false, &mut b);
        self.output_from(&a, &b)
    }

    fn output_from(&self, a: &[f32; H], b: &[f32; H]) -> f32 {
        let mut o = self.b2;
        for i in 0..H {
            o += activate(a[i]) * self.w2[i] + activate(b[i]) * self.w2[H + i];
        }
        if let Some(head) = &self.head {
            let x = inputs(a, b);
            for j in 0..HEAD {
                o += head.u[j] * head_unit(head, j, &x).clamp(0.0, 1.0);
            }
        }
        o
    }

    /// The output in centipawns.
    pub fn centipawns(&self, us: &[u16], them: &[u16]) -> f32 {
        self.output(us, them) * OUTPUT_SCALE as f32
    }

    /// The quantised net the engine reads.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, s: i32, limit: i32| {
            (x * s as f32).round().clamp(-limit as f32, limit as f32) as i16
        };
        Network {
            w1: self.w1.iter().map(|&x| q(x, QA_ACC, 32767)).collect(),
            b1: self.b1.iter().map(|&x| q(x, QA_ACC, 32767)).collect(),
            w2: self.w2.iter().map(|&x| q(x, QB, 32767)).collect(),
            b2: (self.b2 * (QA * QB) as f32).round() as i32,
            head: self.head.as_ref().map(|h| Head {
                v: h.v.iter().map(|&x| q(x, QV, 32767)).collect(),
                c: h.c
                    .iter()
                    .map(|&x| (x * HEAD_ONE as f32).round() as i32)
                    .collect(),
                u: h.u.iter().map(|&x| q(x, QB, 32767)).collect(),
            }),
        }
    }

    /// The float net a quantised one stands for (to continue training from it).
    pub fn from_quantised(n: &Network) -> FloatNet {
        FloatNet {
            w1: n.w1.iter().map(|&x| x as f32 / QA_ACC as f32).collect(),
            b1: n.b1.iter().map(|&x| x as f32 / QA_ACC as f32).collect(),
            w2: n.w2.iter().map(|&x| x as f32 / QB as f32).collect(),
            b2: n.b2 as f32 / (QA * QB) as f32,
            head: n.head.as_ref().map(|h| FloatHead {
                v: h.v.iter().map(|&x| x as f32 / QV as f32).collect(),
                c: h.c.iter().map(|&x| x as f32 / HEAD_ONE as f32).collect(),
                u: h.u.iter().map(|&x| x as f32 / QB as f32).collect(),
            }),
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        let head = self
            .head
            .iter_mut()
            .flat_map(|h| h.v.iter_mut().chain(h.c.iter_mut()).chain(h.u.iter_mut()));
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(std::iter::once(&mut self.b2))
            .chain(head)
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        let head = self
            .head
            .iter()
            .flat_map(|h| h.v.iter().chain(h.c.iter()).chain(h.u.iter()));
        self.w1
            .iter()
            .chain(self.b1.iter())
            .chain(self.w2.iter())
            .chain(std::iter::once(&self.b2))
            .chain(head)
    }

    fn add(&mut self, other: &FloatNet) {
        for (a, b) in self.params_mut().zip(other.params()) {
            *a += b;
        }
    }

    fn clear(&mut self) {
        for a in self.params_mut() {
            *a = 0.0;
        }
    }
}

/// The activations of both sides, in the order of `w2` and the head's rows.
fn inputs(a: &[f32; H], b: &[f32; H]) -> [f32; 2 * H] {
    let mut x = [0f32; 2 * H];
    for i in 0..H {
        x[i] = activate(a[i]);
        x[H + i] = activate(b[i]);
    }
    x
}

/// Head unit `j`'s sum, before its clamp.
fn head_unit(head: &FloatHead, j: usize, x: &[f32; 2 * H]) -> f32 {
    let row = &head.v[j * 2 * H..(j + 1) * 2 * H];
    head.c[j] + row.iter().zip(x).map(|(w, x)| w * x).sum::<f32>()
}

/// The training target of sample `i`.
fn target(s: &Samples, i: usize, share: f32) -> f32 {
    share * sigmoid(s.scores[i] as f32 / OUTPUT_SCALE as f32) + (1.0 - share) * s.results[i]
}

/// Adds the loss gradient of sample `i` to `grad`; returns its loss.
fn backprop(
    net: &FloatNet,
    s: &Samples,
    i: usize,
    mirror: bool,
    share: f32,
    grad: &mut FloatNet,
) -> f32 {
    let (us, them) = s.sides(i);
    let mut a = [0f32; H];
    let mut b = [0f32; H];
    net.accumulate(us, mirror, &mut a);
    net.accumulate(them, mirror, &mut b);
    let p = sigmoid(net.output_from(&a, &b));
    let t = target(s, i, share);
    let g = 2.0 * (p - t) * p * (1.0 - p);
    grad.b2 += g;
    // The loss's gradient with respect to each activation: through w2, and through the head.
    let mut dx = [0f32; 2 * H];
    for k in 0..H {
        grad.w2[k] += g * activate(a[k]);
        grad.w2[H + k] += g * activate(b[k]);
        dx[k] = g * net.w2[k];
        dx[H + k] = g * net.w2[H + k];
    }
    if let (Some(head), Some(gh)) = (&net.head, &mut grad.head) {
        let x = inputs(&a, &b);
        for j in 0..HEAD {
            let z = head_unit(head, j, &x);
            gh.u[j] += g * z.clamp(0.0, 1.0);
            if z > 0.0 && z < 1.0 {
                let dz = g * head.u[j];
                gh.c[j] += dz;
                let row = &head.v[j * 2 * H..(j + 1) * 2 * H];
                let grow = &mut gh.v[j * 2 * H..(j + 1) * 2 * H];
                for k in 0..2 * H {
                    grow[k] += dz * x[k];
                    dx[k] += dz * row[k];
                }
            }
        }
    }
    let mut da = [0f32; H];
    let mut db = [0f32; H];
    for k in 0..H {
        // d/dx clamp(x,0,1)² = 2x inside the clamp.
        da[k] = if a[k] > 0.0 && a[k] < 1.0 {
            dx[k] * 2.0 * a[k]
        } else {
            0.0
        };
        db[k] = if b[k] > 0.0 && b[k] < 1.0 {
            dx[H + k] * 2.0 * b[k]
        } else {
            0.0
        };
        grad.b1[k] += da[k] + db[k];
    }
    for (feats, d) in [(us, &da), (them, &db)] {
        for &f in feats {
            let f = if mirror {
                mirror_feature(f as usize)
            } else {
                f as usize
            };
            let row = &mut grad.w1[f * H..(f + 1) * H];
            for (r, x) in row.iter_mut().zip(d.iter()) {
                *r += x;
            }
        }
    }
    (p - t) * (p - t)
}

/// The mean loss of `net` over `s` (no mirroring), on `threads` threads.
pub fn loss(net: &FloatNet, s: &Samples, share: f32, threads: usize) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let threads = threads.max(1);
    let chunk = s.len().div_ceil(threads);
    let sums: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut sum = 0f64;
                    for i in t * chunk..((t + 1) * chunk).min(s.len()) {
                        let (us, them) = s.sides(i);
                        let p = sigmoid(net.output(us, them));
                        let d = p - target(s, i, share);
                        sum += (d * d) as f64;
                    }
                    sum
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .collect()
    });
    sums.iter().sum::<f64>() / s.len() as f64
}

/// The loss of the hand-written evaluation on `s` (its `classic` scores), in the trainer's
/// terms: what a net has to beat.
pub fn classic_loss(s: &Samples, share: f32) -> Option<f64> {
    if s.classic.len() != s.len() || s.is_empty() {
        return None;
    }
    let sum: f64 = (0..s.len())
        .map(|i| {
            let p = sigmoid(s.classic[i] as f32 / OUTPUT_SCALE as f32);
            let d = p - target(s, i, share);
            (d * d) as f64
        })
        .sum();
    Some(sum / s.len() as f64)
}

/// The mean absolute difference in centipawns between `net` and the hand-written evaluation
/// over `s` (its `classic` scores).
pub fn classic_difference(net: &FloatNet, s: &Samples) -> Option<f64> {
    if s.classic.len() != s.len() || s.is_empty() {
        return None;
    }
    let sum: f64 = (0..s.len())
        .map(|i| {
            let (us, them) = s.sides(i);
            (net.centipawns(us, them) as f64 - s.classic[i] as f64).abs()
        })
        .sum();
    Some(sum / s.len() as f64)
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub valid_loss: Option<f64>,
    pub positions_per_second: f64,
    pub rate: f32,
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    fn update(&mut self, net: &mut FloatNet, grad: &FloatNet, rate: f32, scale: f32) {
        self.step += 1;
        let c1 = 1.0 - BETA1.powi(self.step);
        let c2 = 1.0 - BETA2.powi(self.step);
        let step = rate * c2.sqrt() / c1;
        for (((p, g), m), v) in net
            .params_mut()
            .zip(grad.params())
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= step * *m / (v.sqrt() + EPSILON);
        }
        for w in net.w2.iter_mut() {
            *w = w.clamp(-W2_LIMIT, W2_LIMIT);
        }
        if let Some(h) = &mut net.head {
            for w in h.v.iter_mut() {
                *w = w.clamp(-V_LIMIT, V_LIMIT);
            }
            for w in h.u.iter_mut() {
                *w = w.clamp(-W2_LIMIT, W2_LIMIT);
            }
        }
    }
}

/// Trains `net` on `train`, calling `report` after each epoch (with the validation loss when
/// `valid` is not empty) and `progress` with the share of the epoch done, about every second.
pub fn train(
    net: &mut FloatNet,
    train: &Samples,
    valid: &Samples,
    opts: &Options,
    report: &mut dyn FnMut(&EpochReport, &FloatNet),
    progress: &mut dyn FnMut(usize, f64, f64),
) {
    let threads = opts.threads.max(1);
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut mirrors: Vec<bool> = vec![false; train.len()];
    let mut grads: Vec<FloatNet> = (0..threads).map(|_| net.zeros_like()).collect();
    let mut adam = Adam::new(net.len());
    let mut rate = opts.rate;
    for epoch in 1..=opts.epochs {
        order.shuffle(&mut rng);
        for m in mirrors.iter_mut() {
            *m = rng.gen();
        }
        let began = Instant::now();
        let mut last_progress = Instant::now();
        let mut loss_sum = 0f64;
        for (b, batch) in order.chunks(opts.batch.max(1)).enumerate() {
            let chunk = batch.len().div_ceil(threads);
            let net_ref = &*net;
            let mirrors = &mirrors;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .enumerate()
                    .map(|(t, grad)| {
                        let part = &batch
                            [(t * chunk).min(batch.len())..((t + 1) * chunk).min(batch.len())];
                        scope.spawn(move || {
                            grad.clear();
                            let mut sum = 0f64;
                            for &i in part {
                                let i = i as usize;
                                sum +=
                                    backprop(net_ref, train, i, mirrors[i], opts.score_share, grad)
                                        as f64;
                            }
                            sum
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(f64::NAN))
                    .collect()
            });
            loss_sum += losses.iter().sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter() {
                first[0].add(g);
            }
            adam.update(net, &first[0], rate, 1.0 / batch.len() as f32);
            if last_progress.elapsed().as_secs_f64() >= 1.0 {
                last_progress = Instant::now();
                let done = ((b + 1) * opts.batch).min(train.len());
                progress(
                    epoch,
                    done as f64 / train.len() as f64,
                    done as f64 / began.elapsed().as_secs_f64(),
                );
            }
        }
        let secs = began.elapsed().as_secs_f64();
        let valid_loss = (!valid.is_empty()).then(|| loss(net, valid, opts.score_share, threads));
        report(
            &EpochReport {
                epoch,
                train_loss: loss_sum / train.len().max(1) as f64,
                valid_loss,
                positions_per_second: train.len() as f64 / secs,
                rate,
            },
            net,
        );
        rate *= opts.rate_decay;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// 30 epochs of batches of two: enough for the toy samples to be learnt.
    fn toy_options() -> Options {
        Options {
            epochs: 30,
            batch: 2,
            rate: 3e-3,
            threads: 2,
            ..Options::default()
        }
    }

    fn train_quietly(net: &mut FloatNet, s: &Samples, opts: &Options) {
        train(
            net,
            s,
            &Samples::new(),
            opts,
            &mut |_, _| {},
            &mut |_, _, _| {},
        );
    }

    fn toy_samples() -> Samples {
        let mut s = Samples::new();
        let mut pos = Position::startpos();
        for (i, text) in ["7g7f", "3c3d", "8h2b+", "3a2b", "2g2f", "8c8d"]
            .iter()
            .enumerate()
        {
            s.push(
                &pos,
                [20, -15, 40, -600, 590, -570][i],
                [1.0, 0.0, 1.0, 0.0, 1.0, 0.0][i],
            );
            let m = pos.parse_usi_move(text).unwrap();
            pos.do_move(m);
        }
        s
    }

    #[test]
    fn training_lowers_the_loss_and_is_deterministic() {
        let s = toy_samples();
        let opts = toy_options();
        let run = || {
            let mut net = FloatNet::random(5);
            let before = loss(&net, &s, opts.score_share, 1);
            train_quietly(&mut net, &s, &opts);
            (before, loss(&net, &s, opts.score_share, 1), net)
        };
        let (before, after, net) = run();
        assert!(after < before * 0.5, "loss {before} -> {after}");
        assert_eq!(run().2, net);
    }

    #[test]
    fn the_head_gradient_matches_finite_differences() {
        let s = toy_samples();
        let mut net = FloatNet::random(9);
        net.add_head(&s, 3);
        // Output weights away from zero, so that the head's inner gradients are not all zero.
        let mut rng = StdRng::seed_from_u64(4);
        for u in net.head.as_mut().unwrap().u.iter_mut() {
            *u = rng.gen_range(-1.0..1.0);
        }
        for sample in [0, 3] {
            let mut grad = net.zeros_like();
            backprop(&net, &s, sample, false, 0.75, &mut grad);
            let (us, them) = s.sides(sample);
            let f = us[2] as usize * H + 9;
            let gh = grad.head.as_ref().unwrap();
            let cases = [
                (0, gh.u[5]),
                (1, gh.c[2]),
                (2, gh.v[2 * 2 * H + 17]),
                (3, gh.v[7 * 2 * H + H + 40]),
                (4, grad.w1[f]),
                (5, grad.w2[H + 3]),
            ];
            for (which, analytic) in cases {
                let eps = 1e-3;
                let value = |delta: f32| {
                    let mut n = net.clone();
                    let h = n.head.as_mut().unwrap();
                    match which {
                        0 => h.u[5] += delta,
                        1 => h.c[2] += delta,
                        2 => h.v[2 * 2 * H + 17] += delta,
                        3 => h.v[7 * 2 * H + H + 40] += delta,
                        4 => n.w1[f] += delta,
                        _ => n.w2[H + 3] += delta,
                    }
                    let p = sigmoid(n.output(us, them));
                    let t = target(&s, sample, 0.75);
                    (p - t) * (p - t)
                };
                let numeric = (value(eps) - value(-eps)) / (2.0 * eps);
                assert!(
                    (numeric - analytic).abs() < 1e-4 + 0.05 * analytic.abs(),
                    "sample {sample}, {which}: {numeric} vs {analytic}"
                );
            }
        }
    }

    #[test]
    fn a_new_head_leaves_the_output_as_it_was_and_trains() {
        let s = toy_samples();
        let mut net = FloatNet::random(5);
        let (us, them) = s.sides(2);
        let before = net.output(us, them);
        net.add_head(&s, 1);
        assert_eq!(net.output(us, them), before);
        let opts = toy_options();
        let start = loss(&net, &s, opts.score_share, 1);
        train_quietly(&mut net, &s, &opts);
        assert!(loss(&net, &s, opts.score_share, 1) < start * 0.5);
        assert!(net.head.as_ref().unwrap().u.iter().any(|&u| u != 0.0));
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let s = toy_samples();
        let net = FloatNet::random(9);
        let mut grad = net.zeros_like();
        backprop(&net, &s, 3, false, 0.75, &mut grad);
        let (us, them) = s.sides(3);
        let f = us[5] as usize * H + 7;
        for (which, analytic) in [(0, grad.w1[f]), (1, grad.w2[11]), (2, grad.b1[3])] {
            let eps = 1e-3;
            let value = |delta: f32| {
                let mut n = net.clone();
                match which {
                    0 => n.w1[f] += delta,
                    1 => n.w2[11] += delta,
                    _ => n.b1[3] += delta,
                }
                let p = sigmoid(n.output(us, them));
                let t = target(&s, 3, 0.75);
                (p - t) * (p - t)
            };
            let numeric = (value(eps) - value(-eps)) / (2.0 * eps);
            assert!(
                (numeric - analytic).abs() < 1e-4 + 0.05 * analytic.abs(),
                "{which}: {numeric} vs {analytic}"
            );
        }
    }
}
