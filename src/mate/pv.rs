//! Reading the mating line out of a proof.

use super::search::{Node, Searcher};
use super::tt::INFINITE;
use crate::moves::Move;
use crate::position::Position;

/// Longest line the walk follows before giving up (a proof never needs it).
const MAX_LINE: usize = 1000;

/// The line from `pos` (an OR node proven within `budget` plies): the
/// attacker takes the shortest mate, the defender the longest resistance,
/// preferring a real defence to a futile drop when both last as long.
pub(crate) fn principal_variation(
    searcher: &mut Searcher,
    pos: &mut Position,
    budget: i32,
) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut node = Node::Or { bonus: None };
    let mut budget = budget;
    let start_path = searcher.path.len();
    let found = loop {
        if line.len() >= MAX_LINE {
            break false;
        }
        let moves = node.moves(pos);
        if moves.is_empty() {
            break matches!(node, Node::And);
        }
        let Some((mv, child_budget)) = choose(searcher, pos, node, budget, &moves) else {
            break false;
        };
        searcher.path.push(pos.key());
        pos.do_move(mv);
        line.push(mv);
        node = node.child(mv);
        budget = child_budget;
    };
    for &mv in line.iter().rev() {
        pos.undo_move(mv);
    }
    searcher.path.truncate(start_path);
    found.then_some(line)
}

/// The move to follow from a proven node and the budget its child was
/// proven within.
fn choose(
    searcher: &mut Searcher,
    pos: &mut Position,
    node: Node,
    budget: i32,
    moves: &[Move],
) -> Option<(Move, i32)> {
    for attempt in 0..2 {
        let mut proven = Vec::with_capacity(moves.len());
        for &mv in moves {
            let (child_budget, discount) = node.child_budget(pos, mv, budget);
            let child = node.child(mv);
            pos.do_move(mv);
            let value =
                searcher
                    .table
                    .probe(child.key(pos), child.attacker_hand(pos), child_budget);
            pos.undo_move(mv);
            if value.pn == 0 {
                proven.push((mv, value.len, discount));
            }
        }
        let choice = match node {
            Node::Or { .. } => proven
                .iter()
                .min_by_key(|&&(_, len, discount)| len - discount)
                .copied(),
            Node::And if proven.len() == moves.len() => longest_resistance(searcher, pos, &proven),
            Node::And => None,
        };
        if let Some((mv, len, _)) = choice {
            return Some((mv, len));
        }
        if attempt == 0 {
            // Part of the proof was overwritten: prove this node again.
            searcher.mid(pos, node, budget, INFINITE, INFINITE);
        }
    }
    None
}

/// The defender's reply that is mated last. Among equally long replies a
/// move beats a drop, and a drop the attacker must answer with a real
/// continuation beats a futile one it can just take (tsume convention does
/// not show futile interpositions).
fn longest_resistance(
    searcher: &mut Searcher,
    pos: &mut Position,
    proven: &[(Move, i32, i32)],
) -> Option<(Move, i32, i32)> {
    let longest = proven.iter().map(|&(_, len, _)| len).max()?;
    let candidates: Vec<_> = proven.iter().filter(|c| c.1 == longest).copied().collect();
    if let Some(&c) = candidates.iter().find(|c| !c.0.is_drop()) {
        return Some(c);
    }
    for &c in &candidates {
        if !is_futile(searcher, pos, c.0, longest) {
            return Some(c);
        }
    }
    candidates.first().copied()
}

/// Whether the defender's drop `mv`, worth `len` plies with futile captures
/// discounted, needs that discount: it does when the position after it has
/// no mate within `len` plies counted in full.
fn is_futile(searcher: &mut Searcher, pos: &mut Position, mv: Move, len: i32) -> bool {
    let plain = Node::Or { bonus: None };
    pos.do_move(mv);
    let value = searcher.mid(pos, plain, len, INFINITE, INFINITE);
    pos.undo_move(mv);
    value.pn != 0
}
