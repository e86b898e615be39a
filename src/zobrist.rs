//! Zobrist keys: piece on square, count of each kind in hand, side to move.
//!
//! Keys come from the `const` [`xorshift64`] generator, so they are the same
//! in every build and need no initialisation. Bit 0 of every piece and hand key is
//! clear and the side key is exactly 1, so `key & 1` tells the side to move.

use crate::hand::MAX_IN_HAND;
use crate::types::{Color, Piece, PieceType, Square};
use crate::util::rng::xorshift64;

const fn piece_square_keys() -> [[u64; 81]; Piece::NUM] {
    let mut keys = [[0u64; 81]; Piece::NUM];
    let mut state = 0x4F1B_BCDC_BFA5_3E0Bu64;
    let mut p = 0;
    while p < Piece::NUM {
        let mut s = 0;
        while s < 81 {
            state = xorshift64(state);
            keys[p][s] = state & !1;
            s += 1;
        }
        p += 1;
    }
    keys
}

const fn hand_keys() -> [[[u64; 19]; 8]; 2] {
    let mut keys = [[[0u64; 19]; 8]; 2];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut c = 0;
    while c < 2 {
        let mut k = 1;
        while k < 8 {
            let mut n = 1;
            while n <= MAX_IN_HAND[k] as usize {
                state = xorshift64(state);
                keys[c][k][n] = state & !1;
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    keys
}

static PIECE_SQUARE: [[u64; 81]; Piece::NUM] = piece_square_keys();
static HAND: [[[u64; 19]; 8]; 2] = hand_keys();

/// Key toggled when the side to move changes.
pub const SIDE: u64 = 1;

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

/// Key of `color` holding exactly `count` of `kind` (0 for a count of zero).
#[inline]
pub fn hand(color: Color, kind: PieceType, count: u32) -> u64 {
    HAND[color.index()][kind.index()][count as usize]
}
