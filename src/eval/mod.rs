//! Static evaluation, in centipawn-like units from the side to move's point of view.
//!
//! Terms: material on the board and in hand (a piece in hand is worth a little more than on the
//! board, since it can be dropped anywhere), piece placement relative to both kings (attackers
//! near the enemy king, golds and silvers near their own), king safety (enemy pieces and enemy
//! hand pieces against the squares around each king, defenders beside it, the king's file and
//! the files beside it that no own pawn closes), slider mobility, advanced pawns, and how many of
//! a kind are in hand (the second and later pieces of a kind are worth less than the first).
//! The weights live in `weights.rs` so that tuning only rewrites that file. On top of these
//! hand-written terms comes a learned king–piece table (`kp.rs`).

pub mod weights;

pub mod kp;
pub mod learn;
pub mod nnue;
pub mod tune;

pub use weights::{piece_value, Weights, DEFAULT};

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

pub type Value = i32;

/// Chebyshev distance between two squares (kings' steps), as a table index.
#[inline(always)]
fn distance(a: Square, b: Square) -> usize {
    Square::distance(a, b) as usize
}

/// Where `sq` lies relative to king square `k`, if within two files and two ranks: (|file
/// offset|, rank offset + 2), with the rank offset positive in the direction `c` moves.
#[inline(always)]
fn near_offset(c: Color, sq: Square, k: Square) -> Option<(usize, usize)> {
    let df = (sq.file() as i32 - k.file() as i32).unsigned_abs() as usize;
    let dr = match c {
        Color::Black => k.rank() as i32 - sq.rank() as i32,
        Color::White => sq.rank() as i32 - k.rank() as i32,
    };
    if df <= 2 && dr.abs() <= 2 {
        Some((df, (dr + 2) as usize))
    } else {
        None
    }
}

/// Per-side totals gathered in one pass over the pieces.
#[derive(Default)]
struct SideTerms {
    score: Value,
    /// Weighted count of pieces attacking the enemy king's neighbourhood, and of their attacks.
    attack_units: i32,
    attackers: i32,
    /// Attacks on the own king's neighbourhood (defence).
    defence: i32,
    /// Every square this side's pieces other than the king attack.
    attacked: Bitboard,
}

/// The evaluation from Black's point of view.
pub fn evaluate_black(pos: &Position) -> Value {
    evaluate_black_with(pos, &DEFAULT)
}

/// The evaluation from Black's point of view with the given weights (and the shipped king–piece
/// table).
pub fn evaluate_black_with(pos: &Position, w: &Weights) -> Value {
    handwritten_black(pos, w) + kp::value_black(pos, &kp::TABLE)
}

/// The hand-written terms alone, from Black's point of view: the base the king–piece table is
/// learned on.
pub fn handwritten_black(pos: &Position, w: &Weights) -> Value {
    let occ = pos.occupied();
    let mut terms = [SideTerms::default(), SideTerms::default()];
    for c in Color::ALL {
        let own_king = pos.king_square(c);
        let enemy_king = pos.king_square(!c);
        let own_zone = own_king.map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
        let enemy_zone = enemy_king.map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
        let own = pos.pieces_of(c);
        let t = &mut terms[c.index()];
        for sq in own {
            let Some(piece) = pos.piece_on(sq) else {
                continue;
            };
            let pt = piece.piece_type();
            if pt == PieceType::King {
                continue;
            }
            t.score += w.piece[pt.index()];
            let class = weights::kind_class(pt);
            if let Some(ek) = enemy_king {
                t.score += w.attack_by_distance[class][distance(sq, ek)];
                if let Some((f, r)) = near_offset(c, sq, ek) {
                    t.score += w.near_enemy_king[class][f][r];
                }
            }
            if let Some(ok) = own_king {
                t.score += w.defend_by_distance[class][distance(sq, ok)];
                if let Some((f, r)) = near_offset(c, sq, ok) {
                    t.score += w.near_own_king[class][f][r];
                }
            }
            let a = attacks::attacks(c, pt, sq, occ);
            let on_enemy_king = (a & enemy_zone).count() as i32;
            if on_enemy_king > 0 {
                t.attackers += 1;
                t.attack_units +=
                    w.king_attack_weight[class] + on_enemy_king * w.king_attack_per_square;
            }
            t.defence += (a & own_zone).count() as i32;
            t.attacked |= a;
            t.score += w.mobility[class] * a.and_not(own).count() as i32;
            t.score += w.rank[class][sq.relative_rank(c) as usize];
        }
        let hand = pos.hand(c);
        for pt in PieceType::HAND {
            let n = hand.count(pt);
            t.score += n as i32 * w.hand[pt.index()] + w.hand_count[pt.index()][n.min(4) as usize];
        }
    }
    let mut score = 0;
    for c in Color::ALL {
        let sign = if c == Color::Black { 1 } else { -1 };
        let (own, enemy) = (&terms[c.index()], &terms[(!c).index()]);
        score += sign
            * (own.score - king_danger(pos, c, enemy, own, w) - threats(pos, c, enemy, own, w));
    }
    score
}

/// Pieces of `c` that the enemy attacks and nothing of `c` defends: a loss in waiting, worse
/// when the enemy is to move.
fn threats(pos: &Position, c: Color, enemy: &SideTerms, own: &SideTerms, w: &Weights) -> Value {
    let defended = own.attacked
        | pos
            .king_square(c)
            .map_or(Bitboard::EMPTY, attacks::king_attacks);
    let hanging = (pos.pieces_of(c) & enemy.attacked).and_not(defended);
    let table = if pos.side_to_move() == c {
        &w.hanging_to_move
    } else {
        &w.hanging_waiting
    };
    hanging
        .iter()
        .filter_map(|sq| pos.piece_on(sq))
        .filter(|p| p.piece_type() != PieceType::King)
        .map(|p| table[weights::kind_class(p.piece_type())])
        .sum()
}

/// How exposed the king of `c` is: the enemy's attacks on its neighbourhood, the enemy's hand
/// pieces that could be dropped on empty squares there, against the own pieces guarding it.
/// The penalty grows with the square of the attack, as a lone attacker rarely mates.
fn king_danger(pos: &Position, c: Color, enemy: &SideTerms, own: &SideTerms, w: &Weights) -> Value {
    let Some(k) = pos.king_square(c) else {
        return 0;
    };
    let near = attacks::king_attacks(k);
    let empty_near = near.and_not(pos.occupied()).count() as i32;
    let enemy_hand = pos.hand(!c);
    let mut hand_units = 0;
    for pt in PieceType::HAND {
        if enemy_hand.has(pt) {
            hand_units += w.hand_drop_threat[pt.index()];
        }
    }
    let drop_threat = hand_units * empty_near.min(4) / 2;
    // Squares next to the king that the enemy attacks and no other piece of ours guards, and
    // those among them where a drop could land.
    let weak = (near & enemy.attacked).and_not(own.attacked);
    let weak_units = weak.count() as i32 * w.king_weak_square
        + if enemy_hand.is_empty() {
            0
        } else {
            weak.and_not(pos.occupied()).count() as i32 * w.king_weak_empty_square
        };
    let units =
        enemy.attack_units + drop_threat + weak_units + if enemy.attackers >= 2 { 10 } else { 0 }
            - own.defence * w.king_defence_per_attack;
    let units = units.max(0);
    units * units / w.king_danger_divisor.max(1)
        + king_rank_penalty(k, c, w)
        + king_file_penalty(pos, k, c, w)
}

/// The king's file (a king in the centre is in the way of both wings) and the files around it
/// that no own pawn closes.
fn king_file_penalty(pos: &Position, k: Square, c: Color, w: &Weights) -> Value {
    let f = k.file() as i32;
    let pawns = pos.pieces(c, PieceType::Pawn);
    let mut penalty = -w.king_file[(f - 4).unsigned_abs() as usize];
    for df in -1..=1 {
        let file = f + df;
        if (0..9).contains(&file) && (pawns & Bitboard::file(file as u8)).is_empty() {
            penalty += w.king_open_file[df.unsigned_abs() as usize];
        }
    }
    penalty
}

fn king_rank_penalty(k: Square, c: Color, w: &Weights) -> Value {
    // A king that has wandered up the board is exposed, unless it has entered the enemy camp.
    let r = 8 - k.relative_rank(c) as usize; // 0 = own back rank
    w.king_rank[r]
}

/// The evaluation from the side to move's point of view, with a small bonus for the move.
pub fn evaluate(pos: &Position) -> Value {
    evaluate_with_table(pos, kp::value_black(pos, &kp::TABLE))
}

/// `evaluate` with the king–piece table's value (from Black's point of view) already known:
/// the search keeps it move by move in a `kp::Accumulator`.
pub fn evaluate_with_table(pos: &Position, table_black: Value) -> Value {
    let v = handwritten_black(pos, &DEFAULT) + table_black;
    let v = if pos.side_to_move() == Color::Black {
        v
    } else {
        -v
    };
    v + DEFAULT.tempo
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
