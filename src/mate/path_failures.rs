//! Failures that rest on the path: the df-pn solver's disproofs that hold only for the path
//! they were found on, remembered for the next visit along that very path.
//!
//! A check that leads back to a position on the current path is a failure for the attacker
//! (see `dfpn.rs`), and a disproof that rests on such a failure holds for that path only, so
//! the solver's table never stores it. But df-pn goes down the same path again and again, each
//! time with larger thresholds, and each time it searched down to the same repetitions to
//! disprove the same nodes. Keyed by the whole path (every position from the root to the node,
//! in order), such a failure is true whenever it is read back: the same path forbids the same
//! positions, at the same plies from the root.
//!
//! Where disproofs are most of the work it saves nodes: the solver's 不詰 (muso037 in about half
//! of them, muso040 in three fifths), the checker's alternatives. Where a first proof is wanted it
//! did not pay: a failure read back on its path ends a search that might have found one that
//! holds for every path, and would have been stored (benches/TSUME.md). So the solver uses it
//! only when asked ([`Solver::remember_path_failures`](super::Solver::remember_path_failures)):
//! the checker, after its first solve.
//!
//! The table is direct-mapped, a newer failure replacing an older one, and every slot carries
//! the generation of the search it was found in: a new search (another root, another depth
//! limit, other positions to avoid) starts a new generation, and the old slots count as empty.

use crate::types::Hand;

/// What a remembered failure says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PathFailure {
    /// The disproof hand: no mate along this path for an attacker's hand that holds no more.
    pub hand: Hand,
    /// It rests on the depth limit too.
    pub depth_cut: bool,
}

/// Sixteen bytes, so that a slot never straddles two cache lines.
#[derive(Clone, Copy)]
struct Slot {
    path: u64,
    /// The generation, times two, plus one if the failure rests on the depth limit.
    generation_and_cut: u32,
    hand: Hand,
}

const EMPTY: Slot = Slot {
    path: 0,
    generation_and_cut: 0,
    hand: Hand::EMPTY,
};

/// The most generations before they wrap round (they are kept in 31 bits).
const GENERATIONS: u32 = 1 << 31;

pub(super) struct PathFailures {
    slots: Vec<Slot>,
    mask: usize,
    /// The search now running; 0 is never one, so a fresh slot matches none.
    generation: u32,
}

/// The path key of the root (any odd constant: the key of an empty path).
pub(super) const ROOT_PATH: u64 = 0x243f_6a88_85a3_08d3;

/// The key of the path that goes on from `path` to the position `full` (its full key): the
/// order of the positions counts, so two paths through the same positions in another order
/// differ.
#[inline(always)]
pub(super) fn extend(path: u64, full: u64) -> u64 {
    (path.rotate_left(23) ^ full).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (path >> 31)
}

impl PathFailures {
    /// A table of about `mb` megabytes (at least two slots), allocated on the first store.
    pub fn new(mb: usize) -> PathFailures {
        let len = super::power_of_two_slots(mb, std::mem::size_of::<Slot>());
        PathFailures {
            slots: Vec::new(),
            mask: len - 1,
            generation: 1,
        }
    }

    /// Starts a new search: what was remembered before no longer counts.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
        if self.generation == 0 {
            self.generation = 1;
            // Wrapped round: old slots could match again.
            self.slots.fill(EMPTY);
        }
    }

    fn index(&self, path: u64) -> usize {
        (path >> 20) as usize & self.mask
    }

    /// Remembers that the node at the end of `path` fails on it.
    pub fn store(&mut self, path: u64, failure: PathFailure) {
        if self.slots.is_empty() {
            // Without the memory the search goes on as it did without the table.
            if self.slots.try_reserve_exact(self.mask + 1).is_err() {
                return;
            }
            self.slots.resize(self.mask + 1, EMPTY);
        }
        let i = self.index(path);
        self.slots[i] = Slot {
            path,
            generation_and_cut: self.generation << 1 | failure.depth_cut as u32,
            hand: failure.hand,
        };
    }

    /// Starts loading the slot of `path`, for a `get` a little later: the table is megabytes,
    /// and every open child of a node expanded is looked up.
    pub fn prefetch(&self, path: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = self.slots.get(self.index(path)) {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch is a hint that reads nothing into the program and cannot
            // fault; the address is that of a live slot.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(s as *const Slot as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = path;
    }

    /// The failure remembered for the node at the end of `path` in this search, if any.
    pub fn get(&self, path: u64) -> Option<PathFailure> {
        let s = self.slots.get(self.index(path))?;
        (s.path == path && s.generation_and_cut >> 1 == self.generation).then_some(PathFailure {
            hand: s.hand,
            depth_cut: s.generation_and_cut & 1 != 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_read_back_on_its_own_path_in_its_own_search_only() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        let mut t = PathFailures::new(1);
        let a = extend(extend(ROOT_PATH, 11), 22);
        let b = extend(extend(ROOT_PATH, 22), 11);
        assert_ne!(a, b, "the order of the positions counts");
        let f = PathFailure {
            hand: Hand::EMPTY,
            depth_cut: true,
        };
        assert_eq!(t.get(a), None);
        t.store(a, f);
        assert_eq!(t.get(a), Some(f));
        assert_eq!(t.get(b), None);
        t.new_search();
        assert_eq!(t.get(a), None, "a new search forgets it");
    }
}
