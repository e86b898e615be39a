//! How a search tells the outside world what it found. The search never
//! writes protocol text itself; the USI layer implements [`Reporter`].

use crate::moves::Move;

/// A score from the point of view of the side to move at the root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like evaluation.
    Cp(i32),
    /// Mate in this many plies: positive when the side to move mates,
    /// negative when it is mated.
    Mate(i32),
}

/// Whether a reported score is exact or only a bound (aspiration fail).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

impl Bound {
    /// Whether `score`, with this bound, says more about the true score
    /// than the estimate `value` does: exact, or a bound beyond `value`.
    pub fn improves_on(self, score: i32, value: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > value,
            Bound::Upper => score < value,
        }
    }
}

/// One principal variation of one iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition-table fill in per mille.
    pub hashfull: u32,
    /// Score of this line.
    pub score: Score,
    /// Exactness of `score`.
    pub bound: Bound,
    /// 1-based index of this line (MultiPV).
    pub multipv: usize,
    /// The line itself, from the root.
    pub pv: Vec<Move>,
}

/// Receives progress from a running search; called from search threads.
pub trait Reporter: Sync {
    /// A finished (or aspiration-failed) principal variation.
    fn info(&self, info: &SearchInfo);
    /// Free-form progress text (`info string`).
    fn info_string(&self, text: &str);
}

/// A reporter that drops everything (benchmarks, tests).
pub struct SilentReporter;

impl Reporter for SilentReporter {
    fn info(&self, _: &SearchInfo) {}
    fn info_string(&self, _: &str) {}
}
