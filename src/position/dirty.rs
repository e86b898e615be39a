//! What a move changed, for evaluations that update their state piece by
//! piece (the board/eval boundary): the position records the move and the
//! captured piece, and [`Position::dirty_piece`] turns them into at most two
//! piece changes, each from one spot (a square or a hand slot) to another.

use super::Position;
use crate::types::{Color, Piece, PieceType, Square};

/// Where one piece stands, as a piece-square evaluation sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieceSpot {
    /// `piece` on `sq`.
    Board {
        /// The square.
        sq: Square,
        /// The piece (with its colour and promotion).
        piece: Piece,
    },
    /// The `nth` (1-based) piece of `kind` in `color`'s hand: a hand of
    /// three pawns holds the spots nth = 1, 2 and 3.
    Hand {
        /// The owner.
        color: Color,
        /// An unpromoted kind other than the king.
        kind: PieceType,
        /// Which of the pieces of that kind in hand.
        nth: u8,
    },
}

/// One piece moving from one spot to another.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceChange {
    /// Where it stood before the move.
    pub before: PieceSpot,
    /// Where it stands after the move.
    pub after: PieceSpot,
}

/// The pieces one move changed: the moving (or dropped) piece first, then
/// the captured one, if any.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DirtyPiece {
    changes: [PieceChange; 2],
    len: u8,
    /// The colour whose king moved (its king-relative features all change).
    pub king_moved: Option<Color>,
}

impl DirtyPiece {
    /// The changed pieces (one or two).
    #[inline]
    pub fn changes(&self) -> &[PieceChange] {
        &self.changes[..usize::from(self.len)]
    }
}

impl Position {
    /// What the last move changed; `None` at the root and after a null move.
    pub fn dirty_piece(&self) -> Option<DirtyPiece> {
        let m = self.last_move()?;
        let us = self.side.flip();
        let to = m.to();
        let moved = self.board[to.index()];
        let after = PieceSpot::Board {
            sq: to,
            piece: moved,
        };
        if let Some(kind) = m.dropped_kind() {
            let nth = self.hands[us.index()].count(kind) as u8 + 1;
            let drop = PieceChange {
                before: PieceSpot::Hand {
                    color: us,
                    kind,
                    nth,
                },
                after,
            };
            return Some(DirtyPiece {
                changes: [drop; 2],
                len: 1,
                king_moved: None,
            });
        }
        let piece = if m.is_promotion() {
            Piece::new(us, moved.kind_unchecked().unpromote())
        } else {
            moved
        };
        let step = PieceChange {
            before: PieceSpot::Board {
                sq: m.from(),
                piece,
            },
            after,
        };
        let king_moved = (piece.kind_unchecked() == PieceType::King).then_some(us);
        let captured = self.captured_piece();
        if captured.is_none() {
            return Some(DirtyPiece {
                changes: [step; 2],
                len: 1,
                king_moved,
            });
        }
        let kind = captured.kind_unchecked().unpromote();
        let capture = PieceChange {
            before: PieceSpot::Board {
                sq: to,
                piece: captured,
            },
            after: PieceSpot::Hand {
                color: us,
                kind,
                nth: self.hands[us.index()].count(kind) as u8,
            },
        };
        Some(DirtyPiece {
            changes: [step, capture],
            len: 2,
            king_moved,
        })
    }

    /// Every piece's spot, kings included, from scratch (for full refreshes
    /// and for checking incremental updates).
    pub fn piece_spots(&self) -> Vec<PieceSpot> {
        let mut spots = Vec::with_capacity(40);
        for sq in Square::all() {
            let piece = self.board[sq.index()];
            if !piece.is_none() {
                spots.push(PieceSpot::Board { sq, piece });
            }
        }
        for color in Color::ALL {
            for kind in PieceType::HAND {
                for nth in 1..=self.hands[color.index()].count(kind) as u8 {
                    spots.push(PieceSpot::Hand { color, kind, nth });
                }
            }
        }
        spots
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use std::collections::HashSet;

    /// Along random games, the spots before a move minus each change's
    /// `before` plus its `after` are exactly the spots after it.
    #[test]
    fn changes_turn_the_old_spots_into_the_new() {
        let mut rng = crate::util::rng::XorShift64::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..40 {
            let mut pos = Position::startpos();
            assert_eq!(pos.dirty_piece(), None);
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m: Move = moves[rng.below(moves.len())];
                let before: HashSet<PieceSpot> = pos.piece_spots().into_iter().collect();
                pos.do_move(m);
                let dirty = pos.dirty_piece().expect("a move was played");
                let mut expected = before;
                for change in dirty.changes() {
                    assert!(expected.remove(&change.before), "{m}: {change:?}");
                    assert!(expected.insert(change.after), "{m}: {change:?}");
                }
                let after: HashSet<PieceSpot> = pos.piece_spots().into_iter().collect();
                assert_eq!(expected, after, "{m} in {}", pos.to_sfen());
                let king = pos.piece_on(m.to()).kind() == Some(PieceType::King);
                assert_eq!(dirty.king_moved.is_some(), king);
            }
        }
    }
}
