//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable piece and may stop at any time.

use crate::position::Position;
use crate::types::{Move, PieceType};

/// Piece values for exchanges, fixed so that retuning the evaluation leaves move ordering
/// alone. The king is priceless: it may capture only as the last piece.
pub fn see_value(pt: PieceType) -> i32 {
    const VALUES: [i32; PieceType::NUM] = [
        0, 90, 315, 405, 495, 855, 990, 540, 20000, 540, 540, 540, 540, 945, 1395,
    ];
    VALUES[pt.index()]
}

/// The exchange value of `m` for the side making it.
pub fn see(pos: &Position, m: Move) -> i32 {
    let us = pos.side_to_move();
    let to = m.to();
    let (mut occ, mut on_square, first_gain) = if m.is_drop() {
        (pos.occupied().with(to), see_value(m.dropped()), 0)
    } else {
        let from = m.from();
        let Some(piece) = pos.piece_on(from) else {
            return 0;
        };
        let captured = pos.piece_on(to).map_or(0, |p| see_value(p.piece_type()));
        let pt = piece.piece_type();
        let (moved, promo_gain) = if m.is_promotion() {
            (pt.promote(), see_value(pt.promote()) - see_value(pt))
        } else {
            (pt, 0)
        };
        (
            pos.occupied().without(from).with(to),
            see_value(moved),
            captured + promo_gain,
        )
    };
    let mut gain = [0i32; 48];
    gain[0] = first_gain;
    let mut d = 0;
    let mut side = !us;
    loop {
        let attackers = pos.attackers_to(side, to, occ) & occ;
        if attackers.is_empty() {
            break;
        }
        // The least valuable attacker.
        let mut best = None;
        let mut best_value = i32::MAX;
        for sq in attackers {
            if let Some(p) = pos.piece_on(sq) {
                let v = see_value(p.piece_type());
                if v < best_value {
                    best_value = v;
                    best = Some(sq);
                }
            }
        }
        let Some(sq) = best else { break };
        if best_value >= 20000 && (pos.attackers_to(!side, to, occ.without(sq)) & occ).is_nonempty()
        {
            // The king may not capture onto a defended square.
            break;
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = on_square - gain[d - 1];
        if gain[d].max(-gain[d - 1]) < 0 {
            break;
        }
        on_square = best_value;
        occ = occ.without(sq);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    gain[0]
}

/// Fills `list` with the legal board moves of `pos` that lose nothing by static exchange: the
/// random moves that self-play and `hayate match --random-plies` add to an opening, varied but
/// not giving material away (drops are left out: they would fill the opening with pieces it
/// never had in hand).
pub fn quiet_board_moves(pos: &Position, list: &mut crate::movegen::MoveList) {
    list.clear();
    crate::movegen::generate_legal(pos, list);
    list.retain(|m| !m.is_drop() && see(pos, m) >= 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(sfen: &str, m: &str) -> i32 {
        let p = Position::from_sfen(sfen).unwrap();
        let m = p.parse_usi_move(m).unwrap();
        see(&p, m)
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended pawn.
        assert_eq!(see_of("4k4/9/9/9/4p4/9/9/4R4/4K4 b - 1", "5h5e"), 90);
        // Rook takes a pawn defended by a gold: loses the rook for a pawn.
        assert_eq!(
            see_of("4k4/9/9/4g4/4p4/9/9/4R4/4K4 b - 1", "5h5e"),
            90 - 990
        );
        // Pawn takes a defended pawn: an even trade.
        assert_eq!(see_of("4k4/9/9/4g4/4p4/4P4/9/9/4K4 b - 1", "5f5e"), 0);
        // Dropping a piece where a pawn takes it.
        assert_eq!(see_of("4k4/9/9/4p4/9/9/9/9/4K4 b G 1", "G*5e"), -540);
    }
}
