//! Static evaluation, in centipawn-like units from the side to move's point of view.
//!
//! Terms: material on the board and in hand (a piece in hand is worth a little more than on the
//! board, since it can be dropped anywhere), piece placement relative to both kings (attackers
//! near the enemy king, golds and silvers near their own), king safety (enemy pieces and enemy
//! hand pieces against the squares around each king, defenders beside it), slider mobility, and
//! advanced pawns. The weights live in `weights.rs` so that tuning only rewrites that file.

mod weights;

pub use weights::{hand_value, piece_value};

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

pub type Value = i32;

/// Chebyshev distance between two squares (kings' steps).
#[inline(always)]
fn distance(a: Square, b: Square) -> usize {
    let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
    let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
    df.max(dr) as usize
}

/// The evaluation from Black's point of view.
pub fn evaluate_black(pos: &Position) -> Value {
    let mut score = 0;
    let occ = pos.occupied();
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        let mut s = 0;
        let own_king = pos.king_square(c);
        let enemy_king = pos.king_square(!c);
        for sq in pos.pieces_of(c) {
            let Some(piece) = pos.piece_on(sq) else {
                continue;
            };
            let pt = piece.piece_type();
            s += piece_value(pt);
            if pt == PieceType::King {
                continue;
            }
            if let Some(ek) = enemy_king {
                s += weights::ATTACK_BY_DISTANCE[weights::kind_class(pt)][distance(sq, ek)];
            }
            if let Some(ok) = own_king {
                s += weights::DEFEND_BY_DISTANCE[weights::kind_class(pt)][distance(sq, ok)];
            }
            match pt {
                PieceType::Pawn => s += weights::PAWN_ADVANCE[sq.relative_rank(c) as usize],
                PieceType::Rook | PieceType::Dragon => {
                    s += weights::ROOK_MOBILITY * attacks::rook_attacks(sq, occ).count() as i32
                }
                PieceType::Bishop | PieceType::Horse => {
                    s += weights::BISHOP_MOBILITY * attacks::bishop_attacks(sq, occ).count() as i32
                }
                _ => {}
            }
        }
        let hand = pos.hand(c);
        for pt in PieceType::HAND {
            let n = hand.count(pt) as i32;
            s += n * hand_value(pt);
        }
        s -= king_danger(pos, c);
        score += sign * s;
    }
    score
}

/// How exposed the king of `c` is: enemy pieces near it, enemy pieces in hand that could be
/// dropped next to it, and missing defenders.
fn king_danger(pos: &Position, c: Color) -> Value {
    let Some(k) = pos.king_square(c) else {
        return 0;
    };
    let near = attacks::king_attacks(k);
    let zone = near
        .iter()
        .fold(near, |z, sq| z | attacks::king_attacks(sq));
    let enemy = pos.pieces_of(!c);
    let own = pos.pieces_of(c);
    let attackers = (enemy & zone).count() as i32;
    let defenders =
        (own & near & (pos.golds() | pos.pieces_of_type(PieceType::Silver))).count() as i32;
    let holes = near.and_not(pos.occupied()).count() as i32;
    let enemy_hand = pos.hand(!c);
    let hand_threat = enemy_hand.count(PieceType::Gold) as i32 * 3
        + enemy_hand.count(PieceType::Silver) as i32 * 2
        + (enemy_hand.count(PieceType::Rook) + enemy_hand.count(PieceType::Bishop)) as i32 * 3
        + (enemy_hand.count(PieceType::Knight) + enemy_hand.count(PieceType::Lance)) as i32
        + enemy_hand.count(PieceType::Pawn).min(3) as i32;
    let pressure = attackers * weights::KING_ATTACKER
        + hand_threat * holes.min(4) * weights::KING_HAND_HOLE
        - defenders * weights::KING_DEFENDER;
    // Danger grows faster than linearly: several attackers together are worse than their sum.
    let p = pressure.max(0);
    p + p * p / weights::KING_DANGER_SCALE - (-pressure).max(0) / 2
        + weights::KING_ZONE_ENEMY_CONTROL * (enemy & near).count() as i32
        + king_rank_penalty(k, c)
}

fn king_rank_penalty(k: Square, c: Color) -> Value {
    // A king that has wandered up the board is exposed, unless it has entered the enemy camp.
    let r = 8 - k.relative_rank(c) as usize; // 0 = own back rank
    weights::KING_RANK[r]
}

/// The evaluation from the side to move's point of view, with a small bonus for the move.
pub fn evaluate(pos: &Position) -> Value {
    let v = evaluate_black(pos);
    let v = if pos.side_to_move() == Color::Black {
        v
    } else {
        -v
    };
    v + weights::TEMPO
}

/// Squares an enemy piece could drop on next to the king (used by the search's king-safety
/// heuristics).
pub fn king_neighbourhood(k: Square) -> Bitboard {
    attacks::king_attacks(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let p = Position::startpos();
        assert_eq!(evaluate_black(&p), 0);
        let w =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        assert_eq!(evaluate(&p), evaluate(&w));
    }

    #[test]
    fn material_counts() {
        let up_a_rook =
            Position::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1")
                .unwrap();
        assert!(evaluate(&up_a_rook) > 800);
    }
}
