//! The net's inner loops: AVX2 through `std::arch` where the processor has it (detected at run
//! time), and a portable path that gives the same results bit for bit. The `unsafe` AVX2 blocks
//! are worth their keep: `hayate bench nnue` ran at 791k and 832k nodes/s with them against 726k
//! and 703k with the portable path forced (the compiler vectorises that one for SSE2), the same
//! node counts, two runs each side by side. Both use wrapping i16
//! sums for the accumulators and wrapping i32 sums for the output, as the AVX2 instructions do.
//!
//! The output rounds the accumulator to the activation's scale and clamps it to
//! `0 <= v <= QA = 181`, then squares it (`v²` fits an i16),
//! then multiplies by the weight and adds neighbouring pairs (`madd`): `v₁²w₁ + v₂²w₂` fits an
//! i32 for any i16 weights. The sum over all units wraps like the instructions do, so both
//! paths agree on every input; for a net whose output stays within a few hundred pawns it never
//! wraps.
//!
//! The head ([`super::Head`]) reads the same squares shifted down to `0..=256`
//! ([`head_input`]), so that `madd` with an i16 weight pairs them up in an i32 without overflow,
//! and sums them in i32 ([`dot_on`]), wrapping on both paths.

use super::{ACC_SHIFT, HEAD_SHIFT, HIDDEN, QA};

type Row = [i16; HIDDEN];

/// Half a unit of the activation, in accumulator units: the shift rounds to nearest.
const ROUND: i16 = 1 << (ACC_SHIFT - 1);

/// Which code path to run: the one this processor supports best, or the portable one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    Avx2,
    Portable,
}

/// The fastest path this processor runs.
#[inline(always)]
pub fn best_path() -> Path {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return Path::Avx2;
        }
    }
    Path::Portable
}

/// `acc += row`.
#[inline]
pub fn add_row(acc: &mut Row, row: &Row) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

/// `after = before + Σ rows of adds − Σ rows of subs`, the rows taken from `w1` (feature-major,
/// `HIDDEN` to a row): one move's changes to one side.
#[inline]
pub fn update(before: &Row, after: &mut Row, w1: &[i16], adds: &[usize], subs: &[usize]) {
    // Checked once here, so that the AVX2 loop may read the rows unchecked.
    let rows = w1.len() / HIDDEN;
    assert!(
        adds.iter().chain(subs).all(|&f| f < rows),
        "a feature beyond the net's rows"
    );
    #[cfg(target_arch = "x86_64")]
    if best_path() == Path::Avx2 {
        // SAFETY: the processor has AVX2 (checked just above), and every row is inside `w1`.
        unsafe { avx2::update(before, after, w1, adds, subs) };
        return;
    }
    update_portable(before, after, w1, adds, subs);
}

fn update_portable(before: &Row, after: &mut Row, w1: &[i16], adds: &[usize], subs: &[usize]) {
    *after = *before;
    for &f in adds {
        for (a, w) in after.iter_mut().zip(&w1[f * HIDDEN..(f + 1) * HIDDEN]) {
            *a = a.wrapping_add(*w);
        }
    }
    for &f in subs {
        for (a, w) in after.iter_mut().zip(&w1[f * HIDDEN..(f + 1) * HIDDEN]) {
            *a = a.wrapping_sub(*w);
        }
    }
}

/// `Σ v² · w` with `v = clamp(round(acc / 2^ACC_SHIFT), 0, QA)`, on the best path.
#[inline]
pub fn screlu_dot(acc: &Row, w: &Row) -> i32 {
    screlu_dot_on(best_path(), acc, w)
}

/// The same sum on the given path (the portable one when AVX2 is asked for on a
/// processor without it).
pub fn screlu_dot_on(path: Path, acc: &Row, w: &Row) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if path == Path::Avx2 && best_path() == Path::Avx2 {
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { avx2::screlu_dot(acc, w) };
    }
    let _ = path;
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w) {
        let v = i32::from((a.saturating_add(ROUND) >> ACC_SHIFT).clamp(0, QA as i16));
        sum = sum.wrapping_add(v * v * i32::from(w));
    }
    sum
}

/// The head's inputs: `(v² + 2^(HEAD_SHIFT−1)) >> HEAD_SHIFT` with `v` as in [`screlu_dot`],
/// computed in u16 (`v²` plus the rounding passes 32,767).
pub fn head_input(acc: &Row) -> Row {
    let mut x = [0i16; HIDDEN];
    for (x, &a) in x.iter_mut().zip(acc) {
        let v = (a.saturating_add(ROUND) >> ACC_SHIFT).clamp(0, QA as i16) as u16;
        *x = ((v * v).wrapping_add(1 << (HEAD_SHIFT - 1)) >> HEAD_SHIFT) as i16;
    }
    x
}

/// `Σ x·w` in i32, wrapping, on the given path (the portable one when AVX2 is asked for on a
/// processor without it).
pub fn dot_on(path: Path, x: &Row, w: &Row) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if path == Path::Avx2 && best_path() == Path::Avx2 {
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { avx2::dot(x, w) };
    }
    let _ = path;
    x.iter().zip(w).fold(0i32, |s, (&x, &w)| {
        s.wrapping_add(i32::from(x) * i32::from(w))
    })
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Row, ACC_SHIFT, HIDDEN, QA, ROUND};
    use std::arch::x86_64::*;

    const LANES: usize = 16;

    #[inline(always)]
    unsafe fn load(r: &Row, i: usize) -> __m256i {
        _mm256_loadu_si256(r.as_ptr().add(i) as *const __m256i)
    }

    /// The caller has checked that every row lies inside `w1`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(
        before: &Row,
        after: &mut Row,
        w1: &[i16],
        adds: &[usize],
        subs: &[usize],
    ) {
        let w = w1.as_ptr();
        for i in (0..HIDDEN).step_by(LANES) {
            let mut v = load(before, i);
            for &f in adds {
                let r = _mm256_loadu_si256(w.add(f * HIDDEN + i) as *const __m256i);
                v = _mm256_add_epi16(v, r);
            }
            for &f in subs {
                let r = _mm256_loadu_si256(w.add(f * HIDDEN + i) as *const __m256i);
                v = _mm256_sub_epi16(v, r);
            }
            _mm256_storeu_si256(after.as_mut_ptr().add(i) as *mut __m256i, v);
        }
    }

    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &Row, w: &Row) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let round = _mm256_set1_epi16(ROUND);
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(LANES) {
            let a = _mm256_srai_epi16(_mm256_adds_epi16(load(acc, i), round), ACC_SHIFT as i32);
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            let squares = _mm256_mullo_epi16(v, v);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(squares, load(w, i)));
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }

    /// `madd` pairs two products in an i32; it wraps only for two products of −32768², which
    /// the head's inputs (at most 256) never give.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot(x: &Row, w: &Row) -> i32 {
        let mut sum = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(LANES) {
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(load(x, i), load(w, i)));
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn avx2_and_portable_updates_are_identical() {
        let mut rng = StdRng::seed_from_u64(8);
        let w1: Vec<i16> = (0..60 * HIDDEN).map(|_| rng.gen()).collect();
        for _ in 0..500 {
            let before: Row = std::array::from_fn(|_| rng.gen());
            let mut pick = |most: usize| -> Vec<usize> {
                (0..rng.gen_range(0..=most))
                    .map(|_| rng.gen_range(0..60))
                    .collect()
            };
            let (adds, subs) = (pick(40), pick(40));
            let mut fast = [0i16; HIDDEN];
            update(&before, &mut fast, &w1, &adds, &subs);
            let mut slow = [0i16; HIDDEN];
            update_portable(&before, &mut slow, &w1, &adds, &subs);
            assert_eq!(fast, slow);
        }
    }

    #[test]
    fn avx2_and_portable_head_sums_are_identical() {
        let mut rng = StdRng::seed_from_u64(9);
        for _ in 0..2000 {
            let acc: Row = std::array::from_fn(|_| rng.gen_range(-300..=1000));
            let x = head_input(&acc);
            assert!(x.iter().all(|&v| (0..=256).contains(&v)));
            let w: Row = std::array::from_fn(|_| rng.gen());
            assert_eq!(dot_on(Path::Avx2, &x, &w), dot_on(Path::Portable, &x, &w));
        }
        // The largest activation reads as 256 (181² = 32,761 rounds up past an i16).
        let full = [(QA as i16) << ACC_SHIFT; HIDDEN];
        assert!(head_input(&full).iter().all(|&v| v == 256));
    }

    #[test]
    fn avx2_and_portable_outputs_are_identical() {
        let mut rng = StdRng::seed_from_u64(7);
        for round in 0..2000 {
            // Values well outside the clamp and the weight range too: the paths must agree
            // even where the sums wrap.
            let wide = round % 4 == 0;
            let mut acc = [0i16; HIDDEN];
            let mut w = [0i16; HIDDEN];
            for i in 0..HIDDEN {
                acc[i] = rng.gen_range(-300..=300);
                w[i] = if wide {
                    rng.gen()
                } else {
                    rng.gen_range(-3000..=3000)
                };
            }
            assert_eq!(
                screlu_dot_on(Path::Avx2, &acc, &w),
                screlu_dot_on(Path::Portable, &acc, &w)
            );
        }
    }
}
