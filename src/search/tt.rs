//! The transposition table shared by all search threads.
//!
//! Concurrency policy: threads read and write entries with relaxed atomic
//! loads and stores and no locks, so two writers may interleave and a reader
//! may see half of one write and half of another. Each entry is two
//! `AtomicU64`s, `check = key ^ data` and `data`; a torn entry fails
//! `check ^ data == key` and reads as a miss, so a race costs a lookup,
//! never a wrong move (moves read back are also checked with
//! `Position::is_legal` by the caller).
//!
//! `data` layout:
//! ```text
//!  63 .. 58  57 56  55 ..... 48  47 ...... 32  31 ...... 16  15 ...... 0
//! generation bound  depth + 1    static eval   score (i16)   move bits
//! ```
//! A depth byte of 0 marks an empty slot.

use super::Bound;
use crate::large_table::{LargeTable, Zeroable};
use crate::moves::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const BUCKET_ENTRIES: usize = 4;
const GENERATION_MASK: u8 = 0x3F;

#[repr(align(64))]
struct Bucket {
    slots: [[AtomicU64; 2]; BUCKET_ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

// SAFETY: a bucket is atomic integers only; all-zero is an empty bucket.
unsafe impl Zeroable for Bucket {}

/// What a probe found, decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best or refutation move, unchecked: validate before use.
    pub mv: Option<Move>,
    /// Score as stored (mate scores relative to the stored node).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Remaining depth the score was searched to (qsearch stores 0).
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
}

/// A lock-free hash table of search results, shared by reference.
pub struct TranspositionTable {
    buckets: LargeTable<Bucket>,
    generation: AtomicU8,
}

fn encode_bound(b: Bound) -> u64 {
    match b {
        Bound::Upper => 1,
        Bound::Lower => 2,
        Bound::Exact => 3,
    }
}

fn decode_bound(bits: u64) -> Bound {
    match bits & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    }
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let count = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: LargeTable::new(count),
            generation: AtomicU8::new(0),
        }
    }

    /// Whether the table sits in Windows large pages.
    pub fn in_large_pages(&self) -> bool {
        self.buckets.in_large_pages()
    }

    /// Empties every slot (between games, between bench positions).
    pub fn clear(&mut self) {
        for bucket in self.buckets.iter_mut() {
            for slot in &mut bucket.slots {
                *slot[0].get_mut() = 0;
                *slot[1].get_mut() = 0;
            }
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto any table length.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the CPU to start loading `key`'s bucket, so that a probe a
    /// little later finds it in cache (a hint: it changes no state).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::large_table::prefetch(self.bucket(key));
    }

    /// Looks `key` up.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for slot in &self.bucket(key).slots {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if check ^ data == key && (data >> 48) & 0xFF != 0 {
                return Some(TtHit {
                    mv: Move::from_bits(data as u16),
                    score: (data >> 16) as u16 as i16 as i32,
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: ((data >> 48) & 0xFF) as i32 - 1,
                    bound: decode_bound(data >> 56),
                });
            }
        }
        None
    }

    /// Stores a result for `key`. `depth` is clamped to 0..=254; a missing
    /// move keeps the move already stored for the same key.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut old_move = None;
        for (i, slot) in bucket.slots.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            let slot_depth = ((data >> 48) & 0xFF) as i32;
            if slot_depth == 0 || check ^ data == key {
                if check ^ data == key {
                    // Keep a deeper result of this search unless the new
                    // one is exact.
                    let same_search = (data >> 58) as u8 == generation;
                    if same_search && bound != Bound::Exact && slot_depth - 1 > depth + 3 {
                        return;
                    }
                    old_move = Move::from_bits(data as u16);
                }
                victim = i;
                break;
            }
            // Prefer replacing shallow entries of old searches.
            let age = (generation.wrapping_sub((data >> 58) as u8) & GENERATION_MASK) as i32;
            let worth = slot_depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let mv = mv.or(old_move);
        let data = mv.map_or(0, |m| m.bits() as u64)
            | (score.clamp(-32_767, 32_767) as i16 as u16 as u64) << 16
            | (eval.clamp(-32_767, 32_767) as i16 as u16 as u64) << 32
            | ((depth.clamp(0, 254) + 1) as u64) << 48
            | encode_bound(bound) << 56
            | (generation as u64) << 58;
        let slot = &bucket.slots[victim];
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Per mille of a sample of slots filled during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.slots {
                let data = slot[1].load(Ordering::Relaxed);
                if (data >> 48) & 0xFF != 0 && data >> 58 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET_ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_read_back() {
        let tt = TranspositionTable::new(1);
        let m = Move::from_usi("7g7f").unwrap();
        tt.store(0x1234_5678_9abc_def0, Some(m), -31_000, 55, 7, Bound::Lower);
        let hit = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            hit,
            TtHit {
                mv: Some(m),
                score: -31_000,
                eval: 55,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
    }

    #[test]
    fn a_store_without_move_keeps_the_old_move() {
        let tt = TranspositionTable::new(1);
        let m = Move::from_usi("P*5e").unwrap();
        tt.store(42, Some(m), 10, 0, 3, Bound::Exact);
        tt.store(42, None, 20, 0, 4, Bound::Upper);
        let hit = tt.probe(42).unwrap();
        assert_eq!((hit.mv, hit.score, hit.bound), (Some(m), 20, Bound::Upper));
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        let key = 0xdead_beef_0000_0001;
        tt.store(key, Move::from_usi("2g2f"), 5, 5, 5, Bound::Exact);
        // Simulate a second writer that changed the data word only.
        let bucket = tt.bucket(key);
        let slot = bucket
            .slots
            .iter()
            .find(|s| s[0].load(Ordering::Relaxed) ^ s[1].load(Ordering::Relaxed) == key)
            .unwrap();
        slot[1].fetch_xor(1 << 20, Ordering::Relaxed);
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                0,
                0,
                1,
                Bound::Exact,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
    }
}
