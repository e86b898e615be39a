//! A node's children in the df-pn search: their first numbers before they
//! are searched (df-pn+ estimates), the delay chains that group replies
//! refuted alike, how their numbers make the node's, and which child to
//! search next with what thresholds.

use super::node::{saturating_add, Node};
use super::proof_hand;
use super::tt::{Value, INFINITE, UNLIMITED};
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::PieceType;

#[derive(Copy, Clone)]
pub(super) struct Child {
    pub(super) mv: Move,
    pub(super) key: u64,
    pub(super) hand: Hand,
    /// Key of the path from the root to this child.
    pub(super) path_key: u64,
    /// Decided without the table (a repetition, or a budget too small to
    /// mate in): its value must not be re-read from the table, which never
    /// stores it, or the node would search it again forever.
    pub(super) settled: bool,
    /// The child searched before this one in its delay chain (see
    /// [`link_delay_chains`]), if any.
    pub(super) prev: Option<u8>,
    pub(super) value: Value,
}

/// The defender's replies in `pos` (in check), with the drops onto one
/// square counted once: about the proof number its node gets once
/// expanded (where each delay chain counts once).
pub(super) fn evasion_estimate(pos: &Position) -> u32 {
    pos.count_legal_drops_by_square() as u32
}

/// df-pn+ numbers for the defender's unseen evasion `m` in `pos`, from the
/// squares alone (no move played). A capture or a well-defended block is
/// the defender's best try: harder to prove (pn 2) and tried first (dn 1).
/// A block the attacker covers more than the defender does is likely
/// hopeless: cheap to prove (pn 1) and tried late (dn 2). King moves stay
/// at 1/1. The units match the attacker's estimate (one reply = 1).
pub(super) fn evasion_estimate_value(pos: &Position, m: Move) -> Value {
    let (pn, dn) = if pos.is_capture(m) {
        (2, 1)
    } else if !m.is_drop() && m.from() == pos.king_square(pos.side_to_move()) {
        (1, 1)
    } else {
        let us = pos.side_to_move();
        let occupied = pos.occupied();
        let defenders = pos.attackers_to(us, m.to(), occupied).count();
        let attackers = pos.attackers_to(!us, m.to(), occupied).count();
        // A dropped piece is not yet among the defenders of its square.
        if attackers < defenders + u32::from(m.is_drop()) {
            (2, 1)
        } else {
            (1, 2)
        }
    };
    Value {
        pn,
        dn,
        ..Value::UNKNOWN
    }
}

/// Delay chains (KomoringHeights' delayed moves): moves that are refuted
/// alike are searched one after another instead of side by side, so that
/// the node's numbers count each group once and only its current member
/// is searched. A member becomes active once every member before it is
/// resolved the way that lets the node go on (proven at the defender's
/// node, disproven at the attacker's). Chained are:
/// - the defender's drops onto one square (each piece kind must be
///   refuted, but they are refuted alike), and all its drops onto squares
///   it does not defend that give no check (the interpositions between a
///   distant checker and the king that the attacker usually just takes);
/// - a move with and without promotion of a pawn, bishop or rook in the
///   zone, or of a lance to the second rank, promotion first.
///
/// Solved values do not change: a node is proven (or disproven) only when
/// every member of every chain is, and any solved member decides as before.
pub(super) fn link_delay_chains(pos: &Position, node: Node, children: &mut [Child]) {
    const MAX_CHAINS: usize = 16;
    // (chain key, index of its last member so far)
    let mut tails: [(u32, u8); MAX_CHAINS] = [(0, 0); MAX_CHAINS];
    let mut len = 0;
    let us = pos.side_to_move();
    let occupied = pos.occupied();
    for i in 0..children.len().min(u8::MAX as usize) {
        let m = children[i].mv;
        let key = if m.is_drop() {
            if node != Node::And {
                continue;
            }
            let undefended = pos.attackers_to(us, m.to(), occupied).is_empty();
            if undefended && !pos.gives_check(m) {
                1
            } else {
                2 + m.to().index() as u32
            }
        } else {
            // The kind before the move: a promotion and its twin agree.
            let kind = pos.piece_on(m.from()).kind_unchecked();
            let in_zone = m.from().in_promotion_zone(us) || m.to().in_promotion_zone(us);
            let pair = match kind {
                PieceType::Pawn | PieceType::Bishop | PieceType::Rook => in_zone,
                PieceType::Lance => m.to().relative_rank(us) == 1,
                _ => false,
            };
            if !pair {
                continue;
            }
            100 + (m.from().index() * 81 + m.to().index()) as u32
        };
        match tails[..len].iter_mut().find(|(k, _)| *k == key) {
            Some((_, tail)) => {
                let t = usize::from(*tail);
                if !m.is_drop() && m.is_promotion() && !children[t].mv.is_promotion() {
                    // Promotion first: it goes in front of its pair.
                    children[t].prev = Some(i as u8);
                    children[i].prev = None;
                } else {
                    children[i].prev = Some(*tail);
                    *tail = i as u8;
                }
            }
            None if len < MAX_CHAINS => {
                tails[len] = (key, i as u8);
                len += 1;
            }
            None => {}
        }
    }
}

/// Whether child `i` is the member of its delay chain to search now: every
/// member before it is resolved (proven at an AND node, disproven at an OR
/// node).
#[inline]
fn is_active(node: Node, children: &[Child], i: usize) -> bool {
    let mut at = i;
    while let Some(p) = children[at].prev {
        let p = usize::from(p);
        let v = &children[p].value;
        let resolved = match node {
            Node::Or => v.dn == 0,
            Node::And => v.pn == 0,
        };
        if !resolved {
            return false;
        }
        at = p;
    }
    true
}

/// The node's value from its children's (out of line: its scratch space
/// stays out of the [`Searcher::mid`] recursion's frames).
#[inline(never)]
pub(super) fn aggregate(pos: &Position, node: Node, budget: i32, children: &[Child]) -> Value {
    let active = || {
        children
            .iter()
            .enumerate()
            .filter(|&(i, _)| is_active(node, children, i))
            .map(|(_, c)| c)
    };
    let sum = |f: fn(&Value) -> u32| {
        active()
            .map(|c| u64::from(f(&c.value)))
            .sum::<u64>()
            .min(u64::from(INFINITE)) as u32
    };
    let min = |f: fn(&Value) -> u32| active().map(|c| f(&c.value)).min().unwrap_or(INFINITE);
    match node {
        Node::Or => {
            let proof = children
                .iter()
                .filter(|c| c.value.pn == 0)
                .min_by_key(|c| c.value.len);
            if let Some(c) = proof {
                let hand = proof_hand::before_attacker_move(pos, c.mv, c.value.hand);
                return Value::proven(c.value.len + 1, hand);
            }
            // Zero only when every child is disproven (chains included).
            let dn = sum(|v| v.dn);
            if dn == 0 {
                let depth = children
                    .iter()
                    .map(|c| saturating_add(c.value.depth, 1))
                    .min()
                    .unwrap_or(UNLIMITED)
                    .max(budget);
                let dependent = children.iter().any(|c| c.value.path_dependent);
                let checks = children
                    .iter()
                    .fold(proof_hand::in_both_hands(pos), |h, c| {
                        let child = proof_hand::or_own(c.value.hand, c.hand);
                        proof_hand::min(h, proof_hand::before_attacker_move(pos, c.mv, child))
                    });
                return Value {
                    hand: proof_hand::disproof_at_attacker_node(pos, checks),
                    ..Value::disproven(depth, dependent)
                };
            }
            Value {
                pn: min(|v| v.pn),
                dn,
                ..Value::UNKNOWN
            }
        }
        Node::And => {
            let disproofs = children.iter().filter(|c| c.value.dn == 0);
            let absolute = disproofs
                .clone()
                .filter(|c| !c.value.path_dependent)
                .max_by_key(|c| c.value.depth);
            if let Some(c) = absolute {
                let child = proof_hand::or_own(c.value.hand, c.hand);
                return Value {
                    hand: proof_hand::disproof_before_defender_move(pos, c.mv, child),
                    ..Value::disproven(saturating_add(c.value.depth, 1), false)
                };
            }
            if let Some(depth) = disproofs.map(|c| saturating_add(c.value.depth, 1)).max() {
                return Value::disproven(depth, true);
            }
            // Zero only when every child is proven (chains included).
            let pn = sum(|v| v.pn);
            if pn == 0 {
                let len = children.iter().map(|c| c.value.len).max().unwrap_or(-1) + 1;
                let replies = children
                    .iter()
                    .fold(Hand::EMPTY, |h, c| proof_hand::max(h, c.value.hand));
                return Value::proven(len, proof_hand::at_defender_node(pos, replies));
            }
            Value {
                pn,
                dn: min(|v| v.dn),
                ..Value::UNKNOWN
            }
        }
    }
}

/// The threshold a best child gets from the second best's number `second`:
/// `second * (1 + 1/4) + 1` (Pawlewicz and Lew's 1+ε trick) instead of
/// `second + 1`. With `+ 1` alone two siblings of nearly equal numbers take
/// turns, each search returning after a node or two and re-reading all
/// siblings from the table (the seesaw effect), which on long problems
/// costs most of the time; the slack lets the best child run longer.
fn widen(second: u32) -> u32 {
    second.saturating_add(second / 4).saturating_add(1)
}

/// The child to search next and its thresholds.
#[inline(never)]
pub(super) fn select(
    node: Node,
    children: &[Child],
    v: &Value,
    thpn: u32,
    thdn: u32,
) -> (usize, u32, u32) {
    let number = |c: &Child| match node {
        Node::Or => c.value.pn,
        Node::And => c.value.dn,
    };
    let mut best = usize::MAX;
    let mut best_number = INFINITE;
    let mut second = INFINITE;
    for (i, c) in children.iter().enumerate() {
        if !is_active(node, children, i) {
            continue;
        }
        let n = number(c);
        if best == usize::MAX || n < best_number {
            second = best_number;
            best = i;
            best_number = n;
        } else if n < second {
            second = n;
        }
    }
    let c = &children[best].value;
    match node {
        Node::Or => {
            let others = v.dn - c.dn;
            (
                best,
                thpn.min(widen(second)),
                thdn.saturating_sub(others).min(INFINITE),
            )
        }
        Node::And => {
            let others = v.pn - c.pn;
            (
                best,
                thpn.saturating_sub(others).min(INFINITE),
                thdn.min(widen(second)),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children(pos: &Position, node: Node) -> Vec<Child> {
        let mut children: Vec<Child> = node
            .moves(pos)
            .iter()
            .map(|&mv| Child {
                mv,
                key: 0,
                hand: Hand::EMPTY,
                path_key: 0,
                settled: false,
                prev: None,
                value: Value::UNKNOWN,
            })
            .collect();
        link_delay_chains(pos, node, &mut children);
        children
    }

    /// The members of the chain whose last member is `i`, last first.
    fn chain_from(children: &[Child], mut i: usize) -> Vec<usize> {
        let mut members = vec![i];
        while let Some(p) = children[i].prev {
            i = usize::from(p);
            assert!(!members.contains(&i), "a chain loops");
            members.push(i);
        }
        members
    }

    #[test]
    fn drops_chain_by_square_and_undefended_drops_chain_together() {
        // White king 5a in check from the rook on 5i; gold and silver in
        // hand: 2 drops on 5b (next to the king, defended) and 12 on 5c-5h.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/K3R4 w gs 1").unwrap();
        let children = children(&pos, Node::And);
        let drops: Vec<usize> = (0..children.len())
            .filter(|&i| children[i].mv.is_drop())
            .collect();
        assert_eq!(drops.len(), 14);
        let heads: Vec<usize> = drops
            .iter()
            .copied()
            .filter(|&i| children[i].prev.is_none())
            .collect();
        assert_eq!(
            heads.len(),
            2,
            "one chain for 5b, one for the undefended squares"
        );
        let longest = drops
            .iter()
            .map(|&i| chain_from(&children, i).len())
            .max()
            .unwrap();
        assert_eq!(longest, 12);
        // Only one member of each chain is searched at first.
        let active = drops
            .iter()
            .filter(|&&i| is_active(Node::And, &children, i))
            .count();
        assert_eq!(active, 2);
        // King moves are never chained.
        assert!(children
            .iter()
            .filter(|c| !c.mv.is_drop())
            .all(|c| c.prev.is_none()));
    }

    #[test]
    fn a_proven_member_hands_the_search_to_the_next() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/K3R4 w gs 1").unwrap();
        let mut children = children(&pos, Node::And);
        let head = (0..children.len())
            .find(|&i| children[i].mv.is_drop() && children[i].prev.is_none())
            .unwrap();
        let next = (0..children.len())
            .find(|&i| children[i].prev == Some(head as u8))
            .unwrap();
        assert!(!is_active(Node::And, &children, next));
        children[head].value = Value::proven(1, Hand::EMPTY);
        assert!(is_active(Node::And, &children, next));
        // The node is proven only when every member is.
        let v = aggregate(&pos, Node::And, UNLIMITED, &children);
        assert_ne!(v.pn, 0);
    }

    #[test]
    fn promotion_goes_before_its_non_promoting_twin() {
        // Black's rook on 4d checks the king on 5a from 4a, with or without
        // promotion.
        let pos = Position::from_sfen("4k4/9/9/5R3/9/9/9/9/K8 b - 1").unwrap();
        let children = children(&pos, Node::Or);
        let mut pairs = 0;
        for (i, c) in children.iter().enumerate() {
            if !c.mv.is_promotion() {
                if let Some(p) = c.prev {
                    let twin = &children[usize::from(p)];
                    assert!(twin.mv.is_promotion());
                    assert_eq!((twin.mv.from(), twin.mv.to()), (c.mv.from(), c.mv.to()));
                    assert!(!is_active(Node::Or, &children, i));
                    pairs += 1;
                }
            } else {
                assert!(c.prev.is_none());
            }
        }
        assert!(pairs >= 1, "{pairs} pairs");
    }
}
