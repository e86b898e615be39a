//! Reading the mating line out of a proof.

use super::search::{Node, Searcher};
use super::tt::{Value, INFINITE};
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
        let mut best: Option<(Move, i32, i32)> = None;
        let mut complete = true;
        for &mv in moves {
            let (child_budget, discount) = node.child_budget(mv, budget);
            pos.do_move(mv);
            let value = searcher.table.probe(
                node.child(mv).key(pos),
                node.child(mv).attacker_hand(pos),
                child_budget,
            );
            pos.undo_move(mv);
            if value.pn != 0 {
                complete = false;
                continue;
            }
            best = match (node, best) {
                (_, None) => Some((mv, value.len, discount)),
                (Node::Or { .. }, Some(b)) if value.len - discount < b.1 - b.2 => {
                    Some((mv, value.len, discount))
                }
                (Node::And, Some(b)) if better_defence(mv, &value, b.0, b.1) => {
                    Some((mv, value.len, discount))
                }
                (_, b) => b,
            };
        }
        let usable = match node {
            Node::Or { .. } => best.is_some(),
            Node::And => complete && best.is_some(),
        };
        if usable {
            return best.map(|(mv, len, _)| (mv, len));
        }
        if attempt == 0 {
            // Part of the proof was overwritten: prove this node again.
            searcher.mid(pos, node, budget, INFINITE, INFINITE);
        }
    }
    None
}

/// Whether the defender's `mv` (mated in `value.len`) resists better than
/// `best` (mated in `best_len`).
fn better_defence(mv: Move, value: &Value, best: Move, best_len: i32) -> bool {
    value.len > best_len || (value.len == best_len && best.is_drop() && !mv.is_drop())
}
