//! Mate within n plies: a depth-bounded proof-number search, for exact mate distances.
//!
//! `hayate tsume check` needs the exact length of lines (the quickest mate against the longest
//! defence), not only whether a mate exists. An exhaustive minimax gives that but grows with
//! every ply; this search answers "is there a mate within n plies?" best first, as df-pn does,
//! and a few such questions give the exact distance:
//!
//! - a proof within `n` comes with the length of its proof tree (the quickest proven check at
//!   an attacker turn, the longest proven defence at a defender turn), an upper bound `L` on
//!   the distance;
//! - the next question is "within `L - 2`?" (distances at one side's turn all have one parity);
//!   a disproof there makes `L` exact, a proof lowers `L`.
//!
//! The table is keyed by the whole position (board and both hands), without hand superiority:
//! the checker's positions are few and the answers must be exact. What it keeps of a position
//! is monotone in the bound, so it is shared by every question: a proof within `n` holds for
//! every larger bound, a disproof within `n` for every smaller one. Proof and disproof numbers
//! are kept with the bound they were computed for and only guide the search.
//!
//! The rules are those of the checker's exhaustive search: every attacker move is a check; the
//! defender's useless interpositions (無駄合, `muda.rs`) are no defence, so a defender turn whose
//! other replies are all mated is mated; repetitions are not special (the bound ends every
//! line, and a quickest mate never repeats a position).

use std::collections::HashMap;

use super::muda;
use crate::movegen::{generate_checks, generate_legal, MoveList};
use crate::position::Position;
use crate::types::{Color, Move};

/// Proof and disproof numbers at or above this are infinite.
const INF: u32 = 1 << 30;

/// No proof known (as a proof length).
const NO_PROOF: u16 = u16::MAX;

/// What the search needs from its caller: whether a defender's drop is a useless
/// interposition, and a node count that may stop it.
pub trait Oracle {
    /// Whether the defender's reply `r` in `pos` is a useless interposition (asked only of the
    /// drops that `muda::may_be_useless` admits; the answer must not change between calls).
    fn is_useless(&mut self, pos: &mut Position, r: Move) -> bool;
    /// Counts one node; `false` once the budget is spent.
    fn tick(&mut self) -> bool;
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The shortest proof found: a mate within this many plies (`NO_PROOF`: none).
    proof: u16,
    /// No mate within `none_within - 1` plies (0: nothing known).
    none_within: u16,
}

impl Default for Entry {
    fn default() -> Entry {
        Entry {
            proof: NO_PROOF,
            none_within: 0,
        }
    }
}

/// One child of a node, as the node sees it within its bound.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    key: u64,
    pn: u32,
    dn: u32,
    /// A drop that may be a useless interposition (asked when it would refute the check).
    may_be_useless: bool,
}

/// The depth-bounded search and its table.
#[derive(Default)]
pub struct BoundedSearch {
    /// Proofs and disproofs by position, for every bound.
    table: HashMap<u64, Entry>,
    /// Proof and disproof numbers of unsettled positions, by position and bound.
    numbers: HashMap<(u64, u16), (u32, u32)>,
    attacker: Option<Color>,
    aborted: bool,
}

impl BoundedSearch {
    /// A search for the attacker `attacker` (the side to move at the problem's start).
    pub fn new(attacker: Color) -> BoundedSearch {
        BoundedSearch {
            table: HashMap::new(),
            numbers: HashMap::new(),
            attacker: Some(attacker),
            aborted: false,
        }
    }

    /// The exact number of plies to mate from `pos` (either side to move; at the defender's
    /// turn he is in check) if it is at most `bound`: `Some(None)` when there is no mate within
    /// `bound`, `None` when the oracle's budget ran out first.
    pub fn distance(
        &mut self,
        pos: &mut Position,
        bound: u16,
        oracle: &mut impl Oracle,
    ) -> Option<Option<u16>> {
        let key = pos.key();
        loop {
            let e = self.table.get(&key).copied().unwrap_or_default();
            let ask = if e.proof <= bound {
                // Exact once a mate two plies shorter (the same side's turn) is ruled out.
                if e.proof < 2 || e.none_within > e.proof - 2 {
                    return Some(Some(e.proof));
                }
                e.proof - 2
            } else if e.none_within > bound {
                return Some(None);
            } else {
                bound
            };
            self.mates_within(pos, ask, oracle)?;
        }
    }

    /// Whether the attacker mates from `pos` within `bound` plies; `None` when the budget ran
    /// out.
    pub fn mates_within(
        &mut self,
        pos: &mut Position,
        bound: u16,
        oracle: &mut impl Oracle,
    ) -> Option<bool> {
        if self.aborted {
            return None;
        }
        self.search(pos, bound, INF - 1, INF - 1, oracle);
        if self.aborted {
            return None;
        }
        let (pn, dn) = self.numbers(pos.key(), bound);
        debug_assert!(pn == 0 || dn == 0);
        Some(pn == 0)
    }

    /// (pn, dn) of the position `key` within `bound` plies.
    fn numbers(&self, key: u64, bound: u16) -> (u32, u32) {
        if let Some(e) = self.table.get(&key) {
            if e.proof <= bound {
                return (0, INF);
            }
            if e.none_within > bound {
                return (INF, 0);
            }
        }
        self.numbers.get(&(key, bound)).copied().unwrap_or((1, 1))
    }

    fn entry(&mut self, key: u64) -> &mut Entry {
        self.table.entry(key).or_default()
    }

    fn prove(&mut self, key: u64, length: u16) {
        let e = self.entry(key);
        e.proof = e.proof.min(length);
    }

    fn disprove(&mut self, key: u64, bound: u16) {
        let e = self.entry(key);
        e.none_within = e.none_within.max(bound.saturating_add(1));
    }

    /// The proof-number search of `pos` within `bound` plies, until its proof number reaches
    /// `th_pn` or its disproof number `th_dn`; the result is in the table.
    fn search(
        &mut self,
        pos: &mut Position,
        bound: u16,
        th_pn: u32,
        th_dn: u32,
        oracle: &mut impl Oracle,
    ) {
        let key = pos.key();
        let (pn, dn) = self.numbers(key, bound);
        if pn == 0 || dn == 0 {
            return;
        }
        if !oracle.tick() {
            self.aborted = true;
            return;
        }
        let or_node = Some(pos.side_to_move()) == self.attacker;
        let mut moves = MoveList::new();
        if or_node {
            if bound == 0 {
                self.disprove(key, bound);
                return;
            }
            generate_checks(pos, &mut moves);
            if moves.is_empty() {
                // No check: no mate within any bound.
                self.disprove(key, u16::MAX - 1);
                return;
            }
        } else {
            generate_legal(pos, &mut moves);
            let all_useless = moves.iter().all(|&r| muda::may_be_useless(pos, r))
                && moves.iter().all(|&r| oracle.is_useless(pos, r));
            if all_useless {
                // Mate, or only useless interpositions left: mate under the convention.
                self.prove(key, 0);
                return;
            }
            if bound < 2 {
                self.disprove(key, bound);
                return;
            }
        }
        let mut children: Vec<Child> = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            pos.do_move(m);
            children.push(Child {
                mv: m,
                key: pos.key(),
                pn: 1,
                dn: 1,
                may_be_useless: false,
            });
            pos.undo_move(m);
            let c = children.last_mut().unwrap();
            c.may_be_useless = !or_node && muda::may_be_useless(pos, m);
        }
        let child_bound = bound - 1;
        loop {
            // Refresh the children from the table; a refuting drop that is useless is dropped.
            let mut i = 0;
            while i < children.len() {
                let (cpn, cdn) = self.numbers(children[i].key, child_bound);
                children[i].pn = cpn;
                children[i].dn = cdn;
                if !or_node && cdn == 0 && children[i].may_be_useless {
                    if oracle.is_useless(pos, children[i].mv) {
                        children.swap_remove(i);
                        continue;
                    }
                    children[i].may_be_useless = false;
                }
                i += 1;
            }
            if children.is_empty() {
                // Only useless drops were left to refute it (the others are proven).
                self.prove(key, 0);
                return;
            }
            let (pn, dn, best, second) = if or_node {
                combine(&children, |c| (c.pn, c.dn))
            } else {
                let (dn, pn, best, second) = combine(&children, |c| (c.dn, c.pn));
                (pn, dn, best, second)
            };
            if pn == 0 {
                let length = self.proof_length(&children, or_node);
                self.prove(key, length);
                return;
            }
            if dn == 0 {
                self.disprove(key, bound);
                return;
            }
            if pn >= th_pn || dn >= th_dn || self.aborted {
                self.numbers.insert((key, bound), (pn, dn));
                return;
            }
            let c = children[best];
            let (cth_pn, cth_dn) = if or_node {
                (
                    th_pn.min(second.saturating_add(1)),
                    (th_dn - dn).saturating_add(c.dn).min(INF - 1),
                )
            } else {
                (
                    (th_pn - pn).saturating_add(c.pn).min(INF - 1),
                    th_dn.min(second.saturating_add(1)),
                )
            };
            pos.do_move(c.mv);
            self.search(pos, child_bound, cth_pn, cth_dn, oracle);
            pos.undo_move(c.mv);
            if self.aborted {
                return;
            }
        }
    }

    /// The length of a proven node's proof tree: one more than its quickest proven check, or
    /// than its longest defence.
    fn proof_length(&self, children: &[Child], or_node: bool) -> u16 {
        let lengths = children
            .iter()
            .filter(|c| c.pn == 0)
            .map(|c| self.table.get(&c.key).map_or(NO_PROOF, |e| e.proof));
        let sub = if or_node {
            lengths.min()
        } else {
            lengths.max()
        };
        sub.unwrap_or(0).saturating_add(1)
    }
}

/// The OR combination of `children` by `(own, other)` numbers: the smallest `own`, the sum of
/// `other`, the index of the child with the smallest `own` and the second smallest `own`.
fn combine(children: &[Child], numbers: impl Fn(&Child) -> (u32, u32)) -> (u32, u32, usize, u32) {
    let mut best = 0;
    let mut min = INF;
    let mut second = INF;
    let mut sum: u32 = 0;
    for (i, c) in children.iter().enumerate() {
        let (own, other) = numbers(c);
        sum = sum.saturating_add(other).min(INF);
        if own < min {
            second = min;
            min = own;
            best = i;
        } else if own < second {
            second = own;
        }
    }
    (min, sum, best, second)
}
