//! The entering-king (nyugyoku) declaration and impasse points.

use super::Position;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, Move, PieceType, Square};

/// Which entering-king rule is in force (named as YaneuraOu's `EnteringKingRule` option values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EnteringKingRule {
    /// No declaration is possible.
    None,
    /// The 24-point rule: a declaration wins with 31 points or more.
    Csa24,
    /// The 27-point declaration rule of computer-shogi championships (28 for Black).
    #[default]
    Csa27,
    /// The try rule: the king reaching the enemy king's start square wins.
    Try,
}

impl EnteringKingRule {
    pub fn from_usi(name: &str) -> Option<EnteringKingRule> {
        Some(match name {
            "NoEnteringKing" => EnteringKingRule::None,
            "CSARule24" => EnteringKingRule::Csa24,
            "CSARule27" => EnteringKingRule::Csa27,
            "TryRule" => EnteringKingRule::Try,
            _ => return None,
        })
    }

    pub fn to_usi(self) -> &'static str {
        match self {
            EnteringKingRule::None => "NoEnteringKing",
            EnteringKingRule::Csa24 => "CSARule24",
            EnteringKingRule::Csa27 => "CSARule27",
            EnteringKingRule::Try => "TryRule",
        }
    }
}

/// The square a king of colour `c` must reach under the try rule: the enemy king's start.
pub fn try_square(c: Color) -> Square {
    match c {
        Color::Black => Square::new(4, 0),
        Color::White => Square::new(4, 8),
    }
}

/// Impasse value of a piece kind: 5 for rook and bishop (promoted or not), 0 for the king, 1
/// for everything else.
pub fn impasse_value(pt: PieceType) -> u32 {
    match pt.unpromote() {
        PieceType::Rook | PieceType::Bishop => 5,
        PieceType::King => 0,
        _ => 1,
    }
}

impl Position {
    /// Points of colour `c` for the 24-point impasse rule: all its pieces on the board and in hand.
    pub fn impasse_points(&self, c: Color) -> u32 {
        let on_board: u32 = self
            .pieces_of(c)
            .iter()
            .filter_map(|sq| self.piece_on(sq))
            .map(|p| impasse_value(p.piece_type()))
            .sum();
        on_board + self.hand_points(c)
    }

    fn hand_points(&self, c: Color) -> u32 {
        let h = self.hand(c);
        PieceType::HAND
            .iter()
            .map(|&pt| h.count(pt) * impasse_value(pt))
            .sum()
    }

    /// Whether the side to move may declare a win now under `rule` (the USI `bestmove win`).
    pub fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        let us = self.side_to_move();
        let Some(ksq) = self.king_square(us) else {
            return false;
        };
        match rule {
            EnteringKingRule::None => false,
            EnteringKingRule::Try => self.try_move().is_some(),
            EnteringKingRule::Csa24 | EnteringKingRule::Csa27 => {
                let camp = Bitboard::promotion_zone(us);
                if !camp.contains(ksq) || self.in_check() {
                    return false;
                }
                let in_camp = (self.pieces_of(us) & camp).without(ksq);
                if in_camp.count() < 10 {
                    return false;
                }
                let points: u32 = in_camp
                    .iter()
                    .filter_map(|sq| self.piece_on(sq))
                    .map(|p| impasse_value(p.piece_type()))
                    .sum::<u32>()
                    + self.hand_points(us);
                let needed = match (rule, us) {
                    (EnteringKingRule::Csa24, _) => 31,
                    (_, Color::Black) => 28,
                    (_, Color::White) => 27,
                };
                points >= needed
            }
        }
    }

    /// Under the try rule: the legal king move onto the enemy king's start square, if any.
    pub fn try_move(&self) -> Option<Move> {
        let us = self.side_to_move();
        let ksq = self.king_square(us)?;
        let target = try_square(us);
        if !attacks::king_attacks(ksq).contains(target) {
            return None;
        }
        let m = Move::normal(ksq, target, false);
        self.is_legal(m).then_some(m)
    }
}
