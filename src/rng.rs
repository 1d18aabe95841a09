//! One small reproducible random-number generator for the engine's own choices: book moves,
//! the order of a match's openings and of training positions. They need variety and the same
//! sequence from the same seed on every build, not statistical quality. (Self-play and the
//! trainer, which draw far more numbers, use the `rand` crate.)

/// Marsaglia's xorshift64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (zero, the one state xorshift never leaves, is avoided).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i as u64 + 1) as usize);
        }
    }
}

impl Default for Rng {
    /// Seeded from the clock and the process, for a book that should vary from game to game.
    fn default() -> Rng {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9e37_79b9_7f4a_7c15);
        Rng::seeded(t ^ (std::process::id() as u64) << 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence_and_zero_is_no_trap() {
        let (mut a, mut b) = (Rng::seeded(42), Rng::seeded(42));
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        assert_eq!(xs, (0..8).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert!(xs.windows(2).all(|w| w[0] != w[1]));
        let mut z = Rng::seeded(0);
        assert!((0..8).all(|_| z.next_u64() != 0));
    }

    #[test]
    fn shuffle_is_a_permutation_that_moves_things() {
        let mut v: Vec<u32> = (0..100).collect();
        Rng::seeded(9).shuffle(&mut v);
        assert_ne!(v, (0..100).collect::<Vec<_>>());
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
        assert!((0..1000).all(|_| Rng::seeded(5).below(7) < 7));
    }
}
