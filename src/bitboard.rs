//! A set of squares in one `u128`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::types::{Color, Square};

/// 81 squares in the low bits of a `u128`, bit `i` for the square of index `i` (file-major, see
/// [`Square`]). Bits 81..128 are always zero: `!` masks them off.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;
const FILE_1: u128 = 0x1ff;
const RANK_A: u128 = {
    let mut bits = 0u128;
    let mut f = 0;
    while f < 9 {
        bits |= 1 << (9 * f);
        f += 1;
    }
    bits
};

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of a file, 0..=8 for the files 1..=9.
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(FILE_1 << (9 * file))
    }

    /// All squares of a rank, 0..=8 for the ranks a..=i.
    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(RANK_A << rank)
    }

    /// The ranks of `color`'s board side whose relative rank (0 = farthest) is below `n`:
    /// `n = 3` is the promotion zone, `n = 1` the last rank, `n = 2` the last two ranks.
    #[inline(always)]
    pub const fn far_ranks(color: Color, n: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut i = 0;
        while i < n {
            bits |= match color {
                Color::Black => RANK_A << i,
                Color::White => RANK_A << (8 - i),
            };
            i += 1;
        }
        Bitboard(bits)
    }

    /// The promotion zone of `color`.
    #[inline(always)]
    pub const fn promotion_zone(color: Color) -> Bitboard {
        Bitboard::far_ranks(color, 3)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    #[inline(always)]
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    #[inline(always)]
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    #[inline(always)]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; the caller knows the set is not empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index_unchecked(self.0.trailing_zeros() as u8)
    }

    /// The only square of a one-square set, or `None`.
    #[inline(always)]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.has_more_than_one() {
            Some(self.lsb())
        } else {
            None
        }
    }

    /// Every square of a file holding at least one member: the files where a pawn stands, for
    /// the nifu rule.
    ///
    /// Per file (nine bits), adding 0xff to the low eight bits carries into the ninth bit when any
    /// of them is set; the ninth bit is then smeared over the file by a subtraction that stays
    /// inside the file.
    #[inline(always)]
    pub const fn fill_files(self) -> Bitboard {
        const LOW8: u128 = RANK_A * 0xff;
        const TOP: u128 = RANK_A << 8;
        let top = (((self.0 & LOW8) + LOW8) | self.0) & TOP;
        Bitboard(top | (top - (top >> 8)))
    }

    /// Shifts one rank towards `color`'s far side (the way its pawns move). Squares on the far
    /// rank would wrap into the neighbouring file: callers pass sets with none there.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::Black => Bitboard(self.0 >> 1),
            Color::White => Bitboard(self.0 << 1),
        }
    }

    pub fn iter(self) -> BitIter {
        BitIter {
            lo: self.0 as u64,
            hi: (self.0 >> 64) as u64,
        }
    }
}

/// Iterates over the squares of a bitboard from the lowest index up.
///
/// The two 64-bit halves are scanned separately: a 128-bit "clear lowest bit" costs a borrow
/// chain and a branch per square, while each half needs one `tzcnt` and one `blsr`.
pub struct BitIter {
    lo: u64,
    hi: u64,
}

impl Iterator for BitIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.lo != 0 {
            let index = self.lo.trailing_zeros();
            self.lo &= self.lo - 1;
            Some(Square::from_index_unchecked(index as u8))
        } else if self.hi != 0 {
            let index = 64 + self.hi.trailing_zeros();
            self.hi &= self.hi - 1;
            Some(Square::from_index_unchecked(index as u8))
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.lo.count_ones() + self.hi.count_ones()) as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the board as a player sees it: file 9 on the left, rank a on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in 0..9 {
            for file in (0..9).rev() {
                let sq = Square::new(file, rank);
                f.write_str(if self.contains(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_files_marks_whole_files() {
        for file in 0..9u8 {
            for rank in 0..9u8 {
                let b = Bitboard::from_square(Square::new(file, rank));
                assert_eq!(b.fill_files(), Bitboard::file(file));
            }
        }
        let two =
            Bitboard::from_square(Square::new(0, 8)) | Bitboard::from_square(Square::new(8, 0));
        assert_eq!(two.fill_files(), Bitboard::file(0) | Bitboard::file(8));
        assert_eq!(Bitboard::ALL.fill_files(), Bitboard::ALL);
        assert_eq!(Bitboard::EMPTY.fill_files(), Bitboard::EMPTY);
    }

    #[test]
    fn zones() {
        assert_eq!(Bitboard::promotion_zone(Color::Black).count(), 27);
        assert!(Bitboard::promotion_zone(Color::Black).contains(Square::from_usi("5c").unwrap()));
        assert!(Bitboard::promotion_zone(Color::White).contains(Square::from_usi("5g").unwrap()));
        assert!(!Bitboard::promotion_zone(Color::White).contains(Square::from_usi("5f").unwrap()));
        assert_eq!(Bitboard::far_ranks(Color::White, 1), Bitboard::rank(8));
    }

    #[test]
    fn iteration_visits_each_square() {
        let v: Vec<Square> = Bitboard::ALL.iter().collect();
        assert_eq!(v.len(), 81);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(!Bitboard::ALL, Bitboard::EMPTY);
    }
}
