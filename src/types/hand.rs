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

// The tables have an entry for every piece type, so that any `PieceType` (a promoted kind or the
// king in a drop that a record reader built from bad input) is a safe index. Kinds that cannot be
// held have a zero mask and a zero unit: a hand never holds them, and adding or removing one does
// nothing.
const SHIFT: [u32; PieceType::NUM] = [0, 0, 6, 10, 14, 22, 25, 18, 0, 0, 0, 0, 0, 0, 0];
const MASK: [u32; PieceType::NUM] = [0, 0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7, 0, 0, 0, 0, 0, 0, 0];
const ONE: [u32; PieceType::NUM] = {
    let mut one = [0; PieceType::NUM];
    let mut i = 0;
    while i < PieceType::NUM {
        if MASK[i] != 0 {
            one[i] = 1 << SHIFT[i];
        }
        i += 1;
    }
    one
};
const GUARDS: u32 = 1 << 5 | 1 << 9 | 1 << 13 | 1 << 17 | 1 << 21 | 1 << 24 | 1 << 27;

impl Hand {
    pub const EMPTY: Hand = Hand(0);

    /// The most pieces of each kind that exist (indexed by piece type; zero for the kinds that
    /// cannot be held).
    pub const MAX: [u8; PieceType::NUM] = [0, 18, 4, 4, 4, 2, 2, 4, 0, 0, 0, 0, 0, 0, 0];

    /// How many of `pt` the hand holds: always zero for a kind that cannot be held.
    #[inline(always)]
    pub const fn count(self, pt: PieceType) -> u32 {
        (self.0 >> SHIFT[pt as usize]) & MASK[pt as usize]
    }

    #[inline(always)]
    pub const fn has(self, pt: PieceType) -> bool {
        self.count(pt) != 0
    }

    /// One more of `pt`, a kind that can be held (a debug build asserts it and that the count
    /// stays within [`Hand::MAX`]; a release build ignores any other kind).
    #[inline(always)]
    pub fn add(&mut self, pt: PieceType) {
        debug_assert!(pt.is_hand_type() && self.count(pt) < Hand::MAX[pt as usize] as u32);
        self.0 += ONE[pt as usize];
    }

    /// One fewer of `pt`, which the hand must hold (a release build ignores a kind that cannot
    /// be held).
    #[inline(always)]
    pub fn remove(&mut self, pt: PieceType) {
        debug_assert!(self.has(pt));
        self.0 -= ONE[pt as usize];
    }

    /// Sets a count; the caller keeps it within [`Hand::MAX`]. Bits beyond the kind's field are
    /// dropped, so a kind that cannot be held stays at zero.
    pub fn set(&mut self, pt: PieceType, n: u32) {
        debug_assert!(n <= Hand::MAX[pt as usize] as u32);
        let (shift, mask) = (SHIFT[pt as usize], MASK[pt as usize]);
        self.0 = (self.0 & !(mask << shift)) | (n & mask) << shift;
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

    /// The counts without their guard bits, in the low [`Hand::PACKED_BITS`] bits, for a table
    /// entry that has no room for the guards:
    ///
    /// ```text
    ///  bit: 20 19 | 18 17 | 16..14 | 13..11 | 10..8 | 7..5 | 4..0
    ///        R    |   B   |   G    |   S    |   N   |  L   |  P
    /// ```
    #[inline(always)]
    pub const fn packed(self) -> u32 {
        let h = self.0;
        (h & 0x1f)
            | ((h >> 1) & (0x7 << 5))
            | ((h >> 2) & (0x7 << 8))
            | ((h >> 3) & (0x7 << 11))
            | ((h >> 4) & (0x7 << 14))
            | ((h >> 5) & (0x3 << 17))
            | ((h >> 6) & (0x3 << 19))
    }

    /// The hand whose [`packed`](Self::packed) form is `p` (bits above the counts ignored).
    #[inline(always)]
    pub const fn from_packed(p: u32) -> Hand {
        Hand(
            (p & 0x1f)
                | ((p & (0x7 << 5)) << 1)
                | ((p & (0x7 << 8)) << 2)
                | ((p & (0x7 << 11)) << 3)
                | ((p & (0x7 << 14)) << 4)
                | ((p & (0x3 << 17)) << 5)
                | ((p & (0x3 << 19)) << 6),
        )
    }

    /// Bits of a [`packed`](Self::packed) hand.
    pub const PACKED_BITS: u32 = 21;

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
    fn packing_keeps_every_count() {
        // Every count of every kind, the others at their largest or empty.
        for pt in PieceType::HAND {
            for n in 0..=Hand::MAX[pt as usize] as u32 {
                for full in [false, true] {
                    let mut h = Hand::EMPTY;
                    for other in PieceType::HAND {
                        if full {
                            h.set(other, Hand::MAX[other as usize] as u32);
                        }
                    }
                    h.set(pt, n);
                    assert!(h.packed() < 1 << Hand::PACKED_BITS);
                    assert_eq!(Hand::from_packed(h.packed()), h);
                }
            }
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
