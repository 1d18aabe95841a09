//! Match statistics as cutechess-style tools print them: Elo difference with a 95% error bar,
//! likelihood of superiority, draw ratio, and a penta-nomial sequential probability ratio test.

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Wld {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points per game, 0..=1.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }
}

/// The Elo difference for an expected score.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score for an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference and the half-width of its 95% interval (trinomial model).
pub fn elo_with_error(r: &Wld) -> (f64, f64) {
    let n = r.games() as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let s = r.score();
    let var = (r.wins as f64 * (1.0 - s).powi(2)
        + r.draws as f64 * (0.5 - s).powi(2)
        + r.losses as f64 * s.powi(2))
        / n;
    let sd = (var / n).sqrt();
    let lo = elo(s - 1.959_964 * sd);
    let hi = elo(s + 1.959_964 * sd);
    (elo(s), (hi - lo) / 2.0)
}

/// Likelihood of superiority in percent: the chance that the first engine is the stronger.
pub fn los(r: &Wld) -> f64 {
    let decisive = (r.wins + r.losses) as f64;
    if r.wins == r.losses {
        return 50.0;
    }
    50.0 * (1.0 + erf((r.wins as f64 - r.losses as f64) / (2.0 * decisive).sqrt()))
}

pub fn draw_ratio(r: &Wld) -> f64 {
    if r.games() == 0 {
        0.0
    } else {
        100.0 * r.draws as f64 / r.games() as f64
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// Game pairs (one opening, both colours) counted by the first engine's points in the pair:
/// `counts[k]` pairs scored `k / 2` points (0, 0.5, 1, 1.5, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u32; 5],
}

impl Penta {
    pub fn add_pair(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }
}

/// A sequential probability ratio test between Elo `elo0` (H0) and `elo1` (H1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H1 accepted: the first engine is at least `elo1` stronger.
    H1,
    /// H0 accepted.
    H0,
    Continue,
}

impl Sprt {
    /// The log-likelihood ratio of the pair results: the generalised SPRT on the pentanomial
    /// distribution.
    pub fn llr(&self, p: &Penta) -> f64 {
        let n = p.pairs() as f64;
        if n < 2.0 {
            return 0.0;
        }
        // The maximum-likelihood pentanomial distributions with the mean score each
        // hypothesis demands, as fishtest computes them. The normal approximation (mean and
        // variance of the sample alone) broke down on small, one-sided samples: two won pairs
        // have no variance, and it accepted H1 after four games.
        let freq = regularised(p);
        let q0 = closest_with_mean(&freq, expected_score(self.elo0));
        let q1 = closest_with_mean(&freq, expected_score(self.elo1));
        n * (0..5).map(|i| freq[i] * (q1[i] / q0[i]).ln()).sum::<f64>()
    }

    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, p: &Penta) -> SprtVerdict {
        let llr = self.llr(p);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }

    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, all four needed).
    pub fn parse(words: &[&str]) -> Result<Sprt, String> {
        let mut v = [None; 4];
        for w in words {
            let (k, x) = w
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{w}' is not key=value"))?;
            let x: f64 = x
                .parse()
                .map_err(|_| format!("--sprt: '{x}' is not a number"))?;
            let i = ["elo0", "elo1", "alpha", "beta"]
                .iter()
                .position(|n| *n == k)
                .ok_or_else(|| format!("--sprt: unknown key '{k}'"))?;
            v[i] = Some(x);
        }
        match v {
            [Some(elo0), Some(elo1), Some(alpha), Some(beta)] if alpha > 0.0 && beta > 0.0 && alpha < 1.0 && beta < 1.0 && elo1 != elo0 => {
                Ok(Sprt { elo0, elo1, alpha, beta })
            }
            _ => Err("--sprt needs elo0=.. elo1=.. alpha=.. beta=.. with 0 < alpha, beta < 1 and elo0 != elo1".into()),
        }
    }
}

/// The two cutechess-style summary lines for a pair.
/// Pair scores as a share of the pair's two points, for the five `Penta` bins.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The pair frequencies, with a thousandth of a pair in every empty bin: a distribution with
/// an empty bin cannot be moved to every mean, and no result is truly impossible.
fn regularised(p: &Penta) -> [f64; 5] {
    let counts = p.counts.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
    let total: f64 = counts.iter().sum();
    counts.map(|c| c / total)
}

/// The distribution over the five bins with mean `mean` that is closest to `freq` (maximum
/// likelihood): `q_i = freq_i / (1 + λ (x_i - mean))`, with `λ` found by bisection so that the
/// `q_i` sum to one. `mean` must lie strictly between 0 and 1.
fn closest_with_mean(freq: &[f64; 5], mean: f64) -> [f64; 5] {
    // Every q_i stays positive for λ in (-1/(1-mean), 1/mean); the constraint
    // Σ freq_i (x_i - mean) / (1 + λ (x_i - mean)) falls as λ grows.
    let (mut lo, mut hi) = (-1.0 / (1.0 - mean), 1.0 / mean);
    let constraint = |lambda: f64| -> f64 {
        (0..5)
            .map(|i| {
                let d = PAIR_SCORES[i] - mean;
                freq[i] * d / (1.0 + lambda * d)
            })
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if constraint(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    std::array::from_fn(|i| freq[i] / (1.0 + lambda * (PAIR_SCORES[i] - mean)))
}

pub fn summary(a: &str, b: &str, r: &Wld) -> String {
    let (e, m) = elo_with_error(r);
    format!(
        "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}\nElo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
        r.wins,
        r.losses,
        r.draws,
        r.score(),
        r.games(),
        e,
        m,
        los(r),
        draw_ratio(r)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo(0.5)).abs() < 1e-9);
        // 0.75 is 400 * log10(3) = 190.85 Elo.
        assert!((elo(0.75) - 190.848_501_887_864_4).abs() < 1e-6);
        assert!((expected_score(190.848_501_887_864_4) - 0.75).abs() < 1e-9);
    }

    #[test]
    fn error_bar_by_hand() {
        // 10 wins, 5 losses, 5 draws: s = 0.625; per-game variance
        // (10*0.375^2 + 5*0.125^2 + 5*0.625^2)/20 = 0.171875; sd = sqrt(0.171875/20) = 0.092702.
        let r = Wld {
            wins: 10,
            losses: 5,
            draws: 5,
        };
        let (e, m) = elo_with_error(&r);
        assert!((e - 88.7).abs() < 0.1, "{e}");
        let sd = (0.171_875f64 / 20.0).sqrt();
        let expect = (elo(0.625 + 1.959_964 * sd) - elo(0.625 - 1.959_964 * sd)) / 2.0;
        assert!((m - expect).abs() < 1e-9);
        assert!((m - 142.0).abs() < 3.0, "{m}");
    }

    #[test]
    fn los_by_hand() {
        // LOS = 0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))): W=10, L=5 -> erf(5/sqrt(30)) = erf(0.9129) = 0.8035.
        let r = Wld {
            wins: 10,
            losses: 5,
            draws: 5,
        };
        assert!((los(&r) - 90.17).abs() < 0.05, "{}", los(&r));
        assert!(
            (los(&Wld {
                wins: 3,
                losses: 3,
                draws: 0
            }) - 50.0)
                .abs()
                < 1e-9
        );
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = t.bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-6 && (hi - 2.944_438_979).abs() < 1e-6);
        // By hand: 100 pairs, 30 at 1.5 points, 40 at 1, 30 at 0.5: mean 0.5, LLR = (s1-s0)(1-s0-s1)n/2var < 0.
        let even = Penta {
            counts: [0, 30, 40, 30, 0],
        };
        assert!(t.llr(&even) < 0.0);
        let strong = Penta {
            counts: [0, 15, 75, 150, 60],
        };
        assert_eq!(t.verdict(&strong), SprtVerdict::H1);
        // Near an even score the exact LLR agrees with the normal approximation that fishtest
        // also quotes: (s1-s0)(2·mean-s0-s1)n / 2var. Counts from a real 600-game match.
        let t = Sprt {
            elo0: -5.0,
            elo1: 15.0,
            alpha: 0.1,
            beta: 0.1,
        };
        let real = Penta {
            counts: [64, 2, 147, 0, 87],
        };
        let n = 300.0;
        let mean = (2.0 * 0.25 + 147.0 * 0.5 + 87.0) / n;
        let var = (64.0 * mean * mean
            + 2.0 * (0.25f64 - mean).powi(2)
            + 147.0 * (0.5f64 - mean).powi(2)
            + 87.0 * (1.0f64 - mean).powi(2))
            / n;
        let (s0, s1) = (expected_score(-5.0), expected_score(15.0));
        let normal = (s1 - s0) * (2.0 * mean - s0 - s1) * n / (2.0 * var);
        assert!(
            (t.llr(&real) - normal).abs() < 0.05,
            "{} {normal}",
            t.llr(&real)
        );
        assert_eq!(t.verdict(&real), SprtVerdict::Continue);
        // Two won pairs say little: no verdict (the normal approximation gave LLR 28 here).
        let two_wins = Penta {
            counts: [0, 0, 0, 0, 2],
        };
        assert!(t.llr(&two_wins) > 0.0 && t.llr(&two_wins) < 0.5);
        assert_eq!(t.verdict(&two_wins), SprtVerdict::Continue);
        // Fifty won pairs decide; fifty lost pairs decide the other way.
        let wins = Penta {
            counts: [0, 0, 0, 0, 50],
        };
        assert_eq!(t.verdict(&wins), SprtVerdict::H1);
        let losses = Penta {
            counts: [50, 0, 0, 0, 0],
        };
        assert_eq!(t.verdict(&losses), SprtVerdict::H0);
        assert!(Sprt::parse(&["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]).is_ok());
        assert!(Sprt::parse(&["elo0=0", "elo1=5"]).is_err());
    }

    #[test]
    fn summary_lines() {
        let s = summary(
            "A",
            "B",
            &Wld {
                wins: 10,
                losses: 5,
                draws: 5,
            },
        );
        assert!(
            s.starts_with("Score of A vs B: 10 - 5 - 5  [0.625] 20\nElo difference: 88.7 +/- "),
            "{s}"
        );
        assert!(s.contains("LOS: 90.2 %, DrawRatio: 25.0 %"), "{s}");
    }
}
