//! Tsume solver behind USI `go mate`: df-pn that proves or disproves a
//! forced mate, then shrinks the proof to the shortest mate against the
//! longest resistance (every ply counted, interpositions included).
//!
//! ```no_run
//! use gyoku::mate::{MateResult, MateSolver};
//! use gyoku::Position;
//! use std::sync::atomic::AtomicBool;
//!
//! let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
//! let mut solver = MateSolver::new(16);
//! if let MateResult::Mate(line) = solver.solve(&pos, None, &AtomicBool::new(false)) {
//!     println!("mate in {}", line.len());
//! }
//! ```

mod children;
mod node;
mod proof_hand;
mod pv;
mod search;
mod setup;
mod tt;

#[cfg(test)]
mod tests;

pub use search::SOLVER_STACK;
pub use setup::tsume_position;

use crate::moves::Move;
use crate::position::Position;
use node::Node;
use search::Searcher;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tt::{MateTable, INFINITE, UNLIMITED};

/// The outcome of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A forced mate, as the moves of both sides (an odd number of plies).
    Mate(Vec<Move>),
    /// Proven: the attacker has no forced mate.
    NoMate,
    /// Stopped or out of time before an answer.
    Timeout,
}

/// How far a running solve has got (reported about once a second, and at
/// once when a mate is proven or shortened).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MateProgress<'a> {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the solve started.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Per mille of the table in use.
    pub hashfull: u32,
    /// The best mating line proven so far (valid, maybe not the shortest).
    pub line: Option<&'a [Move]>,
}

/// How many times a solve may wipe the table's proof and disproof numbers
/// (keeping every proof and disproof) when a root search comes back
/// unsolved without running out of time: its numbers reached the ceiling.
/// Proof numbers add up over transpositions and cycles, and with a large
/// table kept from earlier problems they can get there; searching on
/// would return at once every time (a `checkmate timeout` after 2 ms was
/// seen), and a shortening that stops there must not count as "no shorter
/// mate".
const NUMBER_RESETS: usize = 2;

/// Length limits up to this are tried one by one before an unlimited search.
const DEEPENING_LIMIT: i32 = 9;

/// Where the nodes of the last solve went, phase by phase (for
/// `gyoku mate-suite`, which shows where a long problem spends its time).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Length of the first mate proven (0 if none).
    pub first_len: i32,
    /// Nodes until that first proof.
    pub proof_nodes: u64,
    /// Nodes spent asking for shorter mates after it.
    pub shrink_nodes: u64,
    /// Nodes spent reading the line out.
    pub line_nodes: u64,
    /// The length of the shortest mate proven (0 if none): the line
    /// returned has at most this many plies, fewer when it was read from
    /// the table after the clock ran out and its defence is not the
    /// longest.
    pub proven_len: i32,
    /// The shortening and the exact read-out finished, so the mate
    /// returned is the shortest against the longest resistance. False when
    /// the clock or node limit ran out first (or a path ran past the
    /// solver's longest): the line is then the shortest proven so far.
    pub shortest: bool,
}

/// A df-pn tsume solver with its own transposition table.
pub struct MateSolver {
    table: MateTable,
    nodes: u64,
    node_limit: Option<u64>,
    stats: SolveStats,
}

impl MateSolver {
    /// A solver whose table uses about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> MateSolver {
        MateSolver {
            table: MateTable::new(hash_mb),
            nodes: 0,
            node_limit: None,
            stats: SolveStats::default(),
        }
    }

    /// Reallocates the table with `hash_mb` megabytes (its content is lost).
    pub fn resize(&mut self, hash_mb: usize) {
        self.table = MateTable::new(hash_mb);
    }

    /// Forgets all stored results.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Caps the nodes of every later `solve` (`go mate nodes N`); `None`
    /// lifts the cap. Past it a solve stops as if its deadline had passed.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit;
    }

    /// Nodes searched by the last `solve`.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// How the last `solve`'s nodes split between its phases.
    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// Looks for the shortest forced mate by the side to move in `pos`.
    ///
    /// `deadline` `None` means no time limit; returns `Timeout` if `stop`
    /// becomes true or the deadline passes first. Every phase, the line
    /// read-out included, runs under the deadline: when it passes after a
    /// mate is proven, the result is the best valid mating line the table
    /// still gives (possibly not the shortest), or `Timeout` if none.
    pub fn solve(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> MateResult {
        self.solve_reporting(pos, deadline, stop, &mut |_| {})
    }

    /// [`MateSolver::solve`], calling `report` about once a second with the
    /// progress (for `info` lines during long solves).
    pub fn solve_reporting(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&MateProgress),
    ) -> MateResult {
        let mut pos = pos.clone();
        let started = Instant::now();
        let mut searcher = Searcher {
            table: &mut self.table,
            nodes: 0,
            node_limit: self.node_limit,
            deadline,
            stop,
            aborted: false,
            path: node::Path::new(),
            path_key: 0,
            path_cut: false,
            progress: search::Progress {
                started,
                next: started + std::time::Duration::from_secs(1),
                report,
                best: None,
            },
        };
        self.stats = SolveStats::default();
        let result = solve_with(&mut searcher, &mut pos, &mut self.stats);
        self.nodes = searcher.nodes;
        result
    }
}

fn solve_with(searcher: &mut Searcher, pos: &mut Position, stats: &mut SolveStats) -> MateResult {
    let mut length = None;
    // Short mates are found fastest by raising the length limit step by
    // step: the first limit that proves gives the shortest mate at once.
    let mut budget = 1;
    while budget <= DEEPENING_LIMIT && length.is_none() {
        let v = root_search(searcher, pos, budget);
        if searcher.aborted {
            return MateResult::Timeout;
        }
        if v.pn == 0 {
            length = Some(v.len);
        } else if v.dn == 0 && v.depth >= UNLIMITED && !searcher.path_cut {
            return MateResult::NoMate;
        }
        budget += 2;
    }
    let mut resets = 0;
    while length.is_none() {
        let v = root_search(searcher, pos, UNLIMITED);
        if searcher.aborted {
            return MateResult::Timeout;
        }
        if v.pn == 0 {
            length = Some(v.len);
        } else if v.dn == 0 && !searcher.path_cut {
            // Repetitions included: at the root each one is a line of the
            // problem itself, so the disproof is final.
            return MateResult::NoMate;
        } else if v.dn != 0 && resets < NUMBER_RESETS {
            // Unsolved: the numbers overflowed (see `NUMBER_RESETS`).
            resets += 1;
            searcher.table.forget_numbers();
        } else {
            // A path longer than the solver follows, or numbers stuck.
            return MateResult::Timeout;
        }
    }
    let Some(mut length) = length else {
        return MateResult::Timeout;
    };
    stats.first_len = length;
    stats.proven_len = length;
    stats.proof_nodes = searcher.nodes;
    // The line of each proof is read from the table at once (no search, a
    // few milliseconds) and kept: later searches may overwrite parts of the
    // proof, and when the clock runs out this is the answer.
    remember_line(searcher, pos, length);
    // Ask for a mate two plies shorter until there is none: the last
    // length proven is the shortest.
    // Whether a shorter mate was ruled out (not just left unproven).
    let mut ruled_out = true;
    while length >= 3 {
        let v = root_search(searcher, pos, length - 2);
        if searcher.aborted {
            break;
        }
        if v.pn == 0 {
            length = v.len;
            stats.proven_len = length;
            remember_line(searcher, pos, length);
        } else if v.dn == 0 && !searcher.path_cut {
            break;
        } else if v.dn != 0 && resets < NUMBER_RESETS {
            resets += 1;
            searcher.table.forget_numbers();
        } else {
            ruled_out = false;
            break;
        }
    }
    stats.shrink_nodes = searcher.nodes - stats.proof_nodes;
    // Rebuilding the line re-searches under the same clock; when it runs
    // out, any valid line the table still holds beats no answer.
    let line = pv::principal_variation(searcher, pos, length);
    stats.line_nodes = searcher.nodes - stats.proof_nodes - stats.shrink_nodes;
    if let Some(line) = line {
        if is_valid_mate(pos, &line) {
            stats.shortest = ruled_out && !searcher.aborted;
            return MateResult::Mate(line);
        }
    }
    remember_line(searcher, pos, length);
    searcher
        .progress
        .best
        .take()
        .map_or(MateResult::Timeout, |(_, line)| MateResult::Mate(line))
}

/// One search of the root within `budget` plies, from the root's path.
fn root_search(searcher: &mut Searcher, pos: &mut Position, budget: i32) -> tt::Value {
    searcher.at_root(pos);
    searcher.mid(pos, Node::Or, budget, INFINITE, INFINITE)
}

/// Keeps as the best line so far (and reports at once) the line the table
/// gives for a mate within `length` plies, if it is a valid mate and better
/// than the one kept: from a tighter
/// proof, or from the same proof with a longer defence. (A line read from
/// the table may be shorter than its proof: the defender's reply is picked
/// by stored lengths, which are upper bounds, so a shorter line is a worse
/// defence, not a better mate.)
fn remember_line(searcher: &mut Searcher, pos: &mut Position, length: i32) {
    let line = if searcher.aborted {
        pv::quick_line(searcher, pos, length)
    } else {
        pv::proof_line(searcher, pos, length)
    };
    if let Some(line) = line {
        let better =
            searcher.progress.best.as_ref().is_none_or(|(bound, b)| {
                length < *bound || (length == *bound && line.len() > b.len())
            });
        if better && is_valid_mate(pos, &line) {
            searcher.progress.best = Some((length, line));
            searcher.report_now();
        }
    }
}

/// Whether `line` is legal, checks on every attacker move and ends in mate.
pub fn is_valid_mate(pos: &Position, line: &[Move]) -> bool {
    let mut pos = pos.clone();
    if line.len().is_multiple_of(2) {
        return false;
    }
    for (ply, &m) in line.iter().enumerate() {
        if !pos.is_legal(m) || (ply.is_multiple_of(2) && !pos.gives_check(m)) {
            return false;
        }
        pos.do_move(m);
    }
    pos.is_checkmate()
}
