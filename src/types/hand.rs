use std::fmt;

use super::PieceType;

/// The pieces one side holds in hand, packed in a `u32`.
///
/// ```text
///  bit: 27 |26 25| 24 |23 22| 21 |20..18| 17 |16..14| 13 |12..10| 9 | 8..6 | 5 | 4..0
///       g  |  R  | g  |  B  | g  |  G   | g  |  S   | g  |  N   | g |  L   | g |  P
/// ```
/// Each count has a zero guard bit above it. Subtracting hand B from hand A borrows into a guard
/// bit exactly when some count of A is below B's, so "A holds at least what B holds" (the
/// superior/inferior repetition test) is one subtraction and one mask.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

const SHIFT: [u32; 8] = [0, 0, 6, 10, 14, 22, 25, 18];
const MASK: [u32; 8] = [0, 0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
const GUARDS: u32 = 1 << 5 | 1 << 9 | 1 << 13 | 1 << 17 | 1 << 21 | 1 << 24 | 1 << 27;

impl Hand {
    pub const EMPTY: Hand = Hand(0);

    /// The most pieces of each kind that exist (indexed by piece type).
    pub const MAX: [u8; 8] = [0, 18, 4, 4, 4, 2, 2, 4];

    #[inline(always)]
    pub const fn count(self, pt: PieceType) -> u32 {
        (self.0 >> SHIFT[pt as usize]) & MASK[pt as usize]
    }

    #[inline(always)]
    pub const fn has(self, pt: PieceType) -> bool {
        self.count(pt) != 0
    }

    #[inline(always)]
    pub fn add(&mut self, pt: PieceType) {
        debug_assert!(pt.is_hand_type() && self.count(pt) < Hand::MAX[pt as usize] as u32);
        self.0 += 1 << SHIFT[pt as usize];
    }

    #[inline(always)]
    pub fn remove(&mut self, pt: PieceType) {
        debug_assert!(self.has(pt));
        self.0 -= 1 << SHIFT[pt as usize];
    }

    /// Sets a count; the caller keeps it within [`Hand::MAX`].
    pub fn set(&mut self, pt: PieceType, n: u32) {
        debug_assert!(n <= Hand::MAX[pt as usize] as u32);
        self.0 = (self.0 & !(MASK[pt as usize] << SHIFT[pt as usize])) | n << SHIFT[pt as usize];
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether this hand holds at least as many pieces of every kind as `other`.
    #[inline(always)]
    pub const fn dominates(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & GUARDS == 0
    }

    /// Whether any piece other than a pawn is held (drop generation skips work without them).
    #[inline(always)]
    pub const fn has_except_pawns(self) -> bool {
        self.0 & !MASK[1] != 0
    }

    pub const fn raw(self) -> u32 {
        self.0
    }

    /// Kind by kind, the smaller count of the two hands.
    pub fn min(self, other: Hand) -> Hand {
        self.zip(other, u32::min)
    }

    /// Kind by kind, the larger count of the two hands.
    pub fn max(self, other: Hand) -> Hand {
        self.zip(other, u32::max)
    }

    fn zip(self, other: Hand, f: impl Fn(u32, u32) -> u32) -> Hand {
        let mut h = Hand::EMPTY;
        for pt in PieceType::HAND {
            h.set(pt, f(self.count(pt), other.count(pt)));
        }
        h
    }

    /// One more of `pt`, unless the hand already holds every piece of that kind.
    pub fn plus_one(mut self, pt: PieceType) -> Hand {
        if self.count(pt) < Hand::MAX[pt as usize] as u32 {
            self.add(pt);
        }
        self
    }

    /// One fewer of `pt`, unless it holds none.
    pub fn minus_one(mut self, pt: PieceType) -> Hand {
        if self.has(pt) {
            self.remove(pt);
        }
        self
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceType::HAND.iter().map(|&pt| self.count(pt)).sum()
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        for pt in PieceType::HAND {
            match self.count(pt) {
                0 => {}
                1 => s.push(pt.letter()),
                n => s.push_str(&format!("{}{}", n, pt.letter())),
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_independent() {
        let mut h = Hand::EMPTY;
        for pt in PieceType::HAND {
            for _ in 0..Hand::MAX[pt as usize] {
                h.add(pt);
            }
        }
        for pt in PieceType::HAND {
            assert_eq!(h.count(pt), Hand::MAX[pt as usize] as u32);
        }
        assert_eq!(h.total(), 40 - 2);
        for pt in PieceType::HAND {
            h.remove(pt);
            assert_eq!(h.count(pt), Hand::MAX[pt as usize] as u32 - 1);
        }
    }

    #[test]
    fn dominance_is_per_kind() {
        for a in PieceType::HAND {
            for b in PieceType::HAND {
                let mut big = Hand::EMPTY;
                big.add(a);
                big.add(a);
                let mut small = Hand::EMPTY;
                small.add(b);
                assert_eq!(big.dominates(small), a == b, "{a:?} {b:?}");
                assert!(big.dominates(Hand::EMPTY));
                assert!(!Hand::EMPTY.dominates(small));
                assert!(big.dominates(big));
            }
        }
        // A surplus of one kind never hides a shortage of another.
        let mut a = Hand::EMPTY;
        for _ in 0..18 {
            a.add(PieceType::Pawn);
        }
        let mut b = Hand::EMPTY;
        b.add(PieceType::Lance);
        assert!(!a.dominates(b));
    }
}
