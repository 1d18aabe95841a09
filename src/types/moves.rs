use std::fmt;
use std::num::NonZeroU16;

use super::{PieceType, Square};

/// A move in 16 bits.
///
/// ```text
/// bit 15    14       13..7              6..0
///     mark  promote  from (0..=80),     to
///                    or 81 + piece type for a drop
/// ```
/// The mark bit is always set, so a move is never zero and `Option<Move>` is two bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Move(NonZeroU16);

const MARK: u16 = 1 << 15;
const PROMOTE: u16 = 1 << 14;
const DROP_BASE: u16 = 81;

impl Move {
    #[inline(always)]
    const fn from_bits(bits: u16) -> Move {
        match NonZeroU16::new(bits | MARK) {
            Some(v) => Move(v),
            None => panic!("the mark bit makes a move non-zero"),
        }
    }

    /// A board move; `promote` asks for promotion on arrival.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move::from_bits(
            (if promote { PROMOTE } else { 0 }) | (from.index() as u16) << 7 | to.index() as u16,
        )
    }

    /// A drop of `pt`. Every kind is encodable, so that a record reader can build the move its
    /// text names and leave the verdict to [`Position::is_legal`](crate::Position::is_legal),
    /// which refuses a drop of a kind that cannot be held (a promoted piece, the king).
    #[inline(always)]
    pub const fn drop(pt: PieceType, to: Square) -> Move {
        Move::from_bits((DROP_BASE + pt as u16) << 7 | to.index() as u16)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7f) as u8)
    }

    #[inline(always)]
    const fn origin_field(self) -> u16 {
        (self.0.get() >> 7) & 0x7f
    }

    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.origin_field() > DROP_BASE
    }

    /// The origin of a board move. Meaningless for a drop.
    #[inline(always)]
    pub const fn from(self) -> Square {
        debug_assert!(!self.is_drop());
        Square::from_index_unchecked(self.origin_field() as u8)
    }

    /// The piece kind of a drop. Meaningless for a board move.
    #[inline(always)]
    pub const fn dropped(self) -> PieceType {
        debug_assert!(self.is_drop());
        match PieceType::from_u8((self.origin_field() - DROP_BASE) as u8) {
            Some(pt) => pt,
            None => PieceType::Pawn,
        }
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE != 0
    }

    /// The 16-bit encoding, for transposition tables and books.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// Decodes [`raw`](Self::raw) output; `None` for bit patterns no move has.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        if raw & MARK == 0 {
            return None;
        }
        let to = raw & 0x7f;
        let from = (raw >> 7) & 0x7f;
        let promote = raw & PROMOTE != 0;
        let ok = to < 81
            && if from > DROP_BASE {
                from <= DROP_BASE + 7 && !promote
            } else {
                from < 81 && from != to
            };
        if ok {
            Some(Move::from_bits(raw))
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_drop() {
            write!(f, "{}*{}", self.dropped().letter(), self.to())
        } else {
            write!(
                f,
                "{}{}{}",
                self.from(),
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            )
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_every_field() {
        let a = Square::from_usi("8h").unwrap();
        let b = Square::from_usi("2b").unwrap();
        let m = Move::normal(a, b, true);
        assert_eq!(
            (m.from(), m.to(), m.is_promotion(), m.is_drop()),
            (a, b, true, false)
        );
        assert_eq!(m.to_string(), "8h2b+");
        for pt in PieceType::HAND {
            let d = Move::drop(pt, b);
            assert!(d.is_drop() && !d.is_promotion());
            assert_eq!(d.dropped(), pt);
            assert_eq!(Move::from_raw(d.raw()), Some(d));
        }
        assert_eq!(Move::drop(PieceType::Pawn, b).to_string(), "P*2b");
        assert_eq!(Move::from_raw(m.raw()), Some(m));
        assert_eq!(Move::from_raw(0), None);
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
    }
}
