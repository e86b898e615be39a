//! Depth-limited df-pn (Nagai's depth-first proof-number search).
//!
//! OR nodes are the attacker to move (only checking moves), AND nodes the
//! defender (every legal evasion). Each node carries a *budget*: the most
//! plies a mate may take from it. An unlimited budget asks "is there a mate
//! at all"; a finite one asks "is there a mate within n plies", which the
//! solver uses to shrink a proof down to the shortest mate.
//!
//! Every ply counts, interpositions included: a defender's drop between
//! its king and a distant checker is resistance like any other reply, even
//! when the attacker just takes it (see the README's "Interpositions"). This
//! is the convention of KomoringHeights (MinLength) and of the YaneuraOu
//! mate sets, whose lengths the public test sets carry.
//!
//! Repetition: a child whose full position (board, hands, side) is already
//! on the current path is a disproof for the attacker (perpetual check is no
//! mate, and a shortest mate never repeats). Such disproofs, and every
//! disproof built on one, depend on the path: they are stored under the key
//! of the whole path from the root and read back only by a node reached by
//! that same path, where they hold. At the root every repetition is one of
//! the problem's own lines, so a disproof there is final either way.

use super::children::{
    aggregate, evasion_estimate, evasion_estimate_value, link_delay_chains, select, Child,
};
use super::node::{path_key_after, saturating_add, Node, Path};
use super::proof_hand;
use super::tt::{MateTable, Value, UNLIMITED};
use crate::hand::Hand;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Paths longer than this are cut (as a path-dependent disproof) so the
/// recursion stays within the stack. A [`Searcher::mid`] frame takes about
/// 640 bytes in a release build (the move list lives in
/// [`Searcher::expand`]'s frame), so 1800 plies need some 1.2 MB; the
/// engine gives its solver threads [`SOLVER_STACK`]. Long enough for the
/// longest classic problem (Microcosmos, 1525 plies): at 400 nothing over
/// 400 plies could ever be proven.
const MAX_PATH: usize = 1800;

/// Stack size for a thread that runs the solver: paths run up to 1800
/// plies deep, about 640 bytes of stack each.
pub const SOLVER_STACK: usize = 64 << 20;

/// How often (in nodes) the stop flag and the deadline are polled. A node
/// costs about 5 us on long problems, so 1024 let a deadline slip by 5 ms;
/// reading the clock every 16 nodes costs well under 1%.
const POLL_INTERVAL: u64 = 16;

/// One df-pn search over a shared table.
pub(crate) struct Searcher<'a> {
    pub(crate) table: &'a mut MateTable,
    pub(crate) nodes: u64,
    /// `go mate nodes N`: abort once this many nodes are searched.
    pub(crate) node_limit: Option<u64>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) stop: &'a AtomicBool,
    /// Set once the stop flag or the deadline fired; results are then partial.
    pub(crate) aborted: bool,
    /// Full keys of the positions on the current path.
    pub(crate) path: Path,
    /// Key of the whole path from the root to the node being searched (see
    /// [`path_key_after`]).
    pub(crate) path_key: u64,
    /// Set when a path was cut at [`MAX_PATH`]: a disproof then rests on
    /// the cut, not on a repetition, and is no answer.
    pub(crate) path_cut: bool,
    /// Progress reports: when the solve started, when the next report is
    /// due, and where it goes.
    pub(crate) progress: Progress<'a>,
}

/// Where a solve reports its progress, about once a second.
pub(crate) struct Progress<'a> {
    pub(crate) started: Instant,
    pub(crate) next: Instant,
    pub(crate) report: &'a mut dyn FnMut(&super::MateProgress),
    /// The best mating line so far and the proof bound it came from
    /// (see `remember_line`): the answer if the clock runs out.
    pub(crate) best: Option<(i32, Vec<Move>)>,
}

/// Time between two progress reports.
const REPORT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

impl Searcher<'_> {
    /// Searches `pos` (a `node` with `budget`) until it is solved or its
    /// numbers reach the thresholds.
    pub(crate) fn mid(
        &mut self,
        pos: &mut Position,
        node: Node,
        budget: i32,
        thpn: u32,
        thdn: u32,
    ) -> Value {
        self.nodes += 1;
        if self.node_limit.is_some_and(|n| self.nodes > n) {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if self.should_abort() {
                self.aborted = true;
            }
            self.maybe_report();
        }
        if self.aborted {
            return Value::UNKNOWN;
        }
        if let Some(v) = cutoff(node, budget) {
            return v;
        }
        let key = node.key(pos);
        let hand = node.attacker_hand(pos);
        if self.path.len() >= MAX_PATH {
            self.path_cut = true;
            return Value::disproven(UNLIMITED, true);
        }
        let mut children = match self.expand(pos, node, budget) {
            Ok(children) => children,
            Err(v) => {
                self.table.store(key, hand, v, 1);
                return v;
            }
        };
        self.path.push(pos.key());
        let start_nodes = self.nodes;
        // Every move spends one ply of the budget.
        let child_budget = saturating_add(budget, -1);
        let result = loop {
            let v = aggregate(pos, node, budget, &children);
            if v.pn == 0 || v.dn == 0 || v.pn >= thpn || v.dn >= thdn || self.aborted {
                break v;
            }
            let (best, child_thpn, child_thdn) = select(node, &children, &v, thpn, thdn);
            let c = children[best];
            pos.do_move(c.mv);
            let value = self.mid_on_path(
                pos,
                node.child(),
                c.path_key,
                child_budget,
                child_thpn,
                child_thdn,
            );
            pos.undo_move(c.mv);
            children[best].value = value;
            // Unsolved siblings may have moved on through transpositions.
            // A solved one is kept: a path-dependent disproof is not in the
            // board's entry, and reading that back would take it away.
            for (i, other) in children.iter_mut().enumerate() {
                if i != best && !other.settled && other.value.pn != 0 && other.value.dn != 0 {
                    if let Some(v) = self.table.probe_known(other.key, other.hand, child_budget) {
                        other.value = v;
                    }
                }
            }
        };
        self.path.pop();
        // Partial numbers of an aborted search are not stored.
        if !self.aborted {
            if result.dn == 0 && result.path_dependent {
                // The disproof for this path; the board's entry gets only
                // numbers that steer other paths away (see `MateTable::store`).
                self.table.store_repetition(self.path_key, result.depth);
            }
            self.table
                .store(key, hand, result, self.nodes - start_nodes + 1);
        }
        result
    }

    /// Puts the search at the root `pos`: the path is the root alone and
    /// nothing has been cut at the path limit yet.
    pub(crate) fn at_root(&mut self, pos: &Position) {
        self.path_cut = false;
        self.path_key = path_key_after(0, pos.key());
    }

    /// [`Searcher::mid`] of `pos`, a node reached by the path whose key is
    /// `path_key` (see [`path_key_after`]); the current path key is kept.
    pub(crate) fn mid_on_path(
        &mut self,
        pos: &mut Position,
        node: Node,
        path_key: u64,
        budget: i32,
        thpn: u32,
        thdn: u32,
    ) -> Value {
        let parent_path_key = std::mem::replace(&mut self.path_key, path_key);
        let value = self.mid(pos, node, budget, thpn, thdn);
        self.path_key = parent_path_key;
        value
    }

    /// The children of `node`, or its value when its move list alone
    /// decides it. Kept out of line so that the move list (a few kB) lives
    /// in this short-lived frame and not in every frame of the [`mid`]
    /// recursion, which must reach [`MAX_PATH`] plies within a thread's
    /// stack.
    ///
    /// [`mid`]: Searcher::mid
    #[inline(never)]
    fn expand(&mut self, pos: &mut Position, node: Node, budget: i32) -> Result<Vec<Child>, Value> {
        let moves = node.moves(pos);
        if let Some(v) = terminal(pos, node, budget, &moves) {
            return Err(v);
        }
        // Two passes: the keys first, each bucket prefetched, then the
        // probes, so the table's cache misses overlap instead of queueing.
        let child_budget = saturating_add(budget, -1);
        // The same for every child: a budget too small to mate in.
        let cut = cutoff(node.child(), child_budget);
        let mut children = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let (key, hand, full_key) = node.child_keys(pos, mv);
            let path_key = path_key_after(self.path_key, full_key);
            let settled = if self.path.contains(full_key) {
                Some(Value::disproven(UNLIMITED, true))
            } else {
                cut
            };
            if settled.is_none() {
                self.table.prefetch(key);
                self.table.prefetch_repetition(path_key);
            }
            children.push(Child {
                mv,
                key,
                hand,
                path_key,
                settled: settled.is_some(),
                prev: None,
                value: settled.unwrap_or(Value::UNKNOWN),
            });
        }
        link_delay_chains(pos, node, &mut children);
        for c in children.iter_mut().filter(|c| !c.settled) {
            // A disproof on this very path beats the board's numbers.
            let known = match self.table.probe_known(c.key, c.hand, child_budget) {
                Some(v) if v.pn == 0 || v.dn == 0 => Some(v),
                numbers => self
                    .table
                    .probe_repetition(c.path_key, child_budget)
                    .or(numbers),
            };
            c.value = match known {
                Some(v) => v,
                None if node == Node::And => evasion_estimate_value(pos, c.mv),
                None => {
                    // df-pn+: a check the defender has few answers to is
                    // closer to a proof. The estimate is the number of
                    // evasions, drops on one square counted once (they
                    // share a delay chain); none at all is mate.
                    pos.do_move(c.mv);
                    let evasions = evasion_estimate(pos);
                    let mated_hand = if evasions == 0 {
                        proof_hand::at_defender_node(pos, Hand::EMPTY)
                    } else {
                        Hand::EMPTY
                    };
                    pos.undo_move(c.mv);
                    let value = if evasions == 0 {
                        Value::proven(0, mated_hand)
                    } else {
                        Value {
                            pn: evasions,
                            ..Value::UNKNOWN
                        }
                    };
                    // Stored so that the next expansion of this node reads
                    // it back instead of playing the move again.
                    self.table.store(c.key, c.hand, value, 1);
                    if value.pn != 0 && child_budget == 0 {
                        // A defender with a move is not mated within zero
                        // plies: what searching the child would return,
                        // without the node (the estimate stays stored for
                        // searches with a larger budget).
                        let none = Value::disproven(0, false);
                        self.table.store(c.key, c.hand, none, 1);
                        none
                    } else {
                        value
                    }
                }
            };
        }
        Ok(children)
    }

    /// Sends a progress report if one is due (polled with the clock).
    fn maybe_report(&mut self) {
        if Instant::now() >= self.progress.next {
            self.report_now();
        }
    }

    /// Sends a progress report now; the next is due a second later.
    pub(crate) fn report_now(&mut self) {
        let now = Instant::now();
        self.progress.next = now + REPORT_EVERY;
        let elapsed = now.duration_since(self.progress.started);
        let time_ms = elapsed.as_millis() as u64;
        (self.progress.report)(&super::MateProgress {
            nodes: self.nodes,
            time_ms,
            nps: (self.nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
            hashfull: self.table.hashfull(),
            line: self.progress.best.as_ref().map(|(_, line)| line.as_slice()),
        });
    }

    fn should_abort(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A node decided by its budget alone, before generating moves.
fn cutoff(node: Node, budget: i32) -> Option<Value> {
    match node {
        // A mate from an OR node takes at least one ply.
        Node::Or if budget < 1 => Some(Value::disproven(0, false)),
        // An AND node's mate length is never negative.
        Node::And if budget < 0 => Some(Value::disproven(-1, false)),
        _ => None,
    }
}

/// A node decided by its move list alone.
fn terminal(pos: &Position, node: Node, budget: i32, moves: &MoveList) -> Option<Value> {
    match node {
        Node::Or if moves.is_empty() => Some(Value {
            hand: proof_hand::disproof_at_attacker_node(pos, proof_hand::in_both_hands(pos)),
            ..Value::disproven(UNLIMITED, false)
        }),
        Node::And if moves.is_empty() => Some(Value::proven(
            0,
            proof_hand::at_defender_node(pos, Hand::EMPTY),
        )),
        // A defender with a move is not mated within zero plies.
        Node::And if budget == 0 => Some(Value::disproven(0, false)),
        _ => None,
    }
}
