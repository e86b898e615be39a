//! A set of squares as a 128-bit integer (bits 0..81 used).
//!
//! Operators are set operations: `|` union, `&` intersection, `^` symmetric
//! difference, `-` difference, `!` complement within the board.
//!
//! ```
//! use gyoku::{Bitboard, Square};
//! let a = Bitboard::from_square(Square::new(0, 0)) | Bitboard::from_square(Square::new(8, 8));
//! assert_eq!(a.count(), 2);
//! assert_eq!((a - Bitboard::from_square(Square::new(0, 0))).count(), 1);
//! assert_eq!((!a).count(), 79);
//! ```

use crate::types::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of board squares; see the module docs for the layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const BOARD_BITS: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(BOARD_BITS);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// All squares of `file` (0..9).
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x1FFu128 << (file as u32 * 9))
    }

    /// All squares of `rank` (0..9).
    pub const fn rank(rank: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut f = 0;
        while f < 9 {
            bits |= 1u128 << (f * 9 + rank as u32);
            f += 1;
        }
        Bitboard(bits)
    }

    /// Squares whose rank relative to `color` is below `n` (the `n` far ranks).
    pub const fn far_ranks(color: Color, n: u8) -> Bitboard {
        let mut bits = 0u128;
        let mut r = 0;
        while r < n {
            let rank = match color {
                Color::Black => r,
                Color::White => 8 - r,
            };
            bits |= Self::rank(rank).0;
            r += 1;
        }
        Bitboard(bits)
    }

    /// `color`'s promotion zone (its three far ranks).
    #[inline]
    pub const fn promotion_zone(color: Color) -> Bitboard {
        match color {
            Color::Black => BLACK_ZONE,
            Color::White => WHITE_ZONE,
        }
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of a non-empty set.
    #[inline]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index_unchecked(self.0.trailing_zeros() as usize)
    }

    /// Removes and returns the lowest square.
    #[inline]
    pub fn pop(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    /// The set moved one rank towards rank `a` (Black's forward direction).
    /// Squares on rank `a` wrap into the previous file, so callers mask them off first.
    #[inline]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 >> 1)
    }

    /// The set moved one rank towards rank `i` (White's forward direction),
    /// with the same wrapping caveat as [`Bitboard::shift_up`].
    #[inline]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard((self.0 << 1) & BOARD_BITS)
    }

    /// The set moved one rank towards `color`'s far side: where that
    /// side's pawns on these squares attack (and move). The wrapping
    /// caveat of [`Bitboard::shift_up`] holds; pawns never stand on the
    /// far rank, so a pawn set needs no mask.
    #[inline]
    pub const fn shift_forward(self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.shift_up(),
            Color::White => self.shift_down(),
        }
    }

    /// Set with the square added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    /// Set with the square removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// Union of two sets, usable in `const` contexts.
    #[inline]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }
}

const BLACK_ZONE: Bitboard = Bitboard::far_ranks(Color::Black, 3);
const WHITE_ZONE: Bitboard = Bitboard::far_ranks(Color::White, 3);

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_BITS)
    }
}
impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}
impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}
impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl std::fmt::Display for Bitboard {
    /// Draws the board as Black sees it: file 9 on the left, rank `a` on top.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in 0..9 {
            for file in (0..9).rev() {
                let c = if self.contains(Square::new(file, rank)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_ranks_partition_the_board() {
        let mut files = Bitboard::EMPTY;
        let mut ranks = Bitboard::EMPTY;
        for i in 0..9 {
            files |= Bitboard::file(i);
            ranks |= Bitboard::rank(i);
            assert_eq!(Bitboard::file(i).count(), 9);
            assert_eq!(Bitboard::rank(i).count(), 9);
        }
        assert_eq!(files, Bitboard::ALL);
        assert_eq!(ranks, Bitboard::ALL);
    }

    #[test]
    fn promotion_zones_are_three_far_ranks() {
        let zone = Bitboard::promotion_zone(Color::Black);
        assert_eq!(zone.count(), 27);
        assert!(zone.contains(Square::from_usi(b"5c").unwrap()));
        assert!(!zone.contains(Square::from_usi(b"5d").unwrap()));
        let zone = Bitboard::promotion_zone(Color::White);
        assert!(zone.contains(Square::from_usi(b"5g").unwrap()));
        assert!(!zone.contains(Square::from_usi(b"5f").unwrap()));
    }

    #[test]
    fn iteration_yields_squares_in_order() {
        let bb =
            Bitboard::from_square(Square::new(3, 4)) | Bitboard::from_square(Square::new(0, 1));
        let squares: Vec<_> = bb.collect();
        assert_eq!(squares, vec![Square::new(0, 1), Square::new(3, 4)]);
    }
}
