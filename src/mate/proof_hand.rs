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
//!   each kind the defender holds none of and could drop between (by the
//!   placement rules: no dead square, no second pawn on a file), so that
//!   the defender still has none to drop. (A kind it holds is droppable
//!   anyway, and a later position that depends on its running out asks
//!   for it there.)
//!
//! Disproofs likewise go under a *disproof hand*, the largest attacker hand
//! they still hold for (the table's lookup reuses them for any hand it
//! holds no more than):
//! - Attacker to move, every check refuted: the smallest of the checks'
//!   disproof hands, taken back over each move as above; none of a kind
//!   the attacker holds none of (one would give it new drops), but any
//!   number of a kind it holds (more give it no new move here).
//! - Defender to move, refuted by reply `m`: that reply's disproof hand,
//!   leaving the defender at least one piece to drop if `m` is a drop.
//!
//! A hand of `Hand::EMPTY` in a disproof means "not worked out": the
//! node's own hand stands in for it (see [`or_own`]).

use crate::attacks::between;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::PieceType;

/// The hand of the attacker's node in `pos` before its move `m`, from the
/// proof or disproof hand `child` of the node `m` leads to: a dropped
/// piece is added back (capped at every piece of the kind), a captured one
/// taken out (where `child` holds one).
pub(super) fn before_attacker_move(pos: &Position, m: Move, child: Hand) -> Hand {
    let mut hand = child;
    if let Some(kind) = m.dropped_kind() {
        if hand.count(kind) < crate::hand::MAX_IN_HAND[kind as usize] {
            hand.add(kind);
        }
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
    if checkers.has_more_than_one() || checkers.is_empty() {
        return replies;
    }
    let gap = between(pos.king_square(defender), checkers.lsb());
    if gap.is_empty() {
        return replies;
    }
    let attacker_hand = pos.hand(!defender);
    let defender_hand = pos.hand(defender);
    let mut hand = replies;
    for kind in PieceType::HAND {
        // The hand test first: it is cheap, and most kinds stop there.
        if !defender_hand.has(kind)
            && (pos.placeable_drop_squares(defender, kind) & gap).is_nonempty()
        {
            hand.set(kind, hand.count(kind).max(attacker_hand.count(kind)));
        }
    }
    hand
}

/// The disproof hand of the attacker's node in `pos` whose checks were
/// refuted with hands whose smallest is `checks`: kinds the attacker holds
/// none of are cut to none; the others go up to every piece of the kind
/// in either hand (`checks` is that large when there are no checks).
pub(super) fn disproof_at_attacker_node(pos: &Position, checks: Hand) -> Hand {
    let attacker = pos.hand(pos.side_to_move());
    let mut hand = checks;
    for kind in PieceType::HAND {
        if !attacker.has(kind) {
            hand.set(kind, 0);
        }
    }
    hand
}

/// The disproof hand of the defender's node in `pos` refuted by its reply
/// `m`, whose child was disproven with `child` (joined with the child's own
/// hand): a drop needs the defender to keep at least one of its kind.
pub(super) fn disproof_before_defender_move(pos: &Position, m: Move, child: Hand) -> Hand {
    let mut hand = child;
    if let Some(kind) = m.dropped_kind() {
        let attacker = pos.hand(!pos.side_to_move());
        let defender = pos.hand(pos.side_to_move());
        let most = attacker.count(kind) + defender.count(kind) - 1;
        hand.set(kind, hand.count(kind).min(most));
    }
    hand
}

/// Every piece either player holds in `pos`, kind by kind: the most any
/// attacker hand can hold on this board (the start of a minimum).
pub(super) fn in_both_hands(pos: &Position) -> Hand {
    let (a, b) = (pos.hand(pos.side_to_move()), pos.hand(!pos.side_to_move()));
    per_kind(a, b, |x, y| x + y)
}

/// A disproof's hand, or `own` (the node's hand) where the disproof left
/// it unset; a real disproof hand always holds at least `own`.
pub(super) fn or_own(disproof: Hand, own: Hand) -> Hand {
    max(disproof, own)
}

/// Each kind's smaller count of `a` and `b`.
pub(super) fn min(a: Hand, b: Hand) -> Hand {
    per_kind(a, b, u32::min)
}

/// Each kind's larger count of `a` and `b`.
pub(super) fn max(a: Hand, b: Hand) -> Hand {
    per_kind(a, b, u32::max)
}

/// The hand holding `f(a's count, b's count)` of each kind.
fn per_kind(a: Hand, b: Hand, f: impl Fn(u32, u32) -> u32) -> Hand {
    let mut hand = Hand::EMPTY;
    for kind in PieceType::HAND {
        hand.set(kind, f(a.count(kind), b.count(kind)));
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
        assert_eq!(
            before_attacker_move(&pos, capture, Hand::EMPTY),
            Hand::EMPTY
        );
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

    #[test]
    fn only_kinds_the_defender_could_drop_between_are_kept() {
        // The rook checks along White's last rank: White can drop no pawn,
        // lance or knight there, so Black's need not be kept.
        let rank = Position::from_tsume_sfen("9/9/9/9/9/9/9/9/4R3k w PLNG 1").unwrap();
        assert_eq!(
            at_defender_node(&rank, Hand::EMPTY),
            hand(&[(PieceType::Gold, 1)])
        );
        // Up the file White already has a pawn on (beyond the rook): no
        // second pawn there, but a lance or a knight may block.
        let file = Position::from_tsume_sfen("4k4/9/9/9/4R4/9/4p4/9/9 w PLNG 1").unwrap();
        assert_eq!(
            at_defender_node(&file, Hand::EMPTY),
            hand(&[
                (PieceType::Lance, 1),
                (PieceType::Knight, 1),
                (PieceType::Gold, 1)
            ])
        );
    }

    #[test]
    fn disproof_hands_grow_only_where_no_new_move_appears() {
        // Black holds a gold; the golds and the pawn in White's hand are
        // the rest.
        let pos = Position::from_tsume_sfen("7lk/7l1/9/9/9/9/9/9/7R1 b G2gp 1").unwrap();
        assert_eq!(
            in_both_hands(&pos),
            hand(&[(PieceType::Gold, 3), (PieceType::Pawn, 1)])
        );
        // Any number of golds (held already), no pawn (a new drop).
        assert_eq!(
            disproof_at_attacker_node(&pos, in_both_hands(&pos)),
            hand(&[(PieceType::Gold, 3)])
        );
        // A check by drop refuted with `child` was refuted with one more
        // gold before the drop.
        let child = hand(&[(PieceType::Gold, 2)]);
        let drop = Move::from_usi("G*1b").unwrap();
        assert_eq!(
            before_attacker_move(&pos, drop, child),
            hand(&[(PieceType::Gold, 3)])
        );
    }

    #[test]
    fn a_refuting_drop_leaves_the_defender_one_of_its_kind() {
        // White (to move) in check holds two golds, Black one: the drop
        // refutes only while Black holds at most two of the three.
        let pos = Position::from_tsume_sfen("7lk/7l1/9/9/9/9/9/9/8R w G2g 1").unwrap();
        let drop = Move::from_usi("G*1e").unwrap();
        let child = hand(&[(PieceType::Gold, 3), (PieceType::Silver, 1)]);
        assert_eq!(
            disproof_before_defender_move(&pos, drop, child),
            hand(&[(PieceType::Gold, 2), (PieceType::Silver, 1)])
        );
        // A reply that is not a drop needs nothing from the hands.
        let king = Move::from_usi("1a1b").unwrap();
        assert_eq!(disproof_before_defender_move(&pos, king, child), child);
    }
}
