//! The memory of the bounded search: a limit on its two maps, and what they forget past it.
//!
//! The table of proofs and disproofs and the map of proof and disproof numbers gain entries with
//! nearly every node the search visits: on zuko037, 1.75 GB of memory at 30M nodes. A composer
//! who gives a hard problem a few hundred million nodes would run out of memory and have the
//! check killed, so past its share of the limit each map forgets instead of growing:
//! - the numbers only guide the search: they are all dropped, and the search builds them again
//!   where it goes next;
//! - the table forgets its cheapest entries, those whose proof or failure reaches the fewest
//!   plies and so stands for the smallest subtree (most are leaves settled in place), until half
//!   of them are gone.
//!
//! Forgetting never makes an answer wrong: whoever reads the table takes a missing entry for
//! "nothing known", and the search only does again what was forgotten. The maps are hash maps,
//! which double their room when full and hold both rooms while they move over, so a map may grow
//! only while the old room and the new fit in its share together; the table, once it has
//! forgotten, moves to a room of the size of what it kept (about half its room).

use std::mem::size_of;

use super::{BoardHands, BoundedSearch, HandEntry, KeyMap, NEVER, NO_PROOF};

/// One part in this many of the limit is the numbers' share, the rest the table's. Measured on
/// zuko014 at 7M nodes: the numbers' map took 105 MB beside the table's 240 MB.
const NUMBERS_SHARE: usize = 3;

/// The memory a hand entry beyond a board's first takes: they are kept in a vector of their own
/// (four entries of 16 bytes when it is first allocated, and the allocator's own 16), and on
/// zuko014 there were about two on each board that had any.
const REST_ENTRY_BYTES: usize = 48;

/// The bytes of a hash map with room for `capacity` entries of `(K, V)`: a power of two of
/// buckets, seven in eight of them usable, and a control byte for each.
fn map_bytes<K, V>(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity.saturating_mul(8) / 7).next_power_of_two();
    buckets.saturating_mul(size_of::<(K, V)>() + 1)
}

/// The bytes a map with room for `capacity` entries takes while it grows: its room and the room
/// it moves into, twice as large.
fn growing_bytes<K, V>(capacity: usize) -> usize {
    map_bytes::<K, V>(capacity) + map_bytes::<K, V>(capacity.max(4).saturating_mul(2))
}

/// How many plies an entry's knowledge reaches: its failure's depth or its proof's length,
/// whichever is further. A subtree grows with its depth, so this ranks entries by what they
/// would cost to find again; "no mate at all" ranks last.
fn reach(h: &HandEntry) -> u16 {
    let proof = if h.entry.proof == NO_PROOF {
        0
    } else {
        h.entry.proof
    };
    let failure = if h.entry.none_within == NEVER {
        u16::MAX
    } else {
        h.entry.none_within
    };
    proof.max(failure)
}

/// What [`BoundedSearch`] keeps of its memory.
#[derive(Default)]
pub(super) struct Memory {
    /// The most bytes the two maps may take (`None`: no limit).
    pub limit: Option<usize>,
    /// How many hand entries the table keeps beyond each board's first.
    pub rest_entries: usize,
    /// How many times the table forgot its cheapest entries.
    pub table_forgotten: u64,
    /// How many times the numbers were dropped.
    pub numbers_dropped: u64,
}

impl BoundedSearch {
    /// Keeps the table and the numbers within `bytes` together (`None`: no limit). A limit
    /// smaller than a few kilobytes is exceeded by the maps' smallest rooms.
    pub fn limit_memory(&mut self, bytes: Option<usize>) {
        self.memory.limit = bytes;
    }

    /// The bytes the table and the numbers take, as the limit counts them.
    #[cfg(test)]
    pub(super) fn memory_bytes(&self) -> usize {
        map_bytes::<u64, BoardHands>(self.table.capacity())
            + self.memory.rest_entries * REST_ENTRY_BYTES
            + map_bytes::<(u64, u16), (u32, u32)>(self.numbers.capacity())
    }

    /// How many times the search forgot part of what it knew for want of memory (the table's
    /// cheapest entries, or the numbers).
    pub fn times_forgotten(&self) -> u64 {
        self.memory.table_forgotten + self.memory.numbers_dropped
    }

    /// Called before the table may take a new entry: past its share of the limit, it forgets
    /// half of its entries, the cheapest.
    pub(super) fn make_room_in_table(&mut self) {
        let Some(limit) = self.memory.limit else {
            return;
        };
        let share = limit - limit / NUMBERS_SHARE;
        let capacity = self.table.capacity();
        // A full map moves to a room twice as large, and holds both while it does.
        let room = if self.table.len() >= capacity {
            growing_bytes::<u64, BoardHands>(capacity)
        } else {
            map_bytes::<u64, BoardHands>(capacity)
        };
        // The new entry may be one beyond its board's first.
        let needed = room + (self.memory.rest_entries + 1) * REST_ENTRY_BYTES;
        if needed > share {
            self.forget_cheapest();
        }
    }

    /// Called before the numbers may take a new entry: past their share of the limit, they
    /// are dropped (their room stays, for the numbers that follow).
    pub(super) fn make_room_for_numbers(&mut self) {
        let Some(limit) = self.memory.limit else {
            return;
        };
        let capacity = self.numbers.capacity();
        if self.numbers.len() >= capacity
            && growing_bytes::<(u64, u16), (u32, u32)>(capacity) > limit / NUMBERS_SHARE
        {
            self.numbers.clear();
            self.memory.numbers_dropped += 1;
        }
    }

    /// Forgets at least half of the table's entries, the cheapest by how far they reach: every
    /// entry that reaches no further than the smallest reach at which half of them have been
    /// counted, from the shortest up.
    fn forget_cheapest(&mut self) {
        let mut counts = [0usize; 257];
        let mut total = 0usize;
        for h in self.table.values().flat_map(BoardHands::iter) {
            counts[(reach(h) as usize).min(256)] += 1;
            total += 1;
        }
        let mut forgotten = 0;
        let mut up_to = 0;
        for (r, &n) in counts.iter().enumerate() {
            forgotten += n;
            up_to = r;
            if forgotten * 2 >= total {
                break;
            }
        }
        let forget = |h: &HandEntry| (reach(h) as usize).min(256) <= up_to;
        let mut rest_entries = 0;
        self.table.retain(|_, b| {
            b.rest.retain(|h| !forget(h));
            if b.first.as_ref().is_some_and(forget) {
                b.first = b.rest.pop();
            }
            if b.rest.is_empty() {
                // The vector's memory goes too.
                b.rest = Vec::new();
            }
            rest_entries += b.rest.len();
            b.first.is_some()
        });
        // The map moves to a room of its own size: the entries taken out left marks in the old
        // one that fill it as entries do, and it would grow past its share at half its room.
        let kept = std::mem::take(&mut self.table);
        self.table = KeyMap::with_capacity_and_hasher(kept.len(), Default::default());
        self.table.extend(kept);
        self.memory.rest_entries = rest_entries;
        self.memory.table_forgotten += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BoundedSearch, Place};
    use super::*;
    use crate::types::{Color, Hand, PieceType};

    fn place(board: u64, attacker: Hand) -> Place {
        Place {
            board,
            attacker,
            defender: Hand::EMPTY,
        }
    }

    /// The entries forgotten are those that reach the fewest plies, at least half of them, and
    /// "no mate at all" is kept; the entries beyond a board's first are counted as they go.
    #[test]
    fn the_table_forgets_its_cheapest_entries_first() {
        let mut s = BoundedSearch::new(Color::Black);
        let pawn = Hand::EMPTY.plus_one(PieceType::Pawn);
        for i in 0..1000u64 {
            s.fail(place(i, Hand::EMPTY), (i % 20 + 1) as u16, 0);
            // A second pair of hands on every tenth board: a proof as long as the failure.
            if i % 10 == 0 {
                s.prove(place(i, pawn), (i % 20 + 1) as u16);
            }
        }
        for i in 1000..1010u64 {
            s.fail(place(i, Hand::EMPTY), NEVER, NEVER);
        }
        let reaches = |s: &BoundedSearch| -> Vec<u16> {
            let mut r: Vec<u16> = s
                .table
                .values()
                .flat_map(BoardHands::iter)
                .map(reach)
                .collect();
            r.sort_unstable();
            r
        };
        let before = reaches(&s);
        assert_eq!(before.len(), 1110);
        assert_eq!(s.memory.rest_entries, 100);
        s.forget_cheapest();
        let after = reaches(&s);
        assert!(after.len() * 2 <= before.len(), "{} left", after.len());
        // What is left reaches further than all that went.
        let kept_from = after[0];
        let gone = before.len() - after.len();
        assert!(before[..gone].iter().all(|&r| r < kept_from));
        assert_eq!(after.iter().filter(|&&r| r == u16::MAX).count(), 10);
        let rest: usize = s.table.values().map(|b| b.rest.len()).sum();
        assert_eq!(s.memory.rest_entries, rest);
        assert!(s.table.values().all(|b| b.first.is_some()));
        assert_eq!(s.times_forgotten(), 1);
    }

    /// A table given a limit fills up to its share and then forgets instead of growing: it
    /// never takes more than the limit, as the limit counts it, while one without a limit grows
    /// with every entry.
    #[test]
    fn a_table_past_its_share_forgets_instead_of_growing() {
        const LIMIT: usize = 200_000;
        let mut limited = BoundedSearch::new(Color::Black);
        limited.limit_memory(Some(LIMIT));
        let mut free = BoundedSearch::new(Color::Black);
        for i in 0..50_000u64 {
            for s in [&mut limited, &mut free] {
                s.fail(place(i, Hand::EMPTY), (i % 30 + 1) as u16, 0);
            }
            assert!(
                limited.memory_bytes() <= LIMIT,
                "{} at {i}",
                limited.memory_bytes()
            );
        }
        assert!(limited.times_forgotten() > 0);
        assert!(limited.table.len() < 5_000);
        assert_eq!(free.table.len(), 50_000);
        assert!(free.memory_bytes() > 10 * LIMIT);
        assert_eq!(free.times_forgotten(), 0);
    }
}
