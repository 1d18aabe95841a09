//! The transposition table, shared by all search threads.
//!
//! Each entry is two `AtomicU64`s: the data word and the key XOR-ed with the data. A reader
//! accepts an entry only if the two still match its key, so a torn write by another thread (one
//! word new, one old) reads as a miss instead of as wrong data; no locks are needed and no
//! `unsafe`. Four entries make a bucket of 64 bytes, aligned to a cache line, so a probe reads
//! one line. Replacement prefers an empty slot, then the slot of least depth, counting entries
//! from older searches as shallower. The same position is stored again only when the new entry
//! is exact, not much shallower, or the old one is from an earlier search: a shallow re-search
//! (a reduced or a null-window one) does not wipe out a deep result.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::types::Move;

pub const BOUND_NONE: u8 = 0;
pub const BOUND_UPPER: u8 = 1;
pub const BOUND_LOWER: u8 = 2;
pub const BOUND_EXACT: u8 = 3;

/// What an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Option<Move>,
    pub value: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: u8,
}

const BUCKET: usize = 4;

/// An entry of the same position is kept against a new one shallower by more than this.
const SAME_KEY_DEPTH_MARGIN: i32 = 3;

/// One cache line: four entries of (key ^ data, data).
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

/// Data word layout: move 16 | value 16 | eval 16 | depth 8 | bound 2 | generation 6.
fn pack(e: &TtEntry, generation: u8) -> u64 {
    let mv = e.mv.map_or(0, |m| m.raw()) as u64;
    // Values beyond 16 bits are clamped, never wrapped round to the other sign.
    let value = clamp16(e.value) as u16 as u64;
    let eval = clamp16(e.eval) as u16 as u64;
    let depth = (e.depth.clamp(-1, 254) + 1) as u64;
    mv | value << 16
        | eval << 32
        | depth << 48
        | (e.bound as u64 & 3) << 56
        | ((generation & 63) as u64) << 58
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn unpack(d: u64) -> (TtEntry, u8) {
    (
        TtEntry {
            mv: Move::from_raw(d as u16),
            value: (d >> 16) as u16 as i16 as i32,
            eval: (d >> 32) as u16 as i16 as i32,
            depth: ((d >> 48) & 0xff) as i32 - 1,
            bound: ((d >> 56) & 3) as u8,
        },
        ((d >> 58) & 63) as u8,
    )
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket), or, when the memory for that
    /// cannot be had, the largest of `mb / 2`, `mb / 4`, ... that can: a hash size the machine
    /// cannot give never aborts the engine. [`size_mb`](Self::size_mb) tells what it got.
    pub fn new(mb: usize) -> TranspositionTable {
        halving_until_it_fits(mb, TranspositionTable::try_new).unwrap_or_else(|| {
            // Not even a megabyte: one bucket, or the process is out of memory anyway.
            TranspositionTable::with_buckets(vec![Bucket::empty()])
        })
    }

    /// A table of about `mb` megabytes (at least one bucket), or `None` when the allocation
    /// fails.
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        let bytes = mb.max(1).checked_mul(1 << 20)?;
        let len = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(len).ok()?;
        // Asked before the first write, which is when the kernel picks the pages. Every probe
        // lands in a random place of the table, and with 4 KB pages almost every one also
        // misses the address translation cache.
        advise_huge_pages(
            buckets.as_ptr() as usize,
            len * std::mem::size_of::<Bucket>(),
        );
        buckets.resize_with(len, Bucket::empty);
        Some(TranspositionTable::with_buckets(buckets))
    }

    fn with_buckets(buckets: Vec<Bucket>) -> TranspositionTable {
        TranspositionTable {
            buckets,
            generation: AtomicU64::new(0),
        }
    }

    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.0 {
                w.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Called at the start of each search, so entries of earlier searches age.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 63) as u8
    }

    /// Starts loading the bucket of `key` into the cache: the searcher calls it as soon as a
    /// move is made, so the miss overlaps the accumulator's update instead of stalling the
    /// child's probe (the probe was the search's largest cost in a profile of `hayate bench`).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is a hint that reads nothing into the program and cannot
            // fault; the address is that of a live bucket, one cache line.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the bucket range without a division.
        let i = (((key as u128) * (self.buckets.len() as u128)) >> 64) as usize;
        &self.buckets[i]
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = &self.bucket(key).0;
        for i in 0..BUCKET {
            let check = b[2 * i].load(Ordering::Relaxed);
            let data = b[2 * i + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    pub fn store(&self, key: u64, entry: TtEntry) {
        let b = &self.bucket(key).0;
        let generation = self.generation();
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for i in 0..BUCKET {
            let check = b[2 * i].load(Ordering::Relaxed);
            let data = b[2 * i + 1].load(Ordering::Relaxed);
            if data == 0 {
                victim = i;
                break;
            }
            if check ^ data == key {
                let (old, old_gen) = unpack(data);
                let replace = entry.bound == BOUND_EXACT
                    || old_gen != generation
                    || entry.depth + SAME_KEY_DEPTH_MARGIN >= old.depth;
                if replace {
                    // Keep an older move if the new entry has none.
                    let e = TtEntry {
                        mv: entry.mv.or(old.mv),
                        ..entry
                    };
                    Self::write(b, i, key, &e, generation);
                } else if entry.mv.is_some() && entry.mv != old.mv {
                    // The deeper result stays; the newer best move is still worth trying first.
                    let e = TtEntry {
                        mv: entry.mv,
                        ..old
                    };
                    Self::write(b, i, key, &e, old_gen);
                }
                return;
            }
            let (old, old_gen) = unpack(data);
            let age = (generation.wrapping_sub(old_gen) & 63) as i32;
            let worth = old.depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        Self::write(b, victim, key, &entry, generation);
    }

    fn write(b: &[AtomicU64; 2 * BUCKET], i: usize, key: u64, e: &TtEntry, generation: u8) {
        let data = pack(e, generation);
        b[2 * i].store(key ^ data, Ordering::Relaxed);
        b[2 * i + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries that belong to the current search (the USI
    /// `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let n = (1000).min(self.buckets.len() * BUCKET);
        let mut used = 0;
        for i in 0..n {
            let data = self.buckets[i / BUCKET].0[2 * (i % BUCKET) + 1].load(Ordering::Relaxed);
            if data != 0 && unpack(data).1 == generation {
                used += 1;
            }
        }
        (used * 1000 / n.max(1)) as u32
    }
}

/// `attempt(mb)`, then `attempt(mb / 2)`, ... down to one megabyte: the first that succeeds.
pub fn halving_until_it_fits<T>(mb: usize, attempt: impl Fn(usize) -> Option<T>) -> Option<T> {
    let mut mb = mb.max(1);
    loop {
        if let Some(t) = attempt(mb) {
            return Some(t);
        }
        if mb == 1 {
            return None;
        }
        mb /= 2;
    }
}

/// Asks the kernel to back the memory from `addr` to `addr + len` with huge pages (Linux's
/// transparent huge pages, 2 MB): only the whole 4 KB pages inside the range are named, and the
/// kernel uses huge pages where a 2 MB-aligned stretch lies within them. Only a hint: where it
/// is refused or unknown the memory works as it is.
pub(crate) fn advise_huge_pages(addr: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let first = addr.next_multiple_of(PAGE);
        let end = (addr + len) / PAGE * PAGE;
        if end <= first {
            return;
        }
        extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        const MADV_HUGEPAGE: i32 = 14;
        // SAFETY: madvise with MADV_HUGEPAGE changes no contents and no permissions, only how
        // the kernel backs the range, which lies inside the caller's own allocation and starts
        // on a page boundary as the call requires; its result is a hint's and is ignored. The
        // C library it comes from is linked by std on Linux.
        unsafe {
            madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (addr, len);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{PieceType, Square};

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::drop(PieceType::Gold, Square::from_usi("5b").unwrap());
        let e = TtEntry {
            mv: Some(m),
            value: -31990,
            eval: 123,
            depth: 17,
            bound: BOUND_LOWER,
        };
        tt.store(0xdead_beef, e);
        assert_eq!(tt.probe(0xdead_beef), Some(e));
        assert_eq!(tt.probe(0xdead_bee0), None);
        assert!(tt.hashfull() <= 1000);
    }

    #[test]
    fn buckets_are_cache_lines_and_values_are_clamped() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.buckets.as_ptr() as usize % 64, 0);
        let e = TtEntry {
            mv: None,
            value: 40_000,
            eval: -40_000,
            depth: 3,
            bound: BOUND_UPPER,
        };
        tt.store(7, e);
        let got = tt.probe(7).unwrap();
        assert_eq!((got.value, got.eval), (i16::MAX as i32, i16::MIN as i32));
    }

    #[test]
    fn a_shallow_result_does_not_replace_a_deep_one_of_the_same_search() {
        let tt = TranspositionTable::new(1);
        let m = Move::drop(PieceType::Gold, Square::from_usi("5b").unwrap());
        let deep = TtEntry {
            mv: None,
            value: 100,
            eval: 0,
            depth: 12,
            bound: BOUND_LOWER,
        };
        tt.store(9, deep);
        let shallow = TtEntry {
            mv: Some(m),
            value: -50,
            depth: 2,
            bound: BOUND_UPPER,
            ..deep
        };
        tt.store(9, shallow);
        // The deep value stays, with the newer move.
        assert_eq!(
            tt.probe(9),
            Some(TtEntry {
                mv: Some(m),
                ..deep
            })
        );
        // An exact result replaces it, and so does any result of a later search.
        tt.store(
            9,
            TtEntry {
                bound: BOUND_EXACT,
                ..shallow
            },
        );
        assert_eq!(tt.probe(9).map(|e| e.depth), Some(2));
        tt.store(9, deep);
        tt.new_search();
        tt.store(9, shallow);
        assert_eq!(tt.probe(9), Some(shallow));
    }

    #[test]
    fn a_size_that_cannot_be_allocated_gives_a_smaller_table() {
        // No machine has this much memory: the allocation fails instead of aborting.
        assert!(TranspositionTable::try_new(usize::MAX).is_none());
        assert!(TranspositionTable::try_new(usize::MAX >> 21).is_none());
        assert_eq!(TranspositionTable::try_new(2).map(|t| t.size_mb()), Some(2));
        // `new` halves a request until it fits (a pretend allocator that grants 3 MB at most:
        // a real huge request could be granted by overcommit and then fill the memory).
        let tried = std::cell::RefCell::new(Vec::new());
        let got = halving_until_it_fits(100, |mb| {
            tried.borrow_mut().push(mb);
            (mb <= 3).then_some(mb)
        });
        assert_eq!(got, Some(3));
        assert_eq!(tried.into_inner(), [100, 50, 25, 12, 6, 3]);
        assert_eq!(halving_until_it_fits(8, |_| None::<()>), None);
    }
}
