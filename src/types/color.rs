use std::ops::Not;

/// The side a piece belongs to. Black (sente) moves first in an even game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];
    pub const NUM: usize = 2;

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The SFEN letter for the side to move.
    pub const fn to_sfen(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}
