//! Moves packed in 16 bits, and move lists.
//!
//! ```text
//!  15       14     13 ........ 7   6 ........ 0
//! promote  drop   from (or kind)      to
//! ```
//!
//! `from` is a square index for board moves, and the dropped [`PieceType`]
//! value (1..=7) for drops. No real move is all zeros (that would be the
//! non-move `1a1a`), so the value sits in a `NonZeroU16` and `Option<Move>`
//! is 2 bytes, which the transposition table relies on.

use crate::types::{PieceType, Square};
use arrayvec::ArrayVec;
use std::fmt;
use std::num::NonZeroU16;

/// A board move or a drop; legality is the position's business.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

/// Upper bound on legal moves in any position (the known maximum is 593).
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

const TO_MASK: u16 = 0x7F;
const FROM_SHIFT: u16 = 7;
const DROP_BIT: u16 = 1 << 14;
const PROMOTE_BIT: u16 = 1 << 15;

impl Move {
    /// A board move from `from` to `to`, promoting if `promote`.
    #[inline]
    pub fn normal(from: Square, to: Square, promote: bool) -> Move {
        let bits = to.index() as u16
            | (from.index() as u16) << FROM_SHIFT
            | if promote { PROMOTE_BIT } else { 0 };
        Move::from_bits(bits).expect("from and to differ")
    }

    /// A drop of `kind` (an unpromoted hand kind) on `to`.
    #[inline]
    pub fn drop(kind: PieceType, to: Square) -> Move {
        let bits = to.index() as u16 | (kind as u16) << FROM_SHIFT | DROP_BIT;
        Move::from_bits(bits).expect("drop bit is set")
    }

    /// Rebuilds a move from its 16 bits (`None` for 0). Such a move is
    /// untrusted: check it with `Position::is_legal` before playing it.
    #[inline]
    pub fn from_bits(bits: u16) -> Option<Move> {
        NonZeroU16::new(bits).map(Move)
    }

    /// The 16-bit encoding.
    #[inline]
    pub fn bits(self) -> u16 {
        self.0.get()
    }

    /// Destination square.
    #[inline]
    pub fn to(self) -> Square {
        Square::from_index_unchecked((self.bits() & TO_MASK) as usize % Square::NUM)
    }

    /// Origin square of a board move (meaningless for a drop).
    #[inline]
    pub fn from(self) -> Square {
        Square::from_index_unchecked(((self.bits() >> FROM_SHIFT) & TO_MASK) as usize % Square::NUM)
    }

    /// Whether this is a drop.
    #[inline]
    pub fn is_drop(self) -> bool {
        self.bits() & DROP_BIT != 0
    }

    /// Whether this board move promotes.
    #[inline]
    pub fn is_promotion(self) -> bool {
        self.bits() & PROMOTE_BIT != 0
    }

    /// The dropped kind of a drop; `None` for a board move or a bad kind.
    #[inline]
    pub fn dropped_kind(self) -> Option<PieceType> {
        if !self.is_drop() {
            return None;
        }
        let k = ((self.bits() >> FROM_SHIFT) & TO_MASK) as u8;
        match PieceType::from_u8(k) {
            Some(kind) if kind <= PieceType::Gold => Some(kind),
            _ => None,
        }
    }

    /// Parses USI text (`7g7f`, `8h2b+`, `P*5e`) without looking at a
    /// position: only the syntax is checked here.
    pub fn from_usi(text: &str) -> Option<Move> {
        let b = text.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceType::from_letter(b[0])?;
            if !b[0].is_ascii_uppercase() || kind == PieceType::King {
                return None;
            }
            let to = Square::from_usi(&b[2..4])?;
            return Some(Move::drop(kind, to));
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return None,
        };
        let from = Square::from_usi(&b[0..2])?;
        let to = Square::from_usi(&b[2..4])?;
        if from == to {
            return None;
        }
        Some(Move::normal(from, to, promote))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(kind) = self.dropped_kind() {
            write!(f, "{}*{}", kind.letter(), self.to())
        } else {
            write!(f, "{}{}", self.from(), self.to())?;
            if self.is_promotion() {
                write!(f, "+")?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_text_round_trips() {
        for text in ["7g7f", "8h2b+", "P*5e", "G*1a", "1a9i"] {
            assert_eq!(Move::from_usi(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn malformed_text_is_rejected() {
        for text in [
            "", "7g7", "7g7g", "K*5e", "p*5e", "P*0e", "7g7f=", "7g7f++", "X*5e", "0a1a", "7j7f",
        ] {
            assert!(Move::from_usi(text).is_none(), "{text}");
        }
    }

    #[test]
    fn option_move_is_two_bytes() {
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
    }
}
