//! Sennichite (fourfold repetition) and perpetual check, as the search and a match runner need
//! them.

use super::Position;

/// What a repetition of an earlier position means for the side to move, by the search
/// convention: one repetition in the tree already counts as the final result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// No earlier occurrence within reach.
    None,
    /// Same position, no perpetual check: a draw.
    Draw,
    /// The opponent checked with every move of the cycle: the side to move wins.
    Win,
    /// The side to move checked with every move of the cycle: it loses.
    Loss,
    /// Same board, and the side to move holds at least as much in hand as before (and more):
    /// a gain.
    Superior,
    /// Same board with less in hand for the side to move: a loss of material.
    Inferior,
}

/// The result of the exact fourfold rule, for a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sennichite {
    Draw,
    /// The side to move wins: the opponent gave perpetual check.
    WinForSideToMove,
    /// The side to move loses: it gave perpetual check.
    LossForSideToMove,
}

impl Position {
    /// Looks back for an earlier occurrence of this board with the same side to move, at most
    /// `max_plies` back (and never past a null move), by the search convention.
    pub fn repetition(&self, max_plies: usize) -> Repetition {
        let limit = max_plies
            .min(self.st.plies_from_null as usize)
            .min(self.history.len());
        let us = self.side.index();
        let them = 1 - us;
        let mut i = 4;
        while i <= limit {
            let old = &self.history[self.history.len() - i];
            if old.board_key == self.st.board_key {
                if old.hand_key == self.st.hand_key {
                    // Each side made i / 2 moves in the cycle.
                    let moves = (i / 2) as u16;
                    if self.st.continuous_checks[them] >= moves {
                        return Repetition::Win;
                    }
                    if self.st.continuous_checks[us] >= moves {
                        return Repetition::Loss;
                    }
                    return Repetition::Draw;
                }
                let now = self.hands[us];
                let before = old.hands[us];
                if now.dominates(before) {
                    return Repetition::Superior;
                }
                if before.dominates(now) {
                    return Repetition::Inferior;
                }
            }
            i += 2;
        }
        Repetition::None
    }

    /// How many times the current position (board, hands, side to move) has occurred in the
    /// whole history, this time included.
    pub fn occurrences(&self) -> usize {
        let key = self.key();
        1 + self
            .history
            .iter()
            .filter(|s| s.board_key ^ s.hand_key == key)
            .count()
    }

    /// The exact rule for game ends: on the fourth occurrence of a position the game is over; if
    /// one side gave check with every move since the first occurrence, it loses.
    pub fn sennichite(&self) -> Option<Sennichite> {
        let key = self.key();
        let mut seen = 1;
        let mut first = 0;
        let n = self.history.len();
        let mut i = 2;
        while i <= n {
            let s = &self.history[n - i];
            if s.board_key ^ s.hand_key == key {
                seen += 1;
                first = i;
            }
            i += 2;
        }
        if seen < 4 {
            return None;
        }
        let moves = (first / 2) as u16;
        let us = self.side.index();
        Some(if self.st.continuous_checks[1 - us] >= moves {
            Sennichite::WinForSideToMove
        } else if self.st.continuous_checks[us] >= moves {
            Sennichite::LossForSideToMove
        } else {
            Sennichite::Draw
        })
    }
}
