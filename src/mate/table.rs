//! The df-pn solver's transposition table, keyed by the board and looked up with hand
//! superiority.
//!
//! Within one mate search every piece is either on the board or in a hand, so the board and the
//! attacker's hand determine the defender's hand too. An entry therefore stores the board key
//! (which includes the side to move) and the attacker's hand, and several entries for one board
//! with different hands live side by side in a cluster. A proof found with hand `P` proves the
//! board for every attacker hand holding at least `P` (the defender then holds less); a disproof
//! with hand `D` disproves it for every hand holding at most `D`. Stored proofs and disproofs
//! carry the smallest and largest such hands the solver could justify (proof and disproof
//! pieces), so one result covers many transpositions.

use crate::types::Hand;

/// Proof and disproof numbers at or above this are infinite.
pub const INF: u32 = 1 << 30;

/// Entries per cluster: 8 entries of 16 bytes, two cache lines.
const CLUSTER: usize = 8;

/// One position: 16 bytes, so a cluster holds twice the entries of one with plain fields.
///
/// ```text
///  bit: 127 ......... 84 | 83 ... 63 | 62 .. 58 | 57 .... 46 | 45 ..... 23 | 22 ...... 0
///       key check (44)   | hand (21) | work (5) | depth (12) |   pn (23)   |   dn (23)
/// ```
/// - key check: the key bits the cluster index does not use (bits 0-19 and 40-63; the index
///   takes bits 20 and up). A table of 2^20 clusters or more (128 MB) indexes bits 20-39, so
///   index and check together compare all 64 bits and two boards share an entry only when
///   their whole keys collide, as with a plain 64-bit key. A smaller table compares fewer
///   (56 bits at 1 MB): still a chance of about 10^-16 per probe that a wrong entry matches.
///   A false match would be a wrong proof or disproof, so the bits are not cut down to 32.
/// - hand: the attacker's hand, packed without guard bits ([`Hand::packed`]).
/// - work: the bit length of the nodes spent below the entry (1 for 1 node, 2 for 2-3, ...),
///   which the replacement compares.
/// - depth: the smallest ply the entry was stored at, at most 4095. Its open numbers bound
///   those of the same board with other hands only when they were found no deeper than where
///   they are used (see [`MateTable::probe_at`]). Plies count from the root of the solve that
///   stored the entry; a table kept from one solve to the next (`go mate`, the game search's
///   mate probes) mixes roots, which can misorder a search but not change a verdict: the bounds
///   only steer the order.
/// - pn, dn: an open entry's numbers, both at least 1, cut to 2^23 - 1 (the numbers of a node
///   grow with the nodes searched below it; one past the cut reads back at it, which can only
///   make it look easier than it is, never resolved; ミクロコスモス, 22M nodes, is proven as
///   before). A proven entry has pn 0 and keeps the plies to mate plus one in dn; a disproven
///   one has dn 0 and pn 1. An empty slot is all zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry(u128);

/// 128 bytes, aligned so that a cluster never straddles more than its two cache lines.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(128))]
struct Cluster([Entry; CLUSTER]);

const CHECK_SHIFT: u32 = 84;
const HAND_SHIFT: u32 = 63;
const WORK_SHIFT: u32 = 58;
const DEPTH_SHIFT: u32 = 46;
const DEPTH_MAX: u32 = (1 << 12) - 1;
const PN_SHIFT: u32 = 23;
const NUMBER_MASK: u128 = (1 << 23) - 1;
/// The largest pn or dn an open entry keeps.
const NUMBER_MAX: u32 = (1 << 23) - 1;
/// The largest bound an entry for another hand gives ([`MateTable::probe_at`]). Bounds can
/// still feed each other round a loop that neither guard sees, through entries off the path;
/// uncapped, they then ratchet without end (muso089, which has no mate, ran 5M nodes without
/// its disproof at `--hash 32` as the table was sized then, against 956k before the bounds; the
/// later search no longer meets that loop, and `bounds_from_other_hands_are_capped` holds the
/// rule). Capped, such a loop stops growing. At 1024 the 400k-node batch solves as many as
/// uncapped (183 of 207); at 64, 178.
const BOUND_CAP: u32 = 1024;

/// The bits of `key` an entry keeps: those the cluster index does not take (see [`Entry`]).
#[inline(always)]
fn key_check(key: u64) -> u64 {
    (key >> 40) << 20 | (key & 0xf_ffff)
}

impl Entry {
    fn new(
        check: u64,
        hand: Hand,
        pn: u32,
        dn: u32,
        len: u16,
        work_class: u32,
        depth: u32,
    ) -> Entry {
        let (pn_field, dn_field) = if pn == 0 {
            (0, len as u32 + 1)
        } else if dn == 0 {
            (1, 0)
        } else {
            (pn.min(NUMBER_MAX), dn.min(NUMBER_MAX))
        };
        Entry(
            (check as u128) << CHECK_SHIFT
                | (hand.packed() as u128) << HAND_SHIFT
                | (work_class as u128) << WORK_SHIFT
                | (depth.min(DEPTH_MAX) as u128) << DEPTH_SHIFT
                | (pn_field as u128) << PN_SHIFT
                | dn_field as u128,
        )
    }

    #[inline(always)]
    fn check(self) -> u64 {
        (self.0 >> CHECK_SHIFT) as u64
    }

    #[inline(always)]
    fn hand(self) -> Hand {
        Hand::from_packed((self.0 >> HAND_SHIFT) as u32 & ((1 << Hand::PACKED_BITS) - 1))
    }

    #[inline(always)]
    fn work_class(self) -> u32 {
        (self.0 >> WORK_SHIFT) as u32 & 0x1f
    }

    #[inline(always)]
    fn depth(self) -> u32 {
        (self.0 >> DEPTH_SHIFT) as u32 & DEPTH_MAX
    }

    #[inline(always)]
    fn pn_field(self) -> u32 {
        (self.0 >> PN_SHIFT & NUMBER_MASK) as u32
    }

    #[inline(always)]
    fn dn_field(self) -> u32 {
        (self.0 & NUMBER_MASK) as u32
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0 & (NUMBER_MASK << PN_SHIFT | NUMBER_MASK) == 0
    }

    /// An open entry of no work: a node counted, not searched ([`MateTable::store_count`]).
    #[inline(always)]
    fn is_count(self) -> bool {
        self.work_class() == 0 && !self.is_empty() && !self.is_proven() && !self.is_disproven()
    }

    #[inline(always)]
    fn is_proven(self) -> bool {
        self.pn_field() == 0
    }

    #[inline(always)]
    fn is_disproven(self) -> bool {
        self.dn_field() == 0
    }

    /// Plies to mate of a proven entry.
    #[inline(always)]
    fn mate_len(self) -> u16 {
        (self.dn_field() - 1) as u16
    }
}

/// The replacement's measure of work: its bit length, at most 31.
fn work_class(work: u64) -> u32 {
    (u64::BITS - work.leading_zeros()).min(31)
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    pub pn: u32,
    pub dn: u32,
    /// Plies to mate when proven.
    pub len: u16,
    /// The proof hand when proven, the disproof hand when disproven, else the probed hand.
    pub hand: Hand,
}

impl Probe {
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }

    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

pub struct MateTable {
    /// The clusters, `clusters[0..=mask]`.
    clusters: ZeroedClusters,
    /// Number of clusters minus one (a power of two minus one).
    mask: usize,
    used: usize,
}

/// The table's clusters, in memory that the allocator hands out already zeroed (an empty
/// cluster is all zeros): a large zeroed allocation is fresh memory from the kernel, whose
/// pages it fills with zeros only when the search first touches them. Writing every cluster up
/// front, as a `Vec` of clusters would, had the kernel find and zero every page before the
/// first node: `hayate mate` on a mate in three took 0.05-0.68 s with the default 256 MB and
/// 0.58-9.9 s with `--hash 4096` (as the kernel found its huge pages), and the first `go mate
/// 3000` after `USI_Hash` 4096 answered after 11 s. Now 0.01 s and 0.05-0.07 s.
///
/// The allocation asks for an alignment of 16 bytes (the allocator's own, which lets it take
/// the zeroed path; a larger alignment is served by allocating and then writing zeros), and
/// the clusters start at the first multiple of their own alignment in it, or of [`HUGE_PAGE`]
/// for a table of huge pages.
struct ZeroedClusters {
    /// The allocation, from `alloc_zeroed` with `layout`.
    base: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    /// The first cluster, inside the allocation and aligned for a cluster.
    first: std::ptr::NonNull<Cluster>,
    len: usize,
}

// SAFETY: the clusters are owned as a `Vec` would own them (plain integers, no shared
// pointers), and moved between threads only with the table, as `go mate` moves its solver.
unsafe impl Send for ZeroedClusters {}

impl ZeroedClusters {
    /// `len` zeroed clusters starting on a multiple of `align` (a power of two, at least a
    /// cluster's alignment), or `None` when the memory cannot be had.
    fn new(len: usize, align: usize) -> Option<ZeroedClusters> {
        debug_assert!(align.is_power_of_two() && align >= std::mem::align_of::<Cluster>());
        let len = len.max(1);
        let bytes = len
            .checked_mul(std::mem::size_of::<Cluster>())?
            .checked_add(align)?;
        let layout = std::alloc::Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: the layout's size is not zero.
        let base = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = (base.as_ptr() as usize).next_multiple_of(align) - base.as_ptr() as usize;
        // SAFETY: `offset` is below `align`, so the clusters lie inside the allocation, which
        // has `align` bytes beyond `len` clusters; the address is a multiple of `align`, so
        // aligned for a cluster.
        let first = unsafe { std::ptr::NonNull::new_unchecked(base.as_ptr().add(offset)) }.cast();
        Some(ZeroedClusters {
            base,
            layout,
            first,
            len,
        })
    }
}

impl std::ops::Deref for ZeroedClusters {
    type Target = [Cluster];
    fn deref(&self) -> &[Cluster] {
        // SAFETY: `len` clusters lie at `first` inside the live allocation (see `new`), all
        // zero bits at first, which is an empty cluster, and written only as clusters since.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for ZeroedClusters {
    fn deref_mut(&mut self) -> &mut [Cluster] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl Drop for ZeroedClusters {
    fn drop(&mut self) {
        // SAFETY: `base` came from `alloc_zeroed` with this layout and is freed once.
        unsafe { std::alloc::dealloc(self.base.as_ptr(), self.layout) }
    }
}

/// A table of at least this size starts at a multiple of it, and the kernel is asked to back it
/// with pages of this size (Linux's transparent huge pages): every probe lands in a random
/// place of a table of hundreds of megabytes, and with 4 KB pages almost every one also missed
/// the address translation cache (a profile put a tenth of the solver's time on the prefetch
/// instructions that touch a child's cluster first).
const HUGE_PAGE: usize = 2 << 20;

impl MateTable {
    /// A table of about `mb` megabytes (at least one cluster), or a smaller one when that much
    /// memory cannot be had (halving the size until the allocation succeeds, as the search's
    /// table does).
    pub fn new(mb: usize) -> MateTable {
        crate::tt::halving_until_it_fits(mb, MateTable::try_new).unwrap_or_else(|| {
            let one = ZeroedClusters::new(1, std::mem::align_of::<Cluster>())
                .expect("one cluster of memory");
            MateTable::with_clusters(one)
        })
    }

    /// A table of about `mb` megabytes, or `None` when the allocation fails.
    fn try_new(mb: usize) -> Option<MateTable> {
        // The largest power of two that fits (a power-of-two size, the usual one, fits whole).
        let len = super::power_of_two_slots(mb, std::mem::size_of::<Cluster>());
        Some(MateTable::with_clusters(MateTable::clusters(len)?))
    }

    /// `len` empty clusters, on huge pages when there are enough of them.
    fn clusters(len: usize) -> Option<ZeroedClusters> {
        let bytes = len * std::mem::size_of::<Cluster>();
        if bytes < HUGE_PAGE {
            return ZeroedClusters::new(len, std::mem::align_of::<Cluster>());
        }
        let clusters = ZeroedClusters::new(len, HUGE_PAGE)?;
        // Asked before the first write, which is when the kernel picks the pages.
        crate::tt::advise_huge_pages(clusters.as_ptr() as usize, bytes);
        Some(clusters)
    }

    fn with_clusters(clusters: ZeroedClusters) -> MateTable {
        MateTable {
            mask: clusters.len() - 1,
            clusters,
            used: 0,
        }
    }

    /// Empties the table, in place: the pages a solve touched stay the process's, and a
    /// batch's next row finds them ready (fresh memory instead would have each row fault its
    /// pages in again, inside its time).
    pub fn clear(&mut self) {
        self.clusters.fill(Cluster::default());
        self.used = 0;
    }

    /// The number of clusters the table indexes.
    #[cfg(test)]
    fn clusters_in_use(&self) -> usize {
        self.mask + 1
    }

    /// Per mille of the slots in use.
    pub fn hashfull(&self) -> usize {
        self.used * 1000 / ((self.mask + 1) * CLUSTER)
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (key >> 20) as usize & self.mask
    }

    /// Starts loading the cluster of `key` into the cache, for a probe soon after: the solver
    /// calls it for every child of a node before it looks the first one up, so the misses
    /// overlap instead of coming one after the other.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let cluster = &self.clusters[self.index(key)] as *const Cluster as *const i8;
            // SAFETY: a prefetch is a hint that reads nothing into the program and cannot
            // fault; both addresses lie inside one live cluster of 128 bytes. Measured on the
            // first 45 rows of tests/data/tsume_classics.tsv at 400k nodes a problem: 32-33 s
            // of CPU with it, 39-42 s without (the node counts are the same).
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(cluster);
                _mm_prefetch::<_MM_HINT_T0>(cluster.add(64));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The best knowledge for the board `key` with the attacker holding `hand`: a proof or
    /// disproof that covers this hand, else the entry for exactly this hand.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand) -> Option<Probe> {
        self.probe_inner(key, hand, None)
    }

    /// As [`MateTable::probe`], for a node at `depth` plies from the root. Without an entry for
    /// exactly this hand, open entries of the same board bound its numbers: one for a stronger
    /// hand (more pieces) its proof number, one for a weaker hand its disproof number, as
    /// KomoringHeights does. Only entries first stored at `depth` or nearer the root count: one
    /// found only deeper may owe its numbers to this very node, and taking them back here would
    /// feed them round a loop (without this rule muso037, which has no mate, went 20M nodes
    /// without its disproof at the default hash; with it, about 530k). The caller also leaves
    /// out boards on its current path (see `Solver::look_up`).
    #[inline]
    pub fn probe_at(&self, key: u64, hand: Hand, depth: usize) -> Option<Probe> {
        self.probe_inner(key, hand, Some(depth.min(DEPTH_MAX as usize) as u32))
    }

    #[inline(always)]
    fn probe_inner(&self, key: u64, hand: Hand, depth: Option<u32>) -> Option<Probe> {
        let check = key_check(key);
        let mut exact = None;
        let mut proof: Option<Probe> = None;
        let (mut floor_pn, mut floor_dn) = (1, 1);
        for &e in &self.clusters[self.index(key)].0 {
            // A count is not knowledge of the node (see [`MateTable::counted`]).
            if e.check() != check || e.is_empty() || e.is_count() {
                continue;
            }
            let e_hand = e.hand();
            if e.is_proven() {
                if hand.dominates(e_hand) && proof.is_none_or(|p| e.mate_len() < p.len) {
                    // Of several proofs that apply, the shortest.
                    proof = Some(Probe {
                        pn: 0,
                        dn: INF,
                        len: e.mate_len(),
                        hand: e_hand,
                    });
                }
                continue;
            }
            if e.is_disproven() {
                if e_hand.dominates(hand) {
                    return Some(Probe {
                        pn: INF,
                        dn: 0,
                        len: 0,
                        hand: e_hand,
                    });
                }
                continue;
            }
            if e_hand == hand {
                exact = Some(Probe {
                    pn: e.pn_field(),
                    dn: e.dn_field(),
                    len: 0,
                    hand,
                });
            } else if depth.is_some_and(|d| e.depth() <= d) {
                if e_hand.dominates(hand) && e.pn_field() > floor_pn {
                    floor_pn = e.pn_field().min(BOUND_CAP);
                } else if hand.dominates(e_hand) && e.dn_field() > floor_dn {
                    floor_dn = e.dn_field().min(BOUND_CAP);
                }
            }
        }
        if proof.is_some() || exact.is_some() {
            return proof.or(exact);
        }
        (floor_pn > 1 || floor_dn > 1).then_some(Probe {
            pn: floor_pn,
            dn: floor_dn,
            len: 0,
            hand,
        })
    }

    /// Keeps a count the solver made for a node it has not searched (the defender's replies
    /// after a check, the attacker's checks after a reply), so that the next expansion
    /// of its parent need not play the move and count again. Kept only where the table holds
    /// nothing for the board with this hand, in an empty slot or another count's: never in
    /// place of a searched node's entry, and the first to give way to one. A count is not
    /// knowledge of the node: [`MateTable::probe`] and [`MateTable::probe_at`] pass over it,
    /// so the search goes exactly as if it were counted again; only [`MateTable::counted`]
    /// reads it.
    pub fn store_count(&mut self, key: u64, hand: Hand, count: u32) {
        debug_assert!(count > 0, "a count of none is a proof or a disproof");
        let check = key_check(key);
        let cluster = self.index(key);
        let entries = &mut self.clusters[cluster].0;
        // An empty slot, else another count's: never a searched node's entry.
        let (mut empty, mut other_count) = (None, None);
        for (i, e) in entries.iter().enumerate() {
            if e.is_empty() {
                empty = empty.or(Some(i));
            } else if e.check() == check && e.hand() == hand {
                return;
            } else if e.is_count() {
                other_count = other_count.or(Some(i));
            }
        }
        let Some(i) = empty.or(other_count) else {
            return;
        };
        if entries[i].is_empty() {
            self.used += 1;
        }
        // Never 0, which would read as a proof or a disproof.
        let count = count.max(1);
        entries[i] = Entry::new(check, hand, count, count, 0, 0, 0);
    }

    /// The count [`MateTable::store_count`] kept for the board `key` with exactly `hand`.
    #[inline]
    pub fn counted(&self, key: u64, hand: Hand) -> Option<u32> {
        let check = key_check(key);
        self.clusters[self.index(key)]
            .0
            .iter()
            .find(|e| e.check() == check && e.is_count() && e.hand() == hand)
            .map(|e| e.pn_field())
    }

    /// Records a result found at `depth` plies from the root. For a proof `hand` is the proof
    /// hand, for a disproof the disproof hand, otherwise the exact hand. Entries a new proof or
    /// disproof makes redundant are freed.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        hand: Hand,
        pn: u32,
        dn: u32,
        len: u16,
        work: u64,
        depth: usize,
    ) {
        let check = key_check(key);
        let mut depth = depth.min(DEPTH_MAX as usize) as u32;
        // At least 1: an open entry of no work is a count (`Entry::is_count`), which a
        // searched node's entry must never be taken for.
        let mut work = work_class(work.max(1));
        let cluster = self.index(key);
        let entries = &mut self.clusters[cluster].0;
        let mut slot = None;
        for (i, slot_entry) in entries.iter_mut().enumerate() {
            let e = *slot_entry;
            // A count is free space to a searched node (see [`MateTable::store_count`]).
            if e.check() != check || e.is_empty() || e.is_count() {
                continue;
            }
            let e_hand = e.hand();
            let redundant = if pn == 0 {
                // Anything for a hand at least the proof hand is now known, unless it is a
                // shorter proof: line extraction needs the shortest one.
                !e.is_disproven()
                    && e_hand.dominates(hand)
                    && (!e.is_proven() || e.mate_len() >= len)
            } else if dn == 0 {
                !e.is_proven() && hand.dominates(e_hand)
            } else {
                e_hand == hand && !e.is_proven() && !e.is_disproven()
            };
            if redundant {
                if slot.is_none() {
                    slot = Some(i);
                } else {
                    *slot_entry = Entry::default();
                    self.used -= 1;
                }
            }
        }
        let i = match slot {
            Some(i) => i,
            None => {
                let victim = victim(entries);
                if entries[victim].is_empty() {
                    self.used += 1;
                }
                victim
            }
        };
        if !entries[i].is_empty() && !entries[i].is_count() && entries[i].check() == check {
            // An update of the same board keeps the work already spent on it, and the nearest
            // ply it was met at.
            work = work.max(entries[i].work_class());
            if entries[i].hand() == hand {
                depth = depth.min(entries[i].depth());
            }
        }
        entries[i] = Entry::new(check, hand, pn, dn, len, work, depth);
    }
}

/// An empty slot (or a count's), else the open entry with the least work, else the least work.
fn victim(entries: &[Entry; CLUSTER]) -> usize {
    let mut best = 0;
    let mut best_rank = u64::MAX;
    for (i, e) in entries.iter().enumerate() {
        if e.is_empty() || e.is_count() {
            return i;
        }
        let resolved = e.is_proven() || e.is_disproven();
        let rank = ((resolved as u64) << 32) | e.work_class() as u64;
        if rank < best_rank {
            best_rank = rank;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn a_power_of_two_size_is_used_whole_and_others_round_down() {
        let cluster = std::mem::size_of::<Cluster>();
        assert_eq!(MateTable::new(4).clusters_in_use(), (4 << 20) / cluster);
        assert_eq!(MateTable::new(6).clusters_in_use(), (4 << 20) / cluster);
        assert_eq!(MateTable::new(1).clusters_in_use(), (1 << 20) / cluster);
        // `mate::table_mb`, which `go mate` keeps its table by, says the same sizes.
        for mb in [1, 4, 6, 100] {
            let bytes = MateTable::new(mb).clusters_in_use() * cluster;
            assert_eq!(bytes, super::super::table_mb(mb) << 20, "{mb} MB");
        }
    }

    #[test]
    fn a_size_that_cannot_be_allocated_is_refused_not_fatal() {
        assert!(MateTable::try_new(usize::MAX).is_none());
        assert!(MateTable::try_new(usize::MAX >> 21).is_none());
        let t = MateTable::try_new(1).unwrap();
        assert_eq!(t.mask + 1, t.clusters.len());
        assert!(t.clusters.len().is_power_of_two());
        assert_eq!(
            t.clusters.as_ptr() as usize % std::mem::align_of::<Cluster>(),
            0
        );
        // A table of huge pages starts on one.
        let t = MateTable::try_new(8).unwrap();
        assert_eq!(t.clusters.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(t.mask + 1, t.clusters.len());
        assert!((t.mask + 1).is_power_of_two());
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Cluster>(), 128);
        assert_eq!(std::mem::align_of::<Cluster>(), 128);
    }

    fn hand(pieces: &[PieceType]) -> Hand {
        let mut h = Hand::EMPTY;
        for &pt in pieces {
            h.add(pt);
        }
        h
    }

    #[test]
    fn proofs_cover_stronger_hands_and_disproofs_weaker_ones() {
        let mut t = MateTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        let g = hand(&[PieceType::Gold]);
        let gs = hand(&[PieceType::Gold, PieceType::Silver]);
        t.store(key, g, 0, INF, 5, 10, 0);
        assert!(t.probe(key, gs).unwrap().is_proven());
        assert_eq!(t.probe(key, gs).unwrap().len, 5);
        assert_eq!(t.probe(key, Hand::EMPTY), None);

        // A key that differs in a bit the entry keeps (a small table's index does not reach it).
        let other = key ^ 1 << 50;
        t.store(other, g, INF, 0, 0, 10, 0);
        assert!(t.probe(other, Hand::EMPTY).unwrap().is_disproven());
        assert_eq!(t.probe(other, gs), None);
    }

    /// A gold; a gold and a silver; a gold and two silvers: each hand stronger than the last.
    fn three_nested_hands() -> (Hand, Hand, Hand) {
        (
            hand(&[PieceType::Gold]),
            hand(&[PieceType::Gold, PieceType::Silver]),
            hand(&[PieceType::Gold, PieceType::Silver, PieceType::Silver]),
        )
    }

    #[test]
    fn open_numbers_of_other_hands_bound_a_new_node_from_no_deeper_than_it() {
        let mut t = MateTable::new(1);
        let key = 0x0bad_cafe_f00d_1234;
        let (g, gs, gss) = three_nested_hands();
        let numbers = |p: Option<Probe>| p.map(|p| (p.pn, p.dn));
        // A stronger hand's proof number, found at ply 4: a lower bound for the weaker hand.
        t.store(key, gss, 9, 2, 0, 30, 4);
        assert_eq!(numbers(t.probe_at(key, gs, 4)), Some((9, 1)));
        assert_eq!(numbers(t.probe_at(key, gs, 7)), Some((9, 1)));
        // Not for a node nearer the root than the entry was ever found: the entry may be below
        // it and owe it its numbers.
        assert_eq!(t.probe_at(key, gs, 3), None);
        // Nor where the caller asks for what is known of this hand alone.
        assert_eq!(t.probe(key, gs), None);
        // A weaker hand's disproof number bounds the stronger hand's.
        t.store(key, g, 2, 6, 0, 30, 2);
        assert_eq!(numbers(t.probe_at(key, gs, 5)), Some((9, 6)));
        // Neither bounds a hand that is neither stronger nor weaker.
        let r = hand(&[PieceType::Rook]);
        assert_eq!(t.probe_at(key, r, 9), None);
        // An entry for the hand itself is taken as it is.
        t.store(key, gs, 3, 3, 0, 30, 5);
        assert_eq!(numbers(t.probe_at(key, gs, 5)), Some((3, 3)));
        // Storing the same node again deeper keeps the nearest ply it was found at.
        t.store(key, gss, 10, 2, 0, 30, 8);
        assert_eq!(numbers(t.probe_at(key, g, 4)), Some((2, 6)));
        assert_eq!(
            numbers(t.probe_at(key, hand(&[PieceType::Silver]), 4)),
            Some((10, 1))
        );
    }

    #[test]
    fn bounds_from_other_hands_are_capped() {
        // Bounds feed on one another when a loop escapes the guards, so none is taken past
        // `BOUND_CAP`, however large the number stored.
        let mut t = MateTable::new(1);
        let key = 0x5eed_0000_0000_0089;
        let (g, gs, gss) = three_nested_hands();
        t.store(key, gss, 50_000, 2, 0, 30, 1);
        t.store(key, g, 2, 70_000, 0, 30, 1);
        let p = t.probe_at(key, gs, 1).unwrap();
        assert_eq!((p.pn, p.dn), (BOUND_CAP, BOUND_CAP));
        // The entries themselves keep their numbers.
        assert_eq!(t.probe(key, gss).map(|p| p.pn), Some(50_000));
        assert_eq!(t.probe(key, g).map(|p| p.dn), Some(70_000));
    }

    #[test]
    fn exact_entries_are_updated_in_place() {
        let mut t = MateTable::new(1);
        let key = 0xfeed_0000_0000_0001;
        let s = hand(&[PieceType::Silver]);
        t.store(key, s, 3, 4, 0, 1, 0);
        t.store(key, s, 7, 2, 0, 1, 0);
        let p = t.probe(key, s).unwrap();
        assert_eq!((p.pn, p.dn), (7, 2));
        assert_eq!(t.used, 1);
        // A proof for a smaller hand frees the now redundant exact entry.
        t.store(key, Hand::EMPTY, 0, INF, 1, 1, 0);
        assert_eq!(t.used, 1);
        assert!(t.probe(key, s).unwrap().is_proven());
    }

    #[test]
    fn counts_are_a_cache_that_the_probes_pass_over_and_searched_nodes_replace() {
        let mut t = MateTable::new(1);
        let key = 0xe571_0000_0000_0001;
        let (g, gs, gss) = three_nested_hands();
        // A count is read back by `counted`, for its own hand only.
        t.store_count(key, gss, 7);
        assert_eq!(t.counted(key, gss), Some(7));
        assert_eq!(t.counted(key, gs), None);
        // The probes do not see it, for this hand or as a bound for another: the search goes
        // as if the node were unknown.
        assert_eq!(t.probe_at(key, gss, 9), None);
        assert_eq!(t.probe_at(key, gs, 9), None);
        assert_eq!(t.used, 1);
        // A searched node's numbers replace it (in its slot) and are not taken for a count.
        t.store(key, gss, 4, 2, 0, 1, 5);
        assert_eq!(t.probe(key, gss).map(|p| (p.pn, p.dn)), Some((4, 2)));
        assert_eq!(t.counted(key, gss), None);
        assert_eq!(t.used, 1);
        // Nor did the count leave a ply on the entry: as a bound it counts from ply 5, where
        // the node was searched.
        assert_eq!(t.probe_at(key, gs, 4), None);
        assert_eq!(t.probe_at(key, gs, 5).map(|p| p.pn), Some(4));
        // A count never overwrites a searched node's numbers.
        t.store_count(key, gss, 9);
        assert_eq!(t.probe(key, gss).map(|p| (p.pn, p.dn)), Some((4, 2)));
        assert_eq!(t.counted(key, gss), None);
        // Nor takes the place of one in a full cluster, where it is the first to give way.
        for i in 0..CLUSTER as u64 {
            t.store(key ^ (i + 1) << 50, g, 2, 2, 0, 1, 0);
        }
        let other = key ^ 0x3f << 50;
        t.store_count(other, g, 5);
        assert_eq!(t.counted(other, g), None);
        let full = t.used;
        t.clear();
        t.store_count(other, g, 5);
        assert_eq!(t.counted(other, g), Some(5));
        for i in 0..CLUSTER as u64 {
            t.store(key ^ (i + 1) << 50, g, 2, 2, 0, 1, 0);
        }
        assert_eq!(t.counted(other, g), None);
        assert_eq!(t.used, full);
    }

    #[test]
    fn index_and_check_of_a_large_table_keep_the_whole_key() {
        // 2^20 clusters (a 128 MB table): the key comes back from its cluster and its check.
        let mask = (1u64 << 20) - 1;
        let mut k = 0x243f_6a88_85a3_08d3u64;
        for _ in 0..1000 {
            k ^= k << 13;
            k ^= k >> 7;
            k ^= k << 17;
            let (index, check) = ((k >> 20) & mask, key_check(k));
            assert!(check < 1 << 44);
            assert_eq!((check >> 20) << 40 | index << 20 | (check & 0xf_ffff), k);
        }
    }

    #[test]
    fn entries_keep_every_field() {
        let gs = hand(&[PieceType::Gold, PieceType::Silver, PieceType::Pawn]);
        let check = (1 << 44) - 1;
        let open = Entry::new(check, gs, 12, 345, 0, 31, 5000);
        assert_eq!(
            (open.check(), open.hand(), open.work_class(), open.depth()),
            (check, gs, 31, DEPTH_MAX)
        );
        assert_eq!(Entry::new(check, gs, 12, 345, 0, 31, 77).depth(), 77);
        assert_eq!((open.pn_field(), open.dn_field()), (12, 345));
        assert!(!open.is_empty() && !open.is_proven() && !open.is_disproven());
        let big = Entry::new(0, Hand::EMPTY, INF - 1, INF - 1, 0, 0, 0);
        assert_eq!((big.pn_field(), big.dn_field()), (NUMBER_MAX, NUMBER_MAX));
        let proven = Entry::new(0, gs, 0, INF, 4000, 1, 0);
        assert!(proven.is_proven() && !proven.is_empty());
        assert_eq!(proven.mate_len(), 4000);
        let mate_now = Entry::new(0, Hand::EMPTY, 0, INF, 0, 0, 0);
        assert!(mate_now.is_proven() && !mate_now.is_empty() && mate_now.mate_len() == 0);
        let disproven = Entry::new(0, Hand::EMPTY, INF, 0, 0, 0, 0);
        assert!(disproven.is_disproven() && !disproven.is_empty());
        assert!(Entry::default().is_empty());
    }
}
