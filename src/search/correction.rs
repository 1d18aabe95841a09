//! Correction history: how far the static evaluation has been from the search's verdict in
//! positions like this one, added back to the next static evaluation.
//!
//! A static evaluation errs the same way in similar positions: it may underrate a pawn structure
//! or a particular mix of pieces in hand for the whole of a game. After each search
//! of a node the difference between its result and the static evaluation moves a running average
//! kept per pawn structure and per pair of hands; the pruning decisions that lean on the static
//! evaluation (futility, null move, improving) then read the corrected value.

use crate::position::Position;
use crate::types::{Color, PieceType};

use super::Value;

/// Entries per side to move in each table (a power of two).
const SIZE: usize = 1 << 14;
/// Entries are kept in 1/GRAIN centipawns, so that small updates are not rounded away.
const GRAIN: i32 = 256;
/// The largest correction an entry holds, in centipawns.
const LIMIT: i32 = 150 * GRAIN;

pub struct Correction {
    pawns: Vec<i32>,
    hands: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            pawns: vec![0; 2 * SIZE],
            hands: vec![0; 2 * SIZE],
        }
    }
}

/// Folds 128 bits into a table index.
fn slot(a: u64, b: u64, us: Color) -> usize {
    let h = (a ^ b.rotate_left(29).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_mul(0xff51_afd7_ed55_8ccd);
    us.index() * SIZE + (h >> 50) as usize
}

fn slots(pos: &Position) -> (usize, usize) {
    let us = pos.side_to_move();
    let black = pos.pieces(Color::Black, PieceType::Pawn).0;
    let white = pos.pieces(Color::White, PieceType::Pawn).0;
    // The pawns of both sides fit in 162 bits: mix the high parts into the low ones.
    let a = black as u64 ^ ((black >> 64) as u64).rotate_left(32);
    let b = white as u64 ^ ((white >> 64) as u64).rotate_left(32);
    let hands = pos.hand(Color::Black).raw() as u64 | (pos.hand(Color::White).raw() as u64) << 32;
    // Any fixed second word will do for the hands: they fit in the first.
    (slot(a, b, us), slot(hands, 0x5555, us))
}

impl Correction {
    /// The correction for `pos`, in centipawns from the side to move's point of view.
    pub fn get(&self, pos: &Position) -> Value {
        let (p, h) = slots(pos);
        (self.pawns[p] + self.hands[h]) / (2 * GRAIN)
    }

    /// Moves the entries of `pos` towards `diff` (the search result minus the uncorrected
    /// static evaluation), the more the deeper the search was.
    pub fn update(&mut self, pos: &Position, diff: Value, depth: i32) {
        let (p, h) = slots(pos);
        let weight = (depth + 1).min(16);
        let target = diff.clamp(-LIMIT / GRAIN, LIMIT / GRAIN) * GRAIN;
        for e in [&mut self.pawns[p], &mut self.hands[h]] {
            *e = ((*e * (256 - weight) + target * weight) / 256).clamp(-LIMIT, LIMIT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_errors_are_learned_and_bounded() {
        let pos = Position::startpos();
        let mut c = Correction::default();
        assert_eq!(c.get(&pos), 0);
        for _ in 0..200 {
            c.update(&pos, 80, 10);
        }
        assert!((70..=80).contains(&c.get(&pos)), "{}", c.get(&pos));
        for _ in 0..400 {
            c.update(&pos, -10_000, 20);
        }
        assert!((-150..=-140).contains(&c.get(&pos)), "{}", c.get(&pos));
    }
}
