//! Reading the mating line out of a proof.
//!
//! Stored proof lengths are upper bounds (a node proven in 5 plies may have
//! a mate in 1 that was never searched), so the line is not read from them
//! alone: the defender's reply is the one whose mate cannot be made two
//! plies shorter, checked by a bounded search of each candidate. Every
//! search here runs under the solver's deadline and stop flag; when they
//! fire, [`quick_line`] reads a valid (possibly longer) line from the table
//! without searching.

use super::node::{path_key_after, saturating_add, Node};
use super::search::Searcher;
use super::tt::INFINITE;
use crate::moves::Move;
use crate::position::Position;
use std::time::{Duration, Instant};

/// Longest line the walk follows before giving up (a proof never needs
/// it: above the search's longest path, and Microcosmos, the longest
/// classic problem, takes 1525 plies).
const MAX_LINE: usize = 4000;

/// How long the table-only walk may run once the clock has run out: a
/// base plus an allowance per ply of the line, since each ply generates
/// and probes every move (a few microseconds each). A flat 2 ms cut off
/// lines of a few hundred plies, so a long mate proven just before the
/// deadline was reported as a timeout.
const QUICK_LINE_BASE: Duration = Duration::from_millis(2);
const QUICK_LINE_PER_PLY: Duration = Duration::from_micros(50);

/// How a walk picks its moves.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    /// Exact lengths by bounded re-searches (the real solution).
    Exact,
    /// Stored lengths only, no search (any valid mating line).
    Quick,
    /// Stored lengths, but a node whose proof was overwritten is proved
    /// again (any valid mating line, as long as the clock allows).
    Repair,
}

/// The line from `pos` (an OR node whose shortest mate is exactly `budget`
/// plies): the attacker takes a shortest mate, the defender the reply mated
/// last (a piece move before a drop when both last as long).
/// `None` when the search was stopped or a proof could not be rebuilt.
pub(crate) fn principal_variation(
    searcher: &mut Searcher,
    pos: &mut Position,
    budget: i32,
) -> Option<Vec<Move>> {
    walk(searcher, pos, budget, Mode::Exact, None)
}

/// A valid mating line within `budget` plies (not necessarily the
/// shortest), read from the table and re-proving what was overwritten, up
/// to the solver's deadline: each proof's answer, kept in case the clock
/// runs out later.
pub(crate) fn proof_line(
    searcher: &mut Searcher,
    pos: &mut Position,
    budget: i32,
) -> Option<Vec<Move>> {
    walk(searcher, pos, budget, Mode::Repair, None)
}

/// A mating line read from the table alone (stored lengths trusted, no
/// search), given up after [`QUICK_LINE_BASE`] plus [`QUICK_LINE_PER_PLY`]
/// per ply of `budget`: the fallback once the solve was stopped (when
/// searching, as [`proof_line`] does, is no longer allowed).
pub(crate) fn quick_line(
    searcher: &mut Searcher,
    pos: &mut Position,
    budget: i32,
) -> Option<Vec<Move>> {
    let plies = u32::try_from(budget.clamp(0, MAX_LINE as i32)).unwrap_or(0);
    let limit = Instant::now() + QUICK_LINE_BASE + QUICK_LINE_PER_PLY * plies;
    walk(searcher, pos, budget, Mode::Quick, Some(limit))
}

fn walk(
    searcher: &mut Searcher,
    pos: &mut Position,
    budget: i32,
    mode: Mode,
    limit: Option<Instant>,
) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut node = Node::Or;
    let mut budget = budget;
    let start_path = searcher.path.len();
    // The searches below read path-dependent disproofs by path: the key
    // follows the line from the root.
    searcher.at_root(pos);
    let found = loop {
        if line.len() >= MAX_LINE || limit.is_some_and(|l| Instant::now() >= l) {
            break false;
        }
        let moves = node.moves(pos);
        if moves.is_empty() {
            break matches!(node, Node::And);
        }
        // On the path while the replies are searched: a repetition of this
        // node is no mate.
        searcher.path.push(pos.key());
        let choice = match (node, mode) {
            (Node::Or, _) => shortest(searcher, pos, node, budget, &moves, mode),
            (Node::And, Mode::Exact) => longest_exact(searcher, pos, budget, &moves),
            (Node::And, Mode::Quick | Mode::Repair) => {
                let mut proven = proven_children(searcher, pos, node, budget, &moves);
                if proven.len() < moves.len() && mode == Mode::Repair {
                    searcher.mid(pos, node, budget, INFINITE, INFINITE);
                    proven = proven_children(searcher, pos, node, budget, &moves);
                }
                if proven.len() == moves.len() && !searcher.aborted {
                    longest_stored(&proven)
                } else {
                    None
                }
            }
        };
        let Some((mv, child_budget)) = choice else {
            break false;
        };
        pos.do_move(mv);
        searcher.path_key = path_key_after(searcher.path_key, pos.key());
        line.push(mv);
        node = node.child();
        budget = child_budget;
    };
    for &mv in line.iter().rev() {
        pos.undo_move(mv);
    }
    searcher.path.truncate(start_path);
    searcher.at_root(pos);
    found.then_some(line)
}

/// The children of `node` proven within their budgets by the table:
/// `(move, stored length, child budget)`.
fn proven_children(
    searcher: &Searcher,
    pos: &mut Position,
    node: Node,
    budget: i32,
    moves: &[Move],
) -> Vec<(Move, i32, i32)> {
    let mut proven = Vec::with_capacity(moves.len());
    let child_budget = saturating_add(budget, -1);
    for &mv in moves {
        let (key, hand, _) = node.child_keys(pos, mv);
        let value = searcher.table.probe(key, hand, child_budget);
        if value.pn == 0 {
            proven.push((mv, value.len, child_budget));
        }
    }
    proven
}

/// The attacker's move at a node proven within `budget`: the proven child
/// with the shortest stored mate. When the budget is the exact shortest
/// length, every proven child is a shortest mate.
fn shortest(
    searcher: &mut Searcher,
    pos: &mut Position,
    node: Node,
    budget: i32,
    moves: &[Move],
    mode: Mode,
) -> Option<(Move, i32)> {
    for attempt in 0..2 {
        let proven = proven_children(searcher, pos, node, budget, moves);
        if let Some(&(mv, len, _)) = proven.iter().min_by_key(|c| c.1) {
            return Some((mv, len));
        }
        if attempt == 0 && mode != Mode::Quick {
            // Part of the proof was overwritten: prove this node again.
            searcher.mid(pos, node, budget, INFINITE, INFINITE);
            if searcher.aborted {
                return None;
            }
        } else {
            break;
        }
    }
    None
}

/// The defender's reply at an AND node whose mate is exactly `budget`
/// plies: one whose own mate cannot be shortened, so it really is the
/// longest resistance. Among those a piece or king move is shown before a
/// drop (every interposition counts, but a line without one reads better).
fn longest_exact(
    searcher: &mut Searcher,
    pos: &mut Position,
    budget: i32,
    moves: &[Move],
) -> Option<(Move, i32)> {
    let node = Node::And;
    let mut proven = proven_children(searcher, pos, node, budget, moves);
    if proven.len() < moves.len() {
        // Part of the proof was overwritten: prove this node again.
        searcher.mid(pos, node, budget, INFINITE, INFINITE);
        if searcher.aborted {
            return None;
        }
        proven = proven_children(searcher, pos, node, budget, moves);
        if proven.len() < moves.len() {
            return None;
        }
    }
    // Real moves first: the first that lasts the full budget is the answer.
    proven.sort_by_key(|c| c.0.is_drop());
    for &(mv, len, child_budget) in &proven {
        // A stored length under the budget is a real shorter mate.
        if len >= child_budget && lasts(searcher, pos, mv, child_budget)? {
            return Some((mv, child_budget));
        }
    }
    // No reply lasts the budget: the budget was not exact (a search was cut
    // short). Any proven reply still gives a valid mate.
    longest_stored(&proven)
}

/// Whether the defender's reply `mv` from an AND node leaves no mate two
/// plies shorter than `child_budget`; `None` if the search was stopped.
fn lasts(searcher: &mut Searcher, pos: &mut Position, mv: Move, child_budget: i32) -> Option<bool> {
    let child = Node::And.child();
    pos.do_move(mv);
    let path_key = path_key_after(searcher.path_key, pos.key());
    let value = searcher.mid_on_path(pos, child, path_key, child_budget - 2, INFINITE, INFINITE);
    pos.undo_move(mv);
    (!searcher.aborted).then_some(value.pn != 0)
}

/// The reply with the longest stored mate (a move before a drop on ties),
/// with the budget it was proven within.
fn longest_stored(proven: &[(Move, i32, i32)]) -> Option<(Move, i32)> {
    let longest = proven.iter().map(|c| c.1).max()?;
    proven
        .iter()
        .filter(|c| c.1 == longest)
        .min_by_key(|c| c.0.is_drop())
        .map(|c| (c.0, c.1))
}
