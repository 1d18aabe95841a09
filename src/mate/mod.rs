//! Mate finding: the fast mate-in-one the search probes at every node, and the df-pn solver
//! behind `go mate`, `hayate mate` and the search's long mates.

mod batch;
mod dfpn;
mod notation;
mod table;

pub use batch::run_batch;
pub use dfpn::{verify_mate_line, SolveLimits, Solver, Verdict};
pub use notation::japanese_line;

use crate::attacks;
use crate::movegen::{count_legal, generate_legal, MoveList};
use crate::position::Position;
use crate::types::Move;

/// A move that checkmates at once, if the side to move has one.
///
/// Only moves that can give check are tried: every legal move is generated, and those that
/// land next to the enemy king, on a knight's checking square, or on an open line to it are
/// tested with `gives_check`, then played to see whether any reply is left.
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    if pos.in_check() {
        return None;
    }
    let us = pos.side_to_move();
    let ek = pos.king_square(!us)?;
    let occ = pos.occupied();
    let near = attacks::king_attacks(ek)
        | attacks::knight_attacks(!us, ek)
        | attacks::rook_attacks(ek, occ)
        | attacks::bishop_attacks(ek, occ);
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    for &m in list.iter() {
        if !near.contains(m.to()) && (m.is_drop() || !pos.blockers(!us).contains(m.from())) {
            continue;
        }
        if !pos.gives_check(m) {
            continue;
        }
        pos.do_move(m);
        let mated = count_legal(pos) == 0;
        pos.undo_move(m);
        if mated {
            return Some(m);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_head_mate_and_respects_uchifuzume() {
        let mut p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        assert_eq!(
            mate_in_one(&mut p).map(|m| m.to_string()),
            Some("G*5b".to_string())
        );
        // A pawn-drop mate is illegal, so there is no mate in one here.
        let mut q = Position::from_sfen("7lk/9/8S/9/9/9/9/7L1/8K b P 1").unwrap();
        assert_eq!(mate_in_one(&mut q), None);
    }
}
