//! Pieces in hand, packed into one `u32`.
//!
//! ```text
//! bit  0..5   pawns   (0..=18)      bit 5  borrow guard
//! bit  6..9   lances  (0..=4)       bit 9  borrow guard
//! bit 10..13  knights (0..=4)       bit 13 borrow guard
//! bit 14..17  silvers (0..=4)       bit 17 borrow guard
//! bit 18..21  golds   (0..=4)       bit 21 borrow guard
//! bit 22..24  bishops (0..=2)       bit 24 borrow guard
//! bit 25..27  rooks   (0..=2)       bit 27 borrow guard
//! ```
//!
//! Each count has a spare bit above it, so `a - b` borrows into a guard bit
//! exactly when some count of `b` exceeds the same count of `a`: that makes
//! the "equal or superior hand" test used by repetition and tsume code a
//! single subtraction (YaneuraOu's trick).

use crate::types::PieceType;

/// Counts of the seven kinds a player can hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

const SHIFT: [u32; 8] = [0, 0, 6, 10, 14, 22, 25, 18];
const WIDTH_MASK: [u32; 8] = [0, 0x1F, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
const BORROW_MASK: u32 = 1 << 5 | 1 << 9 | 1 << 13 | 1 << 17 | 1 << 21 | 1 << 24 | 1 << 27;

/// Most pieces of each kind a hand can hold (all of that kind in the game).
pub const MAX_IN_HAND: [u32; 8] = [0, 18, 4, 4, 4, 2, 2, 4];

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// How many of `kind` (an unpromoted non-king kind) the hand holds.
    #[inline]
    pub const fn count(self, kind: PieceType) -> u32 {
        let k = kind as usize;
        (self.0 >> SHIFT[k]) & WIDTH_MASK[k]
    }

    /// Whether the hand holds at least one `kind`.
    #[inline]
    pub const fn has(self, kind: PieceType) -> bool {
        self.count(kind) != 0
    }

    /// Adds one `kind`; the caller keeps counts within [`MAX_IN_HAND`].
    #[inline]
    pub fn add(&mut self, kind: PieceType) {
        debug_assert!(self.count(kind) < MAX_IN_HAND[kind as usize]);
        self.0 += 1 << SHIFT[kind as usize];
    }

    /// Removes one `kind`; the caller knows the hand holds one.
    #[inline]
    pub fn remove(&mut self, kind: PieceType) {
        debug_assert!(self.has(kind));
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// Sets the count of `kind`; returns `false` (unchanged) if above the maximum.
    pub fn set(&mut self, kind: PieceType, n: u32) -> bool {
        let k = kind as usize;
        if n > MAX_IN_HAND[k] {
            return false;
        }
        self.0 = (self.0 & !(WIDTH_MASK[k] << SHIFT[k])) | n << SHIFT[k];
        true
    }

    /// Whether the hand holds nothing.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether this hand holds at least as many of every kind as `other`.
    #[inline]
    pub const fn is_superior_or_equal(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW_MASK == 0
    }

    /// Whether the hand holds anything but pawns (pawns take the lowest
    /// field, and its guard bit is clear in a valid hand).
    #[inline]
    pub const fn has_non_pawn(self) -> bool {
        self.0 >> SHIFT[PieceType::Lance as usize] != 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceType::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// Raw packed value.
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_pawn_pieces_are_told_from_pawns() {
        let mut h = Hand::EMPTY;
        assert!(!h.has_non_pawn());
        for _ in 0..18 {
            h.add(PieceType::Pawn);
        }
        assert!(!h.has_non_pawn());
        for kind in PieceType::HAND
            .into_iter()
            .filter(|&k| k != PieceType::Pawn)
        {
            let mut with = h;
            with.add(kind);
            assert!(with.has_non_pawn(), "{kind:?}");
        }
    }

    #[test]
    fn counts_are_independent() {
        let mut h = Hand::EMPTY;
        for _ in 0..18 {
            h.add(PieceType::Pawn);
        }
        for _ in 0..2 {
            h.add(PieceType::Rook);
        }
        h.add(PieceType::Gold);
        assert_eq!(h.count(PieceType::Pawn), 18);
        assert_eq!(h.count(PieceType::Rook), 2);
        assert_eq!(h.count(PieceType::Gold), 1);
        assert_eq!(h.count(PieceType::Bishop), 0);
        assert_eq!(h.total(), 21);
        h.remove(PieceType::Pawn);
        assert_eq!(h.count(PieceType::Pawn), 17);
    }

    #[test]
    fn superiority_needs_every_count() {
        let mut a = Hand::EMPTY;
        let mut b = Hand::EMPTY;
        a.add(PieceType::Pawn);
        a.add(PieceType::Silver);
        b.add(PieceType::Pawn);
        assert!(a.is_superior_or_equal(b));
        assert!(!b.is_superior_or_equal(a));
        b.add(PieceType::Rook);
        assert!(!a.is_superior_or_equal(b));
        assert!(a.is_superior_or_equal(a));
        assert!(a.is_superior_or_equal(Hand::EMPTY));
    }
}
