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
use search::{Node, Searcher};
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

/// How many times a disproof that rests on repetitions is re-searched with
/// those disproofs forgotten before the solver gives up on a definite answer
/// (when it has neither a clock nor a node limit; with one, until it runs
/// out).
const REPETITION_RETRIES: usize = 3;

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
    /// Of those, nodes spent asking again after an answer that rested on
    /// repetitions.
    pub retry_nodes: u64,
    /// Nodes spent reading the line out.
    pub line_nodes: u64,
    /// The length of the shortest mate proven (0 if none): the line
    /// returned has at most this many plies, fewer when it was read from
    /// the table after the clock ran out and its defence is not the
    /// longest.
    pub proven_len: i32,
    /// The shortening and the exact read-out finished, so the mate
    /// returned is the shortest against the longest resistance. False when
    /// the clock or node limit ran out first, or when the last "no shorter
    /// mate" still rested on repetitions after `REPETITION_RETRIES` (it may
    /// come from disproofs stored for other paths): the line is then the
    /// shortest proven so far.
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
            path: Vec::new(),
            progress: search::Progress {
                started,
                next: started + std::time::Duration::from_secs(1),
                report,
                best: None,
            },
        };
        self.stats = SolveStats::default();
        // Disproofs that rest on repetitions hold only for the paths of the
        // problem that stored them.
        searcher.table.new_generation();
        let result = solve_with(&mut searcher, &mut pos, &mut self.stats);
        self.nodes = searcher.nodes;
        result
    }
}

fn solve_with(searcher: &mut Searcher, pos: &mut Position, stats: &mut SolveStats) -> MateResult {
    let root = Node::Or;
    let mut length = None;
    // Short mates are found fastest by raising the length limit step by
    // step: the first limit that proves gives the shortest mate at once.
    let mut budget = 1;
    while budget <= DEEPENING_LIMIT && length.is_none() {
        let v = searcher.mid(pos, root, budget, INFINITE, INFINITE);
        if searcher.aborted {
            return MateResult::Timeout;
        }
        if v.pn == 0 {
            length = Some(v.len);
        } else if v.depth >= UNLIMITED && !v.path_dependent {
            return MateResult::NoMate;
        }
        budget += 2;
    }
    let mut resets = 0;
    if length.is_none() {
        // With a clock or a node limit the retries go on until it runs out:
        // a 251-ply problem gave up after 117 s of its 300 (three such
        // answers) while a proof was there to be found. Unbounded solves
        // (tests, tools) keep the fixed count so they always end.
        let bounded = searcher.deadline.is_some() || searcher.node_limit.is_some();
        let mut retries = 0;
        while retries < REPETITION_RETRIES || bounded {
            searcher.table.new_generation();
            let v = searcher.mid(pos, root, UNLIMITED, INFINITE, INFINITE);
            if searcher.aborted {
                return MateResult::Timeout;
            }
            if v.pn == 0 {
                length = Some(v.len);
                break;
            }
            if v.dn == 0 && !v.path_dependent {
                return MateResult::NoMate;
            }
            if v.dn != 0 && resets < NUMBER_RESETS {
                // Unsolved: the numbers overflowed (see `NUMBER_RESETS`).
                resets += 1;
                searcher.table.forget_numbers();
            } else {
                retries += 1;
            }
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
    // length proven is the shortest. A "none" that rests on repetitions may
    // come from disproofs stored on other paths (graph history
    // interaction), so it is asked again with those forgotten, as above.
    let mut retries = 0;
    // Whether a shorter mate was ruled out (not just left unproven).
    let mut ruled_out = true;
    while length >= 3 {
        let before = searcher.nodes;
        let v = searcher.mid(pos, root, length - 2, INFINITE, INFINITE);
        if retries > 0 {
            stats.retry_nodes += searcher.nodes - before;
        }
        if searcher.aborted {
            break;
        }
        if v.pn == 0 {
            length = v.len;
            stats.proven_len = length;
            remember_line(searcher, pos, length);
        } else if v.dn == 0 && v.path_dependent && retries < REPETITION_RETRIES {
            retries += 1;
            searcher.table.new_generation();
        } else if v.dn == 0 && v.path_dependent {
            // Still resting on repetitions: maybe on disproofs stored for
            // other paths. The 251- and 301-ply rows of tsume-long came
            // back as 255 and 313 this way, claimed shortest; a shorter
            // mate is not ruled out, so the answer does not say it is.
            ruled_out = false;
            break;
        } else if v.dn == 0 {
            break;
        } else if resets < NUMBER_RESETS {
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
