//! The opening book at the root: consulted before a search, reported like one.

use super::Engine;
use crate::book::BookHit;
use crate::position::EnteringKingRule;
use crate::search::timeman::Limits;

impl Engine {
    /// Opens the book the options name (at `isready`, or at `go` after a change), reporting a
    /// missing or damaged file; the engine then plays without it.
    pub(super) fn prepare_book(&mut self) {
        if let Some(msg) = self.book.prepare(&self.options.book) {
            self.say(&format!("info string {msg}"));
        }
    }

    /// The book's move for this `go`, if the book is to be used and knows the position.
    pub(super) fn book_move(&mut self, limits: &Limits) -> Option<BookHit> {
        // Analysis (infinite, several lines, restricted moves) wants the search's view.
        if limits.infinite || self.options.search.multipv > 1 || !limits.searchmoves.is_empty() {
            return None;
        }
        // An entering-king declaration at the root comes before the book.
        let rule = self.options.search.entering_king_rule;
        if rule != EnteringKingRule::Try && self.pos.can_declare_win(rule) {
            return None;
        }
        self.prepare_book();
        match self.book.probe(&self.pos, &self.options.book) {
            Ok(hit) => hit,
            Err(e) => {
                self.say(&format!("info string book: {e}; playing without it"));
                None
            }
        }
    }
}

/// The `info` lines of a book move: a note on the choice, then score and line as a search
/// would give them.
pub fn book_info(hit: &BookHit) -> [String; 2] {
    let m = &hit.chosen;
    let opt = |v: Option<i32>| v.map_or("none".to_string(), |v| v.to_string());
    let pv: Vec<String> = hit.pv.iter().map(|m| m.to_string()).collect();
    [
        format!(
            "info string book move {} of {} (value {}, depth {}, count {})",
            m.mv,
            hit.candidates,
            opt(m.value),
            opt(m.depth),
            m.count
        ),
        format!(
            "info depth {} seldepth {} score cp {} multipv 1 nodes 0 nps 0 time 0 pv {}",
            m.depth.unwrap_or(0).max(1),
            hit.pv.len(),
            m.value.unwrap_or(0),
            pv.join(" ")
        ),
    ]
}
