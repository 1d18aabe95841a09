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

/// Entries per cluster: one cache-line pair.
const CLUSTER: usize = 8;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// Board key with the side to move; 0 marks an empty slot.
    key: u64,
    /// Unknown: the exact attacker hand. Proven: the proof hand. Disproven: the disproof hand.
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Nodes spent below this entry: what the replacement scheme keeps.
    work: u32,
    /// Plies to mate, for a proven entry.
    len: u16,
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
    entries: Vec<Entry>,
    /// Number of clusters minus one (a power of two minus one).
    mask: usize,
    used: usize,
}

impl MateTable {
    /// A table of about `mb` megabytes (at least one cluster), or a smaller one when that much
    /// memory cannot be had (halving the size until the allocation succeeds, as the search's
    /// table does).
    pub fn new(mb: usize) -> MateTable {
        crate::tt::halving_until_it_fits(mb, MateTable::try_new)
            .unwrap_or_else(|| MateTable::with_entries(vec![Entry::default(); CLUSTER]))
    }

    /// A table of about `mb` megabytes, or `None` when the allocation fails.
    fn try_new(mb: usize) -> Option<MateTable> {
        let bytes = mb.max(1).checked_mul(1 << 20)?;
        let clusters = (bytes / (CLUSTER * std::mem::size_of::<Entry>()))
            .max(1)
            .checked_next_power_of_two()?
            / 2;
        let len = clusters.max(1).checked_mul(CLUSTER)?;
        let mut entries = Vec::new();
        entries.try_reserve_exact(len).ok()?;
        entries.resize(len, Entry::default());
        Some(MateTable::with_entries(entries))
    }

    fn with_entries(entries: Vec<Entry>) -> MateTable {
        MateTable {
            mask: entries.len() / CLUSTER - 1,
            entries,
            used: 0,
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.used = 0;
    }

    /// Per mille of the slots in use.
    pub fn hashfull(&self) -> usize {
        self.used * 1000 / self.entries.len()
    }

    fn cluster(&self, key: u64) -> std::ops::Range<usize> {
        let start = ((key >> 20) as usize & self.mask) * CLUSTER;
        start..start + CLUSTER
    }

    /// The best knowledge for the board `key` with the attacker holding `hand`: a proof or
    /// disproof that covers this hand, else the entry for exactly this hand.
    #[inline]
    pub fn probe(&self, key: u64, hand: Hand) -> Option<Probe> {
        let key = key | 1;
        let mut exact = None;
        let mut proof: Option<Probe> = None;
        for e in &self.entries[self.cluster(key)] {
            if e.key != key {
                continue;
            }
            if e.pn == 0 && hand.dominates(e.hand) {
                // Of several proofs that apply, the shortest.
                if proof.is_none_or(|p| e.len < p.len) {
                    proof = Some(Probe {
                        pn: 0,
                        dn: INF,
                        len: e.len,
                        hand: e.hand,
                    });
                }
                continue;
            }
            if e.dn == 0 && e.hand.dominates(hand) {
                return Some(Probe {
                    pn: INF,
                    dn: 0,
                    len: 0,
                    hand: e.hand,
                });
            }
            if e.hand == hand && e.pn != 0 && e.dn != 0 {
                exact = Some(Probe {
                    pn: e.pn,
                    dn: e.dn,
                    len: 0,
                    hand,
                });
            }
        }
        proof.or(exact)
    }

    /// Records a result. For a proof `hand` is the proof hand, for a disproof the disproof
    /// hand, otherwise the exact hand. Entries a new proof or disproof makes redundant are freed.
    pub fn store(&mut self, key: u64, hand: Hand, pn: u32, dn: u32, len: u16, work: u64) {
        let key = key | 1;
        let work = work.min(u32::MAX as u64) as u32;
        let range = self.cluster(key);
        let mut slot = None;
        for i in range.clone() {
            let e = self.entries[i];
            if e.key != key {
                continue;
            }
            let redundant = if pn == 0 {
                // Anything for a hand at least the proof hand is now known, unless it is a
                // shorter proof: line extraction needs the shortest one.
                e.dn != 0 && e.hand.dominates(hand) && (e.pn != 0 || e.len >= len)
            } else if dn == 0 {
                e.pn != 0 && hand.dominates(e.hand)
            } else {
                e.hand == hand && e.pn != 0 && e.dn != 0
            };
            if redundant {
                if slot.is_none() {
                    slot = Some(i);
                } else {
                    self.entries[i].key = 0;
                    self.used -= 1;
                }
            }
        }
        let i = match slot {
            Some(i) => i,
            None => {
                let victim = self.victim(range);
                if self.entries[victim].key == 0 {
                    self.used += 1;
                }
                victim
            }
        };
        self.entries[i] = Entry {
            key,
            hand,
            pn,
            dn,
            work: if self.entries[i].key == key {
                work.max(self.entries[i].work)
            } else {
                work
            },
            len,
        };
    }

    /// An empty slot, else the unresolved entry with the least work, else the least work.
    fn victim(&self, range: std::ops::Range<usize>) -> usize {
        let mut best = range.start;
        let mut best_rank = u64::MAX;
        for i in range {
            let e = &self.entries[i];
            if e.key == 0 {
                return i;
            }
            let resolved = e.pn == 0 || e.dn == 0;
            let rank = ((resolved as u64) << 32) | e.work as u64;
            if rank < best_rank {
                best_rank = rank;
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn a_size_that_cannot_be_allocated_is_refused_not_fatal() {
        assert!(MateTable::try_new(usize::MAX).is_none());
        assert!(MateTable::try_new(usize::MAX >> 21).is_none());
        let t = MateTable::try_new(1).unwrap();
        assert_eq!(t.entries.len() % CLUSTER, 0);
        assert_eq!(t.mask + 1, t.entries.len() / CLUSTER);
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
        t.store(key, g, 0, INF, 5, 10);
        assert!(t.probe(key, gs).unwrap().is_proven());
        assert_eq!(t.probe(key, gs).unwrap().len, 5);
        assert_eq!(t.probe(key, Hand::EMPTY), None);

        let other = key ^ 0x10_0000_0000;
        t.store(other, g, INF, 0, 0, 10);
        assert!(t.probe(other, Hand::EMPTY).unwrap().is_disproven());
        assert_eq!(t.probe(other, gs), None);
    }

    #[test]
    fn exact_entries_are_updated_in_place() {
        let mut t = MateTable::new(1);
        let key = 0xfeed_0000_0000_0001;
        let s = hand(&[PieceType::Silver]);
        t.store(key, s, 3, 4, 0, 1);
        t.store(key, s, 7, 2, 0, 1);
        let p = t.probe(key, s).unwrap();
        assert_eq!((p.pn, p.dn), (7, 2));
        assert_eq!(t.used, 1);
        // A proof for a smaller hand frees the now redundant exact entry.
        t.store(key, Hand::EMPTY, 0, INF, 1, 1);
        assert_eq!(t.used, 1);
        assert!(t.probe(key, s).unwrap().is_proven());
    }
}
