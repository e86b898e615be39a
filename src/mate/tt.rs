//! The mate solver's transposition table.
//!
//! Entries are keyed by the board (with side to move, without hands) plus
//! the attacker's hand, so one lookup can use hand domination: a proof found
//! with hand `H` proves the same board for any hand superior to `H` (the
//! defender then holds a subset of its pieces, so it has fewer replies), and
//! a disproof with `H` disproves every inferior hand.
//!
//! An entry keeps two monotone facts besides the df-pn numbers of its last
//! search: the shortest proof length known (`proof_len`, a mate within that
//! many plies) and the deepest disproof known (`disproof_depth`, no mate
//! within that many plies). Both merge by min/max, so results found under
//! different length limits never contradict each other.
//!
//! Disproofs that rest on a repetition hold only for the path that reached
//! the node: the same board reached by another path may have no such
//! repetition (graph-history interaction). They go to a second table keyed
//! by the whole path from the root (KomoringHeights' repetition table), so
//! they are reused exactly where they hold and nowhere else.

use crate::hand::Hand;
use crate::large_table::{LargeTable, Zeroable};

/// Proof and disproof numbers; `INFINITE` marks a solved side.
pub(crate) const INFINITE: u32 = u32::MAX / 4;
/// A length budget meaning "no limit"; a disproof this deep is absolute.
pub(crate) const UNLIMITED: i32 = 10_000;
const NO_PROOF: i16 = i16::MAX;
const NO_DISPROOF: i16 = i16::MIN;
const BUCKET: usize = 8;

/// What the table knows about one node, already specialised to a budget.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    /// Proof number (0 = proven within the budget).
    pub(crate) pn: u32,
    /// Disproof number (0 = disproven within the budget).
    pub(crate) dn: u32,
    /// Length of the shortest known proof (valid when `pn == 0`).
    pub(crate) len: i32,
    /// Depth of the disproof (valid when `dn == 0`): no mate within it.
    pub(crate) depth: i32,
    /// The disproof rests on a repetition on the current path (or the path
    /// length cap), so it is not an absolute fact about the position.
    pub(crate) path_dependent: bool,
    /// The proof hand when `pn == 0`: the part of the attacker's hand the
    /// proof needs; the disproof hand when `dn == 0`: the most it may hold
    /// (empty: not worked out, the node's own). See `proof_hand`.
    pub(crate) hand: Hand,
}

impl Value {
    /// A node nothing is known about.
    pub(crate) const UNKNOWN: Value = Value {
        pn: 1,
        dn: 1,
        len: 0,
        depth: 0,
        path_dependent: false,
        hand: Hand::EMPTY,
    };

    /// A node proven with a mate in `len` plies by an attacker holding at
    /// least `hand`.
    pub(crate) fn proven(len: i32, hand: Hand) -> Value {
        Value {
            pn: 0,
            dn: INFINITE,
            len,
            depth: 0,
            path_dependent: false,
            hand,
        }
    }

    /// A node with no mate within `depth` plies.
    pub(crate) fn disproven(depth: i32, path_dependent: bool) -> Value {
        Value {
            pn: INFINITE,
            dn: 0,
            len: 0,
            depth,
            path_dependent,
            hand: Hand::EMPTY,
        }
    }
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    proof_len: i16,
    disproof_depth: i16,
    /// Nodes spent on this entry's searches, for replacement.
    work: u32,
}

const EMPTY: Entry = Entry {
    key: 0,
    hand: Hand::EMPTY,
    pn: 1,
    dn: 1,
    proof_len: NO_PROOF,
    disproof_depth: NO_DISPROOF,
    work: 0,
};

const _: () = assert!(std::mem::size_of::<Entry>() == 32);

// SAFETY: every field of an Entry is an integer (Hand wraps a u32), so the
// all-zero pattern is a valid Entry: one with no work, which every reader
// treats as empty, as it does EMPTY.
unsafe impl Zeroable for Entry {}

/// A path-dependent disproof: no mate within `depth` plies for the node
/// reached by the path whose key is `path_key` (0 = empty).
#[derive(Copy, Clone, Debug)]
struct RepetitionEntry {
    path_key: u64,
    depth: i32,
}

// SAFETY: integers only; all-zero is an empty entry (path key 0).
unsafe impl Zeroable for RepetitionEntry {}

/// Proof number left in a board's entry when it was disproven on one path
/// through repetitions.
const REPETITION_HINT_PN: u32 = 1000;

/// The share of `MateHash` that holds path-dependent disproofs.
const REPETITION_SHARE: usize = 16;

/// A fixed-size table of buckets; a board's hand variants share one bucket.
pub(crate) struct MateTable {
    /// In huge pages where the system grants them: a probe is a cache miss
    /// anyway, and with 4 KB pages a table of a gigabyte adds a TLB miss.
    entries: LargeTable<Entry>,
    buckets: usize,
    /// Path-dependent disproofs, direct-mapped by path key.
    repetitions: LargeTable<RepetitionEntry>,
}

impl MateTable {
    /// A table using about `mb` megabytes (at least one bucket).
    pub(crate) fn new(mb: usize) -> MateTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let repetition_bytes = bytes / REPETITION_SHARE;
        let buckets = ((bytes - repetition_bytes) / (BUCKET * std::mem::size_of::<Entry>())).max(1);
        MateTable {
            entries: LargeTable::new(buckets * BUCKET),
            buckets,
            repetitions: LargeTable::new(repetition_bytes / std::mem::size_of::<RepetitionEntry>()),
        }
    }

    /// Per mille of the first thousand entries in use (for `info hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let sample = &self.entries[..self.entries.len().min(1000)];
        let used = sample.iter().filter(|e| e.key != 0).count();
        (used * 1000 / sample.len().max(1)) as u32
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.repetitions.fill(RepetitionEntry {
            path_key: 0,
            depth: 0,
        });
    }

    /// Resets the proof and disproof numbers of every unsolved entry to
    /// "unknown", keeping all proofs and disproofs (after the numbers
    /// overflowed).
    pub(crate) fn forget_numbers(&mut self) {
        for e in self.entries.iter_mut().filter(|e| e.work != 0) {
            e.pn = 1;
            e.dn = 1;
        }
    }

    /// The path-dependent disproof stored for the node reached by the path
    /// `path_key`, if it rules out a mate within `budget` plies.
    pub(crate) fn probe_repetition(&self, path_key: u64, budget: i32) -> Option<Value> {
        let e = &self.repetitions[self.repetition_slot(path_key)];
        (e.path_key == path_key && e.depth >= budget).then(|| Value::disproven(e.depth, true))
    }

    /// Stores a path-dependent disproof `depth` plies deep for the node
    /// reached by the path `path_key`.
    pub(crate) fn store_repetition(&mut self, path_key: u64, depth: i32) {
        let slot = self.repetition_slot(path_key);
        let e = &mut self.repetitions[slot];
        if e.path_key == path_key {
            e.depth = e.depth.max(depth);
        } else {
            *e = RepetitionEntry { path_key, depth };
        }
    }

    fn repetition_slot(&self, path_key: u64) -> usize {
        ((u128::from(path_key) * self.repetitions.len() as u128) >> 64) as usize
    }

    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        // Multiply-shift maps the key evenly onto the bucket count.
        let index = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        index * BUCKET..(index + 1) * BUCKET
    }

    /// Asks the CPU to start loading `key`'s bucket, so that a probe a
    /// little later finds it in cache (a hint: it changes no state).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        // Two entries to a cache line.
        for line in self.entries[self.bucket(key)].chunks(2) {
            crate::large_table::prefetch(&line[0]);
        }
    }

    /// Asks the CPU to start loading the repetition slot of `path_key`
    /// (a hint, like [`MateTable::prefetch`]): a node's children probe
    /// it right after their board entries, and unfetched it was the
    /// solver's most expensive cache miss.
    #[inline]
    pub(crate) fn prefetch_repetition(&self, path_key: u64) {
        crate::large_table::prefetch(&self.repetitions[self.repetition_slot(path_key)]);
    }

    /// What is known about `key` with attacker hand `hand` when looking for
    /// a mate within `budget` plies.
    pub(crate) fn probe(&self, key: u64, hand: Hand, budget: i32) -> Value {
        self.probe_known(key, hand, budget)
            .unwrap_or(Value::UNKNOWN)
    }

    /// [`MateTable::probe`], or `None` when the table knows nothing that
    /// applies (so the caller may keep an estimate of its own).
    pub(crate) fn probe_known(&self, key: u64, hand: Hand, budget: i32) -> Option<Value> {
        let mut best_proof = i32::MAX;
        let mut proof_hand = Hand::EMPTY;
        // The deepest disproof that applies.
        let mut disproof = i32::MIN;
        let mut disproof_hand = Hand::EMPTY;
        let mut exact = None;
        for e in &self.entries[self.bucket(key)] {
            if e.key != key || e.work == 0 {
                continue;
            }
            if e.proof_len != NO_PROOF
                && hand.is_superior_or_equal(e.hand)
                && i32::from(e.proof_len) < best_proof
            {
                best_proof = i32::from(e.proof_len);
                proof_hand = e.hand;
            }
            if e.disproof_depth != NO_DISPROOF
                && e.hand.is_superior_or_equal(hand)
                && i32::from(e.disproof_depth) > disproof
            {
                disproof = i32::from(e.disproof_depth);
                disproof_hand = e.hand;
            }
            if e.hand == hand {
                exact = Some(e);
            }
        }
        if best_proof <= budget {
            return Some(Value::proven(best_proof, proof_hand));
        }
        if disproof >= budget {
            return Some(Value {
                hand: disproof_hand,
                ..Value::disproven(disproof, false)
            });
        }
        exact.map(|e| Value {
            pn: e.pn.max(1),
            dn: e.dn.max(1),
            ..Value::UNKNOWN
        })
    }

    /// Records the outcome of a search of `key`/`hand` that cost `work` nodes.
    /// A disproof that rests on repetitions belongs in
    /// [`MateTable::store_repetition`]: here it leaves only numbers.
    /// A proof goes under its proof hand (`value.hand`), which holds for
    /// every hand superior to it, a disproof under its disproof hand, which
    /// holds for every hand inferior to it; everything else under `hand`.
    pub(crate) fn store(&mut self, key: u64, hand: Hand, value: Value, work: u64) {
        let hand = if value.pn == 0 {
            debug_assert!(hand.is_superior_or_equal(value.hand));
            value.hand
        } else if value.dn == 0 && !value.path_dependent {
            // An unset disproof hand (empty) means the node's own.
            super::proof_hand::or_own(value.hand, hand)
        } else {
            hand
        };
        let range = self.bucket(key);
        let slot = self.slot_for(range, key, hand);
        let e = &mut self.entries[slot];
        if e.key != key || e.hand != hand || e.work == 0 {
            *e = Entry { key, hand, ..EMPTY };
        }
        e.work = e
            .work
            .saturating_add(work.min(u64::from(u32::MAX)) as u32)
            .max(1);
        if value.pn == 0 {
            e.proof_len = e
                .proof_len
                .min(value.len.clamp(-1, i32::from(NO_PROOF) - 1) as i16);
        } else if value.dn == 0 && !value.path_dependent {
            let depth = value.depth.min(UNLIMITED) as i16;
            e.disproof_depth = e.disproof_depth.max(depth);
        } else if value.dn == 0 {
            // Disproven on some path through repetitions: likely hard to
            // prove on others too. Only numbers, which any search may
            // revise; without them, numbers left from earlier problems
            // sent the search down such paths again and again (a 29-ply
            // row timed out after the rows before it, solved alone in 1 s).
            e.pn = REPETITION_HINT_PN;
            e.dn = 1;
        } else {
            e.pn = value.pn;
            e.dn = value.dn;
        }
    }

    fn slot_for(&self, range: std::ops::Range<usize>, key: u64, hand: Hand) -> usize {
        let mut victim = range.start;
        let mut victim_worth = u64::MAX;
        for i in range {
            let e = &self.entries[i];
            if e.work == 0 || (e.key == key && e.hand == hand) {
                return i;
            }
            // Solved entries are worth more than their work alone says.
            let solved = e.proof_len != NO_PROOF || e.disproof_depth != NO_DISPROOF;
            let worth = u64::from(e.work) * if solved { 4 } else { 1 };
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        victim
    }
}
