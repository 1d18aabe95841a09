//! Useless interpositions (無駄合): the defences the tsume convention leaves out of the main line.
//!
//! Against a distant check the defender can drop a piece on the line, the attacker takes it
//! with the checking piece, and the mate goes on as before: the drop only adds two plies. Tsume
//! shogi does not count such a drop as a defence; the main line is the longest defence without
//! them, and a check whose only answers are such drops is mate.
//!
//! The definition used here, and why:
//! - only drops (合駒 from the hand). A board move onto the line (移動合) also empties a square and
//!   may open or close other lines, so "the mate as if it had not been made" is not defined for
//!   it; composers count it as a real defence;
//! - a single check by a lance, bishop, rook, horse or dragon, with the drop between it and the
//!   king;
//! - no defender piece but the king covers the square: a protected piece (紐付きの合駒) costs the
//!   attacker his checking piece or changes the line, so it is a defence. A piece pinned to its
//!   king does not protect it: it may only move along its pin line, which meets the check's
//!   line at the king alone (or is the check's line beyond the king, where the king stands in
//!   the way), and the checking piece's capture leaves the pin as it was (the checking piece
//!   pins nothing: its line to the king is open);
//! - next to the king, another of the attacker's pieces covers the square as well, so the king
//!   cannot take back once the checking piece has taken the drop. A drop the king could take
//!   back is a defence whatever follows: the mate after it is not the mate without it. The
//!   records count the covered drops as useless: zuko018's ▲4五角 △3四歩 ▲同角 (3四 next to the
//!   king on 2三, covered by the pawn on 3五), counted, makes the line 25 plies with a pawn to
//!   spare against the published 23. This module used to count every drop next to the king as
//!   a defence; on the 5M-node checker batch of the 207 muso/zuko rows that left 16 with a piece
//!   to spare, and this rule 5, and of the 126 lengths both rules settle it brings 19 two plies
//!   nearer the published ones and takes 3 further (muso092, zuko039, zuko082: records differ
//!   in their conventions too);
//! - after the checking piece takes it (promoting or not, as long as the capture is a check), the
//!   position is mate with the captured piece taken out of the attacker's hand: the piece is not
//!   needed, which is the "same mate as without the interposition" in a form that can be proven.
//!   This is the test KomoringHeights and other solvers use in some form; it is sound, since the
//!   position with the piece in hand is then mate as well (a larger hand never spoils a mate).
//!
//! The proof of a problem still refutes every such drop; only the reported line and its length
//! leave them out.

use crate::attacks;
use crate::movegen::{generate_legal, MoveList};
use crate::position::Position;
use crate::types::{Color, Move, PieceType};

/// Whether the drop `r` (the defender to move in `pos`) is of the kind that may be useless:
/// against a single distant check by a line piece, on a square no defender piece but the king
/// (or one pinned to it) covers and, next to the king, one that another of the attacker's
/// pieces covers. Whether it is useless is for [`positions_without_the_piece`] and a proof to
/// say.
pub(super) fn may_be_useless(pos: &Position, r: Move) -> bool {
    if !r.is_drop() {
        return false;
    }
    let defender = pos.side_to_move();
    let Some(checker) = pos.checkers().single() else {
        return false;
    };
    let Some(king) = pos.king_square(defender) else {
        return false;
    };
    let Some(piece) = pos.piece_on(checker) else {
        return false;
    };
    let line_piece = matches!(
        piece.piece_type(),
        PieceType::Lance
            | PieceType::Bishop
            | PieceType::Rook
            | PieceType::Horse
            | PieceType::Dragon
    );
    let to = r.to();
    let occupied = pos.occupied().with(to);
    let king_could_take_back = || {
        attacks::king_attacks(king).contains(to)
            && pos
                .attackers_to(!defender, to, occupied.without(checker))
                .without(checker)
                .is_empty()
    };
    line_piece
        && attacks::between(king, checker).contains(to)
        && pos
            .attackers_to(defender, to, occupied)
            .without(king)
            .and_not(pos.pinned())
            .is_empty()
        && !king_could_take_back()
}

/// For a drop `r` that [`may_be_useless`], the positions after `r` and each capture of the
/// dropped piece by the checking piece that is still a check, with the dropped piece taken out
/// of the attacker's hand: the defender to move, in check. The drop is useless when one of them
/// is mate. They are new positions without history (so no repetition reaches back before them).
pub(super) fn positions_without_the_piece(pos: &mut Position, r: Move) -> Vec<Position> {
    positions_after_the_capture(pos, r, false)
}

/// The positions of [`positions_without_the_piece`] with the dropped piece given back to the
/// defender: as if the checking piece had moved to the drop's square with no drop. They are the
/// same whichever piece was dropped there, and a mate in one of them is a mate in the matching
/// position without the piece, where the defender holds less. So one proof here shows every
/// drop on that square useless.
pub(super) fn positions_as_if_not_dropped(pos: &mut Position, r: Move) -> Vec<Position> {
    positions_after_the_capture(pos, r, true)
}

fn positions_after_the_capture(pos: &mut Position, r: Move, piece_back: bool) -> Vec<Position> {
    let Some(checker) = pos.checkers().single() else {
        return Vec::new();
    };
    let defender = pos.side_to_move();
    let mut out = Vec::new();
    pos.do_move(r);
    for promote in [true, false] {
        let m = Move::normal(checker, r.to(), promote);
        if !pos.is_legal(m) || !pos.gives_check(m) {
            continue;
        }
        pos.do_move(m);
        let mut hands = [pos.hand(Color::Black), pos.hand(Color::White)];
        hands[(!defender).index()].remove(r.dropped());
        if piece_back {
            hands[defender.index()].add(r.dropped());
        }
        let reduced = pos.with_hands(hands);
        pos.undo_move(m);
        if let Ok(p) = reduced {
            out.push(p);
        }
    }
    pos.undo_move(r);
    out
}

/// Whether the drop `r` (the defender to move in `pos`) is useless, `mated` telling whether a
/// position (defender to move, in check) is mate.
pub(super) fn is_useless(
    pos: &mut Position,
    r: Move,
    mated: &mut dyn FnMut(&mut Position) -> bool,
) -> bool {
    may_be_useless(pos, r) && positions_without_the_piece(pos, r).iter_mut().any(mated)
}

/// Whether every reply of the defender (to move in `pos`) is a drop that [`may_be_useless`]:
/// a line may end there, the solver's proof having shown the drops useless.
pub(super) fn only_droppable_replies(pos: &Position) -> bool {
    let mut replies = MoveList::new();
    generate_legal(pos, &mut replies);
    !replies.is_empty() && replies.iter().all(|&r| may_be_useless(pos, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn may_be_useless_in(sfen: &str, drop: &str) -> bool {
        let pos = Position::from_sfen(sfen).unwrap();
        let m = pos.parse_usi_move(drop).unwrap();
        may_be_useless(&pos, m)
    }

    /// After ▲6一飛成 on the king on 1一, with the knight on 3三 covering 2一 or without it.
    const COVERED: &str = "3+R4k/7pp/6N2/9/9/9/9/9/9 w gl 1";
    const BARE: &str = "3+R4k/7pp/9/9/9/9/9/9/9 w gl 1";

    #[test]
    fn a_drop_next_to_the_king_may_be_useless_only_where_the_attacker_covers_it() {
        assert!(may_be_useless_in(COVERED, "L*2a"));
        assert!(!may_be_useless_in(BARE, "L*2a"));
        // Away from the king the attacker's cover does not matter.
        assert!(may_be_useless_in(COVERED, "L*3a"));
        assert!(may_be_useless_in(BARE, "L*3a"));
    }

    #[test]
    fn every_piece_dropped_on_a_square_gives_one_position_as_if_not_dropped() {
        // ▲6六飛 checks the king on 6一 down the file; the defender may drop on 6五.
        let pos = Position::from_sfen("3k5/9/1l2S4/8n/2P6/3R5/9/9/9 w SPgp 1").unwrap();
        let mut p = pos.clone();
        let mut seen = Vec::new();
        for drop in ["P*6e", "G*6e"] {
            let r = p.parse_usi_move(drop).unwrap();
            assert!(may_be_useless(&p, r));
            let back = positions_as_if_not_dropped(&mut p, r);
            let without = positions_without_the_piece(&mut p, r);
            assert_eq!(back.len(), 1);
            assert_eq!(without.len(), 1);
            // The rook on 6五, checking, the hands as before the drop.
            let q = &back[0];
            assert!(q.in_check());
            assert_eq!(q.hand(Color::Black), pos.hand(Color::Black));
            assert_eq!(q.hand(Color::White), pos.hand(Color::White));
            // Without the piece, the same board with the defender short of it.
            let w = &without[0];
            assert_eq!(w.board_key(), q.board_key());
            let mut less = q.hand(Color::White);
            less.remove(r.dropped());
            assert_eq!(w.hand(Color::White), less);
            seen.push((q.board_key(), q.hand(Color::Black), q.hand(Color::White)));
        }
        assert_eq!(seen[0], seen[1]);
        assert_eq!(p.key(), pos.key());
    }

    #[test]
    fn a_drop_only_a_pinned_piece_covers_may_be_useless() {
        // ▲9一飛成 checks the king on 5一 along the first rank. The silver on 6二 covers 7一, but
        // the bishop on 8四 pins it to the king, so it could never take back there.
        let pinned = "+R3kp3/3s5/4NG3/1B7/9/9/9/9/9 w rb3g3s3n4l17p 1";
        assert!(may_be_useless_in(pinned, "P*7a"));
        assert!(may_be_useless_in(pinned, "P*8a"));
        // Without the bishop the silver is free, and its cover makes the drop a defence.
        let free = "+R3kp3/3s5/4NG3/9/9/9/9/9/9 w r2b3g3s3n4l17p 1";
        assert!(!may_be_useless_in(free, "P*7a"));
        assert!(may_be_useless_in(free, "P*8a"));
    }

    #[test]
    fn a_drop_another_defender_piece_covers_is_a_defence() {
        // A gold on 3二 covers 3一, not 2一.
        let guarded = "3+R4k/6gpp/6N2/9/9/9/9/9/9 w gl 1";
        assert!(!may_be_useless_in(guarded, "L*3a"));
        assert!(may_be_useless_in(guarded, "L*2a"));
        assert!(may_be_useless_in(guarded, "L*4a"));
    }
}
