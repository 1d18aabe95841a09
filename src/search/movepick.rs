//! Move ordering: every legal move is scored once, then taken best first.
//!
//! Order: the transposition-table move; captures and promotions that do not lose material (by
//! SEE, then most valuable victim, least valuable attacker); the two killer moves; the counter
//! move; quiet moves by history; losing captures last.

use std::mem::MaybeUninit;

use crate::movegen::{generate_captures_promotions, generate_legal, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::Move;

use super::see::{see, see_value as piece_value};

const TT_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = (1 << 27) - 1;
const BAD_CAPTURE: i32 = -(1 << 28);

/// Picks made by selection before the rest is sorted once: most cut-offs come from the first
/// few moves, and sorting a list that a cut-off abandons would be wasted work.
const SELECTION_PICKS: usize = 3;

#[derive(Clone, Copy)]
struct ScoredMove {
    score: i32,
    mv: Move,
}

pub struct MovePicker {
    /// Entries below `len` are written; the rest is never read (a kilobyte-sized zeroing on
    /// every node would cost more than the scoring).
    entries: [MaybeUninit<ScoredMove>; MAX_MOVES],
    len: usize,
    next: usize,
}

/// What the picker needs from the search to score quiet moves.
pub struct Ordering<'a> {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    pub history: &'a dyn Fn(Move) -> i32,
    /// Added to the score of captures and promotions (within their good or bad class).
    pub capture_history: &'a dyn Fn(Move) -> i32,
}

impl MovePicker {
    /// An empty picker, to be filled in place by [`MovePicker::fill_main`] or
    /// [`MovePicker::fill_quiescence`]. The picker is 8 KB: building it in a constructor and
    /// returning it by value made the compiler copy it at every node (a sixth of the search's
    /// time in a profile), so it is filled where it lives.
    #[inline(always)]
    pub fn empty() -> MovePicker {
        // Not a struct literal: LLVM would merge the two counters' stores with the
        // uninitialised array into one 8 KB memset (see `MoveList::new`).
        let mut picker = MaybeUninit::<MovePicker>::uninit();
        let p = picker.as_mut_ptr();
        // SAFETY: both counters are written before `assume_init`; `entries` is an array of
        // `MaybeUninit`, which may stay uninitialised.
        unsafe {
            std::ptr::addr_of_mut!((*p).len).write(0);
            std::ptr::addr_of_mut!((*p).next).write(0);
            picker.assume_init()
        }
    }

    /// All legal moves, for the main search.
    pub fn fill_main(&mut self, pos: &Position, ord: &Ordering) {
        let mut moves = MoveList::new();
        generate_legal(pos, &mut moves);
        self.fill(&moves, |m| {
            if Some(m) == ord.tt_move {
                TT_SCORE
            } else if is_tactical(pos, m) {
                capture_score(pos, m) + (ord.capture_history)(m)
            } else if Some(m) == ord.killers[0] {
                KILLER
            } else if Some(m) == ord.killers[1] {
                KILLER - 1
            } else if Some(m) == ord.counter {
                COUNTER
            } else {
                (ord.history)(m)
            }
        });
    }

    fn fill(&mut self, moves: &MoveList, score: impl Fn(Move) -> i32) {
        self.len = moves.len();
        self.next = 0;
        for (entry, &mv) in self.entries.iter_mut().zip(moves.iter()) {
            entry.write(ScoredMove {
                score: score(mv),
                mv,
            });
        }
    }

    /// The written entries.
    fn entries(&mut self) -> &mut [ScoredMove] {
        // SAFETY: `fill` wrote the first `len` entries, and `ScoredMove` is `Copy` (nothing
        // to drop); `MaybeUninit<T>` has the layout of `T`.
        unsafe {
            std::slice::from_raw_parts_mut(self.entries.as_mut_ptr().cast::<ScoredMove>(), self.len)
        }
    }

    /// Captures and promotions only, for quiescence (or all legal moves when in check).
    pub fn fill_quiescence(&mut self, pos: &Position, tt_move: Option<Move>) {
        let mut moves = MoveList::new();
        if pos.in_check() {
            generate_legal(pos, &mut moves);
        } else {
            generate_captures_promotions(pos, &mut moves);
        }
        self.fill(&moves, |m| {
            if Some(m) == tt_move {
                TT_SCORE
            } else if is_tactical(pos, m) {
                mvv_lva(pos, m)
            } else {
                0
            }
        });
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The best remaining move and its ordering score.
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.next;
        if n >= self.len {
            return None;
        }
        let entries = self.entries();
        if n < SELECTION_PICKS {
            let mut best = n;
            for i in n + 1..entries.len() {
                if entries[i].score > entries[best].score {
                    best = i;
                }
            }
            entries.swap(n, best);
        } else if n == SELECTION_PICKS {
            // Unstable sorting does not allocate; it is still deterministic.
            entries[n..].sort_unstable_by_key(|e| std::cmp::Reverse(e.score));
        }
        let e = entries[n];
        self.next += 1;
        Some((e.mv, e.score))
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
