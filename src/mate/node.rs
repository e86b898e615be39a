//! A node of the mate search: whose move it is, its table keys and
//! moves, and the keys of paths from the root.

use super::tt::UNLIMITED;
use crate::hand::Hand;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Which side is to move at a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Attacker to move (checks only).
    Or,
    /// Defender to move (in check).
    And,
}

impl Node {
    /// The node reached by playing `m` here.
    pub(crate) fn child(self) -> Node {
        match self {
            Node::Or => Node::And,
            Node::And => Node::Or,
        }
    }

    /// Table key of this node in `pos`: the board, and the pieces both
    /// hands hold together (see [`table_key`]).
    pub(crate) fn key(self, pos: &Position) -> u64 {
        let us = pos.side_to_move();
        table_key(pos.board_key(), pos.hand(us), pos.hand(!us))
    }

    /// What [`Node::key`] and [`Node::attacker_hand`] give for the child
    /// reached by the legal move `m` from this node in `pos`, and the
    /// child's full position key, all without playing `m`.
    pub(crate) fn child_keys(self, pos: &Position, m: Move) -> (u64, Hand, u64) {
        let mover = pos.hand_after(m);
        let key = table_key(pos.board_key_after(m), mover, pos.hand(!pos.side_to_move()));
        let hand = match self {
            // The attacker is moving: its hand changes with the move.
            Node::Or => mover,
            Node::And => pos.hand(!pos.side_to_move()),
        };
        (key, hand, pos.key_after(m))
    }

    /// The attacker's hand in `pos`.
    pub(crate) fn attacker_hand(self, pos: &Position) -> Hand {
        match self {
            Node::Or => pos.hand(pos.side_to_move()),
            Node::And => pos.hand(!pos.side_to_move()),
        }
    }

    /// The moves searched here: checks at OR nodes, all moves at AND nodes.
    pub(crate) fn moves(self, pos: &Position) -> MoveList {
        match self {
            Node::Or => pos.legal_checks(),
            Node::And => pos.legal_moves(),
        }
    }
}

/// The table key of a board whose hands are `a` and `b`. Within one problem
/// a board fixes what both hands hold together (pieces are conserved), so
/// this is the board key with a constant mixed in; problems that differ in
/// their pieces (a tsume SFEN that leaves some out) get keys of their own,
/// since the table outlives a problem and proof hands rest on the defender
/// holding exactly the pieces the attacker does not (see `proof_hand`).
fn table_key(board_key: u64, a: Hand, b: Hand) -> u64 {
    // Counts stay inside their fields: no kind has more pieces in the game
    // than its field holds.
    let together = u64::from(a.raw() + b.raw());
    board_key ^ together.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The key of the path that continues the path `path_key` with the
/// position whose full key is `full_key` (the root's path key is
/// `path_key_after(0, root)`): the sequence of positions, not just the last.
pub(crate) fn path_key_after(path_key: u64, full_key: u64) -> u64 {
    (path_key.rotate_left(17) ^ full_key)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .max(1)
}

/// `budget + delta`, keeping an unlimited budget unlimited.
pub(crate) fn saturating_add(budget: i32, delta: i32) -> i32 {
    if budget >= UNLIMITED {
        UNLIMITED
    } else {
        budget + delta
    }
}

/// The full keys of the positions on the current path, with a small
/// count table by key bits in front of them: most children are on no
/// path, and a lookup that finds its count at zero skips the scan of a
/// path that runs to hundreds of plies on long problems.
pub(crate) struct Path {
    keys: Vec<u64>,
    counts: Box<[u16; PATH_FILTER]>,
}

const PATH_FILTER: usize = 4096;

impl Path {
    /// An empty path.
    pub(crate) fn new() -> Path {
        Path {
            keys: Vec::new(),
            counts: Box::new([0; PATH_FILTER]),
        }
    }

    fn slot(key: u64) -> usize {
        (key >> 52) as usize % PATH_FILTER
    }

    /// Whether the position with full key `key` is on the path.
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        self.counts[Path::slot(key)] != 0 && self.keys.contains(&key)
    }

    /// Number of positions on the path.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Adds the position with full key `key` at the end of the path.
    pub(crate) fn push(&mut self, key: u64) {
        self.counts[Path::slot(key)] += 1;
        self.keys.push(key);
    }

    /// Removes the last position of the path.
    pub(crate) fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.counts[Path::slot(key)] -= 1;
        }
    }

    /// Cuts the path back to its first `len` positions.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.keys.len() > len {
            self.pop();
        }
    }
}
