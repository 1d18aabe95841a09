//! Move ordering: every legal move is scored once, then taken best first.
//!
//! Order: the transposition-table move; captures and promotions that do not lose material (by
//! SEE, then most valuable victim, least valuable attacker); the two killer moves; the counter
//! move; quiet moves by history; losing captures last.

use crate::movegen::{generate_captures_promotions, generate_legal, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::Move;

use super::see::{see, see_value as piece_value};

const TT_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = (1 << 27) - 1;
const BAD_CAPTURE: i32 = -(1 << 28);

pub struct MovePicker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

/// What the picker needs from the search to score quiet moves.
pub struct Ordering<'a> {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    pub history: &'a dyn Fn(Move) -> i32,
}

impl MovePicker {
    /// All legal moves, for the main search.
    pub fn new(pos: &Position, ord: &Ordering) -> MovePicker {
        let mut p = MovePicker {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        };
        generate_legal(pos, &mut p.moves);
        for i in 0..p.moves.len() {
            let m = p.moves[i];
            p.scores[i] = if Some(m) == ord.tt_move {
                TT_SCORE
            } else if is_tactical(pos, m) {
                capture_score(pos, m)
            } else if Some(m) == ord.killers[0] {
                KILLER
            } else if Some(m) == ord.killers[1] {
                KILLER - 1
            } else if Some(m) == ord.counter {
                COUNTER
            } else {
                (ord.history)(m)
            };
        }
        p
    }

    /// Captures and promotions only, for quiescence (or all legal moves when in check).
    pub fn new_quiescence(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        let mut p = MovePicker {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        };
        if pos.in_check() {
            generate_legal(pos, &mut p.moves);
        } else {
            generate_captures_promotions(pos, &mut p.moves);
        }
        for i in 0..p.moves.len() {
            let m = p.moves[i];
            p.scores[i] = if Some(m) == tt_move {
                TT_SCORE
            } else if is_tactical(pos, m) {
                mvv_lva(pos, m)
            } else {
                0
            };
        }
        p
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move and its ordering score.
    pub fn next(&mut self) -> Option<(Move, i32)> {
        if self.next >= self.moves.len() {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        let n = self.next;
        let m = self.moves[best];
        let s = self.scores[best];
        self.scores.swap(n, best);
        // MoveList has no swap: rebuild the order through a small copy.
        self.swap_moves(n, best);
        self.next += 1;
        Some((m, s))
    }

    fn swap_moves(&mut self, a: usize, b: usize) {
        if a != b {
            let ma = self.moves[a];
            let mb = self.moves[b];
            self.moves.set(a, mb);
            self.moves.set(b, ma);
        }
    }
}

/// A capture or a promotion.
pub fn is_tactical(pos: &Position, m: Move) -> bool {
    m.is_promotion() || (!m.is_drop() && pos.piece_on(m.to()).is_some())
}

fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos
        .piece_on(m.to())
        .map_or(0, |p| piece_value(p.piece_type()));
    let attacker = pos
        .piece_on(m.from())
        .map_or(0, |p| piece_value(p.piece_type()));
    let promo = if m.is_promotion() { 300 } else { 0 };
    victim * 8 - attacker / 8 + promo
}

fn capture_score(pos: &Position, m: Move) -> i32 {
    let s = mvv_lva(pos, m);
    if see(pos, m) >= 0 {
        GOOD_CAPTURE + s
    } else {
        BAD_CAPTURE + s
    }
}
