//! What the search learns about quiet moves, kept from one `go` to the next (cleared by
//! `usinewgame`): the butterfly history (by side, origin or dropped kind, and destination),
//! continuation history (how good a move has been after a given move one and two plies
//! earlier), counter-moves, capture history (how good a capture of a given kind by a given
//! piece on a given square has been) and the correction history of the static evaluation.

use std::sync::Mutex;

use super::correction::Correction;
use crate::position::Position;
use crate::types::{Move, Piece, PieceType};

/// Butterfly slots per colour: 81 origin squares and 7 drop kinds.
const FROM_CODES: usize = 88;
/// A move as continuation history sees it once made: the piece that moved (after promotion,
/// with its colour) and its destination.
const CONT_KEYS: usize = Piece::NUM * 81;
/// The follow-up side of a continuation entry: the moving kind and its destination.
const CONT_MOVES: usize = 16 * 81;
/// Histories saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16384;

/// The continuation key of a move, or of no move (the root's parents, a null move); the
/// latter's row is never rewarded, so it always reads zero.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ContKey(usize);

impl ContKey {
    pub const NONE: ContKey = ContKey(CONT_KEYS);

    /// The key of `m`, just made in `pos`.
    pub fn after(pos: &Position, m: Move) -> ContKey {
        pos.piece_on(m.to())
            .map_or(ContKey::NONE, |p| ContKey(p.index() * 81 + m.to().index()))
    }
}

/// One search thread's histories.
pub struct History {
    /// How far the static evaluation has been off (see `correction.rs`).
    pub correction: Correction,
    butterfly: Vec<[i32; 81]>,
    cont: Vec<i16>,
    counter: Vec<[Option<Move>; 81]>,
    capture: Vec<i16>,
}

/// The histories of every search thread, grown to the thread count on demand.
pub type Histories = Mutex<Vec<History>>;

impl Default for History {
    fn default() -> History {
        History {
            correction: Correction::default(),
            butterfly: vec![[0; 81]; 2 * FROM_CODES],
            cont: vec![0; (CONT_KEYS + 1) * CONT_MOVES],
            counter: vec![[None; 81]; Piece::NUM],
            capture: vec![0; Piece::NUM * 81 * PieceType::NUM],
        }
    }
}

fn butterfly_slot(pos: &Position, m: Move) -> usize {
    let code = if m.is_drop() {
        81 + m.dropped().index() - 1
    } else {
        m.from().index()
    };
    pos.side_to_move().index() * FROM_CODES + code
}

/// The follow-up index of a quiet move in the position before it is made.
fn cont_move(pos: &Position, m: Move) -> usize {
    let pt = if m.is_drop() {
        m.dropped()
    } else {
        pos.piece_on(m.from())
            .map_or(PieceType::King, |p| p.piece_type())
    };
    pt.index() * 81 + m.to().index()
}

/// The capture-history index of a capture or promotion in the position before it is made:
/// the moving piece, the destination and the kind taken (0 for none).
fn capture_slot(pos: &Position, m: Move) -> usize {
    let mover = pos.piece_on(m.from()).map_or(0, |p| p.index());
    let taken = pos.piece_on(m.to()).map_or(0, |p| p.piece_type().index());
    (mover * 81 + m.to().index()) * PieceType::NUM + taken
}

fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

impl History {
    /// The ordering score of a quiet move: butterfly plus both continuations.
    pub fn quiet_score(&self, pos: &Position, m: Move, parents: [ContKey; 2]) -> i32 {
        let cm = cont_move(pos, m);
        self.butterfly[butterfly_slot(pos, m)][m.to().index()]
            + parents
                .iter()
                .map(|p| self.cont[p.0 * CONT_MOVES + cm] as i32)
                .sum::<i32>()
    }

    /// Moves every history of `m` towards `bonus` (negative for a move that failed).
    pub fn update(&mut self, pos: &Position, m: Move, parents: [ContKey; 2], bonus: i32) {
        let h = &mut self.butterfly[butterfly_slot(pos, m)][m.to().index()];
        *h = gravity(*h, bonus);
        let cm = cont_move(pos, m);
        for p in parents {
            if p != ContKey::NONE {
                let h = &mut self.cont[p.0 * CONT_MOVES + cm];
                *h = gravity(*h as i32, bonus) as i16;
            }
        }
    }

    /// The capture history of a capture or promotion (not a drop).
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        self.capture[capture_slot(pos, m)] as i32
    }

    /// Moves the capture history of `m` towards `bonus`.
    pub fn update_capture(&mut self, pos: &Position, m: Move, bonus: i32) {
        let h = &mut self.capture[capture_slot(pos, m)];
        *h = gravity(*h as i32, bonus) as i16;
    }

    /// The quiet move that last refuted the opponent's last move.
    pub fn counter_move(&self, pos: &Position) -> Option<Move> {
        let (p, s) = counter_slot(pos)?;
        self.counter[p][s]
    }

    pub fn set_counter_move(&mut self, pos: &Position, m: Move) {
        if let Some((p, s)) = counter_slot(pos) {
            self.counter[p][s] = Some(m);
        }
    }
}

fn counter_slot(pos: &Position) -> Option<(usize, usize)> {
    let last = pos.last_move()?;
    let piece = pos.piece_on(last.to())?;
    Some((piece.index(), last.to().index()))
}
