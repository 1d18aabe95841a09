//! Mating lines in the notation tsume books print: `▲2三銀成 △同玉 ▲3二金打`.
//!
//! Files are written as Arabic digits and ranks as kanji, `同` marks a recapture on the last
//! square, `打` marks a drop only where a piece on the board could also have moved there, and a
//! board move that another piece of the same kind could also have made gets its origin in
//! parentheses, `(24)`, which is unambiguous without the 右/左/上/引 words.

use crate::kifu::japanese::{piece_name, RANKS};
use crate::movegen::{generate_legal, MoveList};
use crate::position::Position;
use crate::types::{Color, Move};

/// `n` plies in words: "1 ply", "3 plies".
pub fn ply_count(n: usize) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

/// The Japanese text of `line` played from `pos`, moves separated by spaces.
pub fn japanese_line(pos: &Position, line: &[Move]) -> String {
    let mut p = pos.clone();
    let mut words = Vec::with_capacity(line.len());
    let mut previous_to = None;
    for &m in line {
        words.push(japanese_move(&p, m, previous_to));
        previous_to = Some(m.to());
        p.do_move(m);
    }
    words.join(" ")
}

fn japanese_move(pos: &Position, m: Move, previous_to: Option<crate::types::Square>) -> String {
    let mark = match pos.side_to_move() {
        Color::Black => "▲",
        Color::White => "△",
    };
    let to = m.to();
    let square = if previous_to == Some(to) {
        "同".to_string()
    } else {
        format!("{}{}", to.file() + 1, RANKS[to.rank() as usize])
    };
    let mut legal = MoveList::new();
    generate_legal(pos, &mut legal);
    if m.is_drop() {
        let pt = m.dropped();
        let board_piece_could = legal.iter().any(|o| {
            !o.is_drop()
                && o.to() == to
                && pos.piece_on(o.from()).map(|p| p.piece_type()) == Some(pt)
        });
        let suffix = if board_piece_could { "打" } else { "" };
        return format!("{mark}{square}{}{suffix}", piece_name(pt));
    }
    let from = m.from();
    let Some(piece) = pos.piece_on(from) else {
        return format!("{mark}{square}?");
    };
    let pt = piece.piece_type();
    let promotion = if m.is_promotion() {
        "成"
    } else if pt.can_promote()
        && legal
            .iter()
            .any(|o| !o.is_drop() && o.from() == from && o.to() == to && o.is_promotion())
    {
        "不成"
    } else {
        ""
    };
    let ambiguous = legal.iter().any(|o| {
        !o.is_drop()
            && o.to() == to
            && o.from() != from
            && pos.piece_on(o.from()).map(|p| p.piece_type()) == Some(pt)
    });
    let origin = if ambiguous {
        format!("({}{})", from.file() + 1, from.rank() + 1)
    } else {
        String::new()
    };
    format!("{mark}{square}{}{promotion}{origin}", piece_name(pt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_drops_recaptures_and_promotions() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let mut p = pos.clone();
        let mut line = Vec::new();
        for text in ["5c5b+", "5a5b", "G*5c"] {
            let m = p.parse_usi_move(text).unwrap();
            p.do_move(m);
            line.push(m);
        }
        assert_eq!(japanese_line(&pos, &line), "▲5二歩成 △同玉 ▲5三金");
    }

    #[test]
    fn one_ply_is_singular() {
        assert_eq!(ply_count(0), "0 plies");
        assert_eq!(ply_count(1), "1 ply");
        assert_eq!(ply_count(3), "3 plies");
    }
}
