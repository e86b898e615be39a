//! Proof hands: the smallest attacker hand a proof needs.
//!
//! A proof found with attacker hand `H` is stored under the part of `H`
//! the mate used, so it also proves the same board with any hand that
//! holds at least that part (the table's superiority lookup), not only
//! with hands superior to `H` itself. In shogi the pieces a player does not
//! hold are the other's (pieces are conserved within one problem), so a
//! smaller attacker hand means a larger defender hand: a proof hand must
//! keep every kind the defender's drops depend on.
//!
//! - Attacker to move, proven by move `m`: the child's proof hand with the
//!   piece `m` drops added back, or the piece `m` captures taken out.
//! - Defender to move, every reply proven: the largest of the replies'
//!   proof hands (the defender's moves leave the attacker's hand alone);
//!   and if a drop could block the check, all the attacker's pieces of
//!   each kind the defender holds none of, so that the defender still has
//!   none to drop. (A kind it holds is droppable anyway, and a later
//!   position that depends on its running out asks for it there.)
//!
//! Disproofs keep the node's own hand.

use crate::attacks::between;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::PieceType;

/// The proof hand of the attacker's node in `pos` proven by `m`, whose
/// child was proven with `child`.
pub(super) fn before_attacker_move(pos: &Position, m: Move, child: Hand) -> Hand {
    let mut hand = child;
    if let Some(kind) = m.dropped_kind() {
        hand.add(kind);
    } else {
        let captured = pos.piece_on(m.to());
        if !captured.is_none() {
            let kind = captured.kind_unchecked().unpromote();
            if hand.has(kind) {
                hand.remove(kind);
            }
        }
    }
    hand
}

/// The proof hand of the defender's node in `pos` (in check) whose
/// replies were proven with hands whose largest is `replies` (empty when
/// the defender has no reply: mate).
pub(super) fn at_defender_node(pos: &Position, replies: Hand) -> Hand {
    let defender = pos.side_to_move();
    let checkers = pos.checkers();
    let blockable = !checkers.has_more_than_one()
        && checkers.is_nonempty()
        && between(pos.king_square(defender), checkers.lsb()).is_nonempty();
    if !blockable {
        return replies;
    }
    let attacker_hand = pos.hand(!defender);
    let defender_hand = pos.hand(defender);
    let mut hand = replies;
    for kind in PieceType::HAND {
        if !defender_hand.has(kind) {
            hand.set(kind, hand.count(kind).max(attacker_hand.count(kind)));
        }
    }
    hand
}

/// Each kind's larger count of `a` and `b`.
pub(super) fn max(a: Hand, b: Hand) -> Hand {
    let mut hand = a;
    for kind in PieceType::HAND {
        hand.set(kind, a.count(kind).max(b.count(kind)));
    }
    hand
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(pieces: &[(PieceType, u32)]) -> Hand {
        let mut h = Hand::EMPTY;
        for &(kind, n) in pieces {
            h.set(kind, n);
        }
        h
    }

    #[test]
    fn a_drop_adds_its_piece_and_a_capture_takes_it_out() {
        // Black: rook 2i, gold and pawn in hand; White's pawn on 2c.
        let pos = Position::from_tsume_sfen("8k/9/7p1/9/9/9/9/9/7R1 b GP 1").unwrap();
        let drop = Move::from_usi("G*2b").unwrap();
        let child = hand(&[(PieceType::Pawn, 1)]);
        assert_eq!(
            before_attacker_move(&pos, drop, child),
            hand(&[(PieceType::Pawn, 1), (PieceType::Gold, 1)])
        );
        // Capturing the pawn on 2c: a child needing two pawns needs one here.
        let capture = Move::from_usi("2i2c").unwrap();
        let two = hand(&[(PieceType::Pawn, 2)]);
        assert_eq!(before_attacker_move(&pos, capture, two), child);
        // A child needing no pawn needs none here either.
        assert_eq!(before_attacker_move(&pos, capture, Hand::EMPTY), Hand::EMPTY);
    }

    #[test]
    fn a_blockable_check_keeps_what_the_defender_lacks() {
        // White king 1a in check from the rook on 1i; White holds a pawn,
        // Black a gold and a silver.
        let far = Position::from_tsume_sfen("7lk/7l1/9/9/9/9/9/9/8R w GSp 1").unwrap();
        assert_eq!(
            at_defender_node(&far, Hand::EMPTY),
            hand(&[(PieceType::Gold, 1), (PieceType::Silver, 1)])
        );
        // The rook next to the king: no drop can block it.
        let near = Position::from_tsume_sfen("7lk/7lR/9/9/9/9/9/9/9 w GSp 1").unwrap();
        let replies = hand(&[(PieceType::Gold, 1)]);
        assert_eq!(at_defender_node(&near, replies), replies);
    }
}
