use std::fmt;

use super::Color;

/// One of the 81 squares.
///
/// The index is file-major: `index = 9 * file + rank`, where `file` 0..=8 stands for the files
/// 1..=9 and `rank` 0..=8 for the ranks a..=i. So 1a is 0, 1i is 8, 2a is 9 and 9i is 80. A file
/// is nine consecutive bits of a [`Bitboard`](crate::Bitboard), which makes lance attacks and the
/// "files holding a pawn" mask of the nifu rule cheap. Black moves towards rank a, that is towards
/// lower indices.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const NUM: usize = 81;

    /// `file` 0..=8 (file 1..=9), `rank` 0..=8 (rank a..=i).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 9 && rank < 9);
        Square(file * 9 + rank)
    }

    #[inline(always)]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// For indices known to be on the board (bit scans of a masked bitboard, table loops).
    #[inline(always)]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0..=8 for the files 1..=9.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9
    }

    /// 0..=8 for the ranks a..=i.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9
    }

    /// The rank counted from `color`'s far side: 0 is the last rank that color can reach.
    #[inline(always)]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// The square seen from the other side of the board (a 180 degree turn).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// The number of king steps between two squares (Chebyshev distance).
    #[inline(always)]
    pub const fn distance(a: Square, b: Square) -> u32 {
        let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
        let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 9 {
            Some(Square::new(f as u8, r as u8))
        } else {
            None
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..81).map(Square)
    }

    /// Parses USI square text such as `7g`.
    pub fn from_usi(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'1');
        let rank = b[1].wrapping_sub(b'a');
        if file < 9 && rank < 9 {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'1' + self.file()) as char,
            (b'a' + self.rank()) as char
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_usi(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::from_usi("1a").unwrap().index(), 0);
        assert_eq!(Square::from_usi("9i").unwrap().index(), 80);
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
    }
}
