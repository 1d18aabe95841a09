//! Where each open node of the df-pn search was last searched from: the parent links that let
//! the solver notice double counting.
//!
//! The positions of a tsume problem form a graph, not a tree: two checks often lead, a few moves
//! later, to the same position. A node's disproof number at an OR node (its proof number at an
//! AND node) is the sum over its children, so a subtree that two children share is counted
//! twice, and the search takes that branch point for harder than it is. KomoringHeights handles
//! this by remembering, for every node, the node it was searched from: following those links
//! up from a child shows whether the child's subtree also hangs below another branch of a node
//! on the current path. The solver then counts the two branches there by their larger number
//! instead of their sum (see `Solver::eliminate_double_count`).
//!
//! The links are a hint for the search order only: a lost or overwritten link changes which
//! child is searched first, never a proof or a disproof. So the table is direct-mapped and
//! small, one entry per slot, a newer link replacing an older one.

use crate::types::Hand;

/// A node as the solver's table knows it: the salted board key and the attacker's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct NodeId {
    pub key: u64,
    pub hand: Hand,
}

/// What a node's link says: its parent, the parent's full key (board and both hands, as the
/// current path is kept), and the node's own numbers when it was last left.
#[derive(Clone, Copy, Debug)]
pub(super) struct Link {
    pub parent: NodeId,
    pub parent_full: u64,
    pub pn: u32,
    pub dn: u32,
    /// Which of the node's first 64 children (in the order the solver lists them) were found to
    /// share a subtree, so that the next visit counts them so again at once.
    pub shared: u64,
}

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    parent_key: u64,
    parent_full: u64,
    hand: Hand,
    parent_hand: Hand,
    pn: u32,
    dn: u32,
    shared: u64,
}

/// A slot that matches no node: a real parent's full key is never 0 in practice, and `get`
/// treats 0 as empty.
const EMPTY_SLOT: Slot = Slot {
    key: 0,
    parent_key: 0,
    parent_full: 0,
    hand: Hand::EMPTY,
    parent_hand: Hand::EMPTY,
    pn: 0,
    dn: 0,
    shared: 0,
};

pub(super) struct ParentLinks {
    slots: Vec<Slot>,
    mask: usize,
}

impl ParentLinks {
    /// A table of about `mb` megabytes (at least one slot). It is allocated on the first
    /// store, so a solver that never searches an open node costs nothing.
    pub fn new(mb: usize) -> ParentLinks {
        let len = super::power_of_two_slots(mb, std::mem::size_of::<Slot>());
        ParentLinks {
            slots: Vec::new(),
            mask: len - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(EMPTY_SLOT);
    }

    #[inline(always)]
    fn index(&self, id: NodeId) -> usize {
        // The hand is mixed in: one board with many hands is common in tsume, and each of
        // them is a node of its own.
        let h = (id.hand.raw() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((id.key ^ h) >> 24) as usize & self.mask
    }

    /// Records that `node` was searched from `parent`, and left with `pn` and `dn`.
    pub fn store(&mut self, node: NodeId, parent: NodeId, parent_full: u64, link: (u32, u32, u64)) {
        let (pn, dn, shared) = link;
        if self.slots.is_empty() {
            // If the memory cannot be had, the search simply goes without links.
            if self.slots.try_reserve_exact(self.mask + 1).is_err() {
                return;
            }
            // Huge pages, as for the mate table: every `get` lands in a random place of tens
            // of megabytes.
            let bytes = (self.mask + 1) * std::mem::size_of::<Slot>();
            crate::tt::advise_huge_pages(self.slots.as_ptr() as usize, bytes);
            self.slots.resize(self.mask + 1, EMPTY_SLOT);
        }
        let i = self.index(node);
        self.slots[i] = Slot {
            key: node.key,
            parent_key: parent.key,
            parent_full,
            hand: node.hand,
            parent_hand: parent.hand,
            pn,
            dn,
            shared,
        };
    }

    /// Starts loading the slot of `node`, so that a `get` a little later does not wait for
    /// memory: the table is tens of megabytes, and a profile put a fifth of `Solver::visit`'s
    /// own time on the first read of a node's slot.
    pub fn prefetch(&self, node: NodeId) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = self.slots.get(self.index(node)) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let first = s as *const Slot as *const i8;
            // SAFETY: a prefetch is a hint that reads nothing into the program and cannot
            // fault; both addresses lie inside the one live slot (which may straddle two
            // cache lines).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(first);
                _mm_prefetch::<_MM_HINT_T0>(first.add(std::mem::size_of::<Slot>() - 1));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = node;
    }

    /// The link of `node`, if the table still holds it.
    pub fn get(&self, node: NodeId) -> Option<Link> {
        let s = self.slots.get(self.index(node))?;
        (s.key == node.key && s.hand == node.hand && s.parent_full != 0).then_some(Link {
            parent: NodeId {
                key: s.parent_key,
                hand: s.parent_hand,
            },
            parent_full: s.parent_full,
            pn: s.pn,
            dn: s.dn,
            shared: s.shared,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(key: u64, pawns: u32) -> NodeId {
        let mut hand = Hand::EMPTY;
        hand.set(crate::types::PieceType::Pawn, pawns);
        NodeId { key, hand }
    }

    #[test]
    fn a_link_is_found_for_its_own_node_and_hand_only() {
        let mut links = ParentLinks::new(1);
        assert!(links.get(id(5 << 40, 0)).is_none());
        links.store(id(5 << 40, 0), id(7 << 40, 3), 99, (4, 6, 1 << 9));
        let l = links.get(id(5 << 40, 0)).expect("just stored");
        assert_eq!(l.parent, id(7 << 40, 3));
        assert_eq!((l.parent_full, l.pn, l.dn, l.shared), (99, 4, 6, 1 << 9));
        assert!(links.get(id(5 << 40, 1)).is_none());
        assert!(links.get(id(6 << 40, 0)).is_none());
        links.clear();
        assert!(links.get(id(5 << 40, 0)).is_none());
    }
}
