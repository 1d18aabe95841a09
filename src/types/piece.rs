use std::num::NonZeroU8;

use super::Color;

/// A kind of piece, promoted kinds included.
///
/// The numbering follows the field's convention: the seven kinds that can be held in hand come
/// first (1..=7), then the king, then each promoted kind at its base kind plus 8. So promotion
/// is `| 8` and "can be dropped" is `<= 7`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    Pawn = 1,
    Lance = 2,
    Knight = 3,
    Silver = 4,
    Bishop = 5,
    Rook = 6,
    Gold = 7,
    King = 8,
    ProPawn = 9,
    ProLance = 10,
    ProKnight = 11,
    ProSilver = 12,
    Horse = 13,
    Dragon = 14,
}

impl PieceType {
    /// One past the largest value, for tables indexed by piece type.
    pub const NUM: usize = 15;

    pub const ALL: [PieceType; 14] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
        PieceType::King,
        PieceType::ProPawn,
        PieceType::ProLance,
        PieceType::ProKnight,
        PieceType::ProSilver,
        PieceType::Horse,
        PieceType::Dragon,
    ];

    /// The kinds a hand can hold, in the order SFEN writes them.
    pub const HAND: [PieceType; 7] = [
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Gold,
        PieceType::Silver,
        PieceType::Knight,
        PieceType::Lance,
        PieceType::Pawn,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_u8(v: u8) -> Option<PieceType> {
        Some(match v {
            1 => PieceType::Pawn,
            2 => PieceType::Lance,
            3 => PieceType::Knight,
            4 => PieceType::Silver,
            5 => PieceType::Bishop,
            6 => PieceType::Rook,
            7 => PieceType::Gold,
            8 => PieceType::King,
            9 => PieceType::ProPawn,
            10 => PieceType::ProLance,
            11 => PieceType::ProKnight,
            12 => PieceType::ProSilver,
            13 => PieceType::Horse,
            14 => PieceType::Dragon,
            _ => return None,
        })
    }

    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= 6
    }

    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 9
    }

    /// Whether pieces of this kind move as a gold: the gold and the promoted pawn, lance,
    /// knight and silver.
    #[inline(always)]
    pub const fn moves_as_gold(self) -> bool {
        matches!(
            self,
            PieceType::Gold
                | PieceType::ProPawn
                | PieceType::ProLance
                | PieceType::ProKnight
                | PieceType::ProSilver
        )
    }

    /// Whether pieces of this kind can be held in hand (and so dropped).
    #[inline(always)]
    pub const fn is_hand_type(self) -> bool {
        (self as u8) <= 7
    }

    /// The promoted kind. Only meaningful when [`can_promote`](Self::can_promote).
    #[inline(always)]
    pub const fn promote(self) -> PieceType {
        debug_assert!(self.can_promote());
        match PieceType::from_u8(self as u8 | 8) {
            Some(pt) => pt,
            None => self,
        }
    }

    /// The kind a captured piece turns into in the capturer's hand.
    #[inline(always)]
    pub const fn unpromote(self) -> PieceType {
        if self.is_promoted() {
            match PieceType::from_u8(self as u8 & 7) {
                Some(pt) => pt,
                None => self,
            }
        } else {
            self
        }
    }

    /// The SFEN letter of a Black piece of this kind, without the `+` of promoted kinds.
    pub const fn letter(self) -> char {
        match self.unpromote() {
            PieceType::Pawn => 'P',
            PieceType::Lance => 'L',
            PieceType::Knight => 'N',
            PieceType::Silver => 'S',
            PieceType::Bishop => 'B',
            PieceType::Rook => 'R',
            PieceType::Gold => 'G',
            _ => 'K',
        }
    }

    /// The unpromoted kind for an SFEN letter (either case).
    pub const fn from_letter(c: char) -> Option<PieceType> {
        Some(match c.to_ascii_uppercase() {
            'P' => PieceType::Pawn,
            'L' => PieceType::Lance,
            'N' => PieceType::Knight,
            'S' => PieceType::Silver,
            'B' => PieceType::Bishop,
            'R' => PieceType::Rook,
            'G' => PieceType::Gold,
            'K' => PieceType::King,
            _ => return None,
        })
    }
}

/// A piece of one colour: `piece type | color << 4`, never zero, so `Option<Piece>` is a byte
/// and an empty board square is `None`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(NonZeroU8);

impl Piece {
    /// One past the largest value, for tables indexed by piece.
    pub const NUM: usize = 32;

    #[inline(always)]
    pub const fn new(color: Color, pt: PieceType) -> Piece {
        // `pt` is at least 1, so the value is never zero.
        match NonZeroU8::new(pt as u8 | (color as u8) << 4) {
            Some(v) => Piece(v),
            None => panic!("piece type is never zero"),
        }
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0.get() & 16 != 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        match PieceType::from_u8(self.0.get() & 15) {
            Some(pt) => pt,
            None => PieceType::King,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0.get() as usize
    }

    /// The SFEN text: `+` for promoted pieces, upper case for Black.
    pub fn to_sfen(self) -> String {
        let pt = self.piece_type();
        let mut s = String::with_capacity(2);
        if pt.is_promoted() {
            s.push('+');
        }
        let c = pt.letter();
        s.push(match self.color() {
            Color::Black => c,
            Color::White => c.to_ascii_lowercase(),
        });
        s
    }
}

impl std::fmt::Debug for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_round_trip() {
        for pt in PieceType::ALL {
            if pt.can_promote() {
                assert!(pt.promote().is_promoted());
                assert_eq!(pt.promote().unpromote(), pt);
                assert_eq!(pt.promote().letter(), pt.letter());
            } else {
                assert_eq!(
                    pt.unpromote(),
                    if pt.is_promoted() { pt.unpromote() } else { pt }
                );
            }
        }
        assert_eq!(PieceType::Dragon.unpromote(), PieceType::Rook);
    }

    #[test]
    fn piece_packs_color_and_type() {
        for c in Color::ALL {
            for pt in PieceType::ALL {
                let p = Piece::new(c, pt);
                assert_eq!(p.color(), c);
                assert_eq!(p.piece_type(), pt);
            }
        }
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }
}
