//! Rook attacks from two small tables instead of a magic table.
//!
//! A rook's attacks are the union of a file part and a rank part, and each
//! is a one-dimensional slider problem on nine squares: which of the nine
//! it reaches depends on its position along the line (0..9) and on the
//! occupancy of the seven inner squares (the end squares never block
//! anything beyond them). [`LINE_ATTACKS`] answers that problem for all
//! 9 × 128 cases as a 9-bit pattern.
//!
//! - File: the file is nine contiguous bits (1a = bit 0, file-major), so the
//!   inner occupancy is a shift and a mask, and the pattern shifted back
//!   into place is the answer.
//! - Rank: its squares are nine bits apart. After shifting the rank down to
//!   bit 0, the seven inner squares sit on bits `9k` (k = 0..7); multiplying
//!   by [`RANK_GATHER`] (bits `48 - 8j`) moves bit `9k` to `48 + k`. The
//!   partial products land on `48 + 9k - 8j`, all different for k, j in
//!   0..7 (`9(k - a) = 8(j - b)` forces k = a), so nothing carries and bits
//!   48..55 are exactly the occupancy. [`RANK_ATTACKS`] holds the pattern
//!   already spread onto rank `a`, to be shifted down to the rook's rank.
//!
//! The tables take 2.3 KB and 18 KB; an 81-square rook magic table takes
//! about 8 MB, and its lookups miss the cache in a move generator's inner
//! loop.

use crate::bitboard::Bitboard;
use crate::types::Square;

/// Attacks of a slider at `pos` on a line of nine squares whose inner
/// squares 1..8 are occupied as `inner` says (bit `i` = square `i + 1`).
const fn line_attacks(pos: usize, inner: usize) -> u16 {
    let occupied = (inner << 1) as u16;
    let mut bits = 0u16;
    let mut q = pos;
    while q < 8 {
        q += 1;
        bits |= 1 << q;
        if occupied & (1 << q) != 0 {
            break;
        }
    }
    let mut q = pos;
    while q > 0 {
        q -= 1;
        bits |= 1 << q;
        if occupied & (1 << q) != 0 {
            break;
        }
    }
    bits
}

const fn line_table() -> [[u16; 128]; 9] {
    let mut table = [[0; 128]; 9];
    let mut pos = 0;
    while pos < 9 {
        let mut inner = 0;
        while inner < 128 {
            table[pos][inner] = line_attacks(pos, inner);
            inner += 1;
        }
        pos += 1;
    }
    table
}

/// The nine-bit pattern of each file `f` moved to bit `9f`: the pattern laid
/// along rank `a`.
const fn rank_table() -> [[u128; 128]; 9] {
    let mut table = [[0; 128]; 9];
    let mut file = 0;
    while file < 9 {
        let mut inner = 0;
        while inner < 128 {
            let pattern = line_attacks(file, inner);
            let mut bits = 0u128;
            let mut f = 0;
            while f < 9 {
                if pattern & (1 << f) != 0 {
                    bits |= 1 << (9 * f);
                }
                f += 1;
            }
            table[file][inner] = bits;
            inner += 1;
        }
        file += 1;
    }
    table
}

/// `LINE_ATTACKS[pos][inner]`: see the module docs.
static LINE_ATTACKS: [[u16; 128]; 9] = line_table();
/// `RANK_ATTACKS[file][inner]`: rank attacks of a rook on rank `a`.
static RANK_ATTACKS: [[u128; 128]; 9] = rank_table();

/// Bits `9k` for k = 0..7: the inner squares of a rank shifted to bit 0.
const RANK_INNER: u64 = {
    let mut bits = 0u64;
    let mut k = 0;
    while k < 7 {
        bits |= 1 << (9 * k);
        k += 1;
    }
    bits
};

/// Bits `48 - 8j` for j = 0..7; see the module docs.
const RANK_GATHER: u64 = {
    let mut bits = 0u64;
    let mut j = 0;
    while j < 7 {
        bits |= 1 << (48 - 8 * j);
        j += 1;
    }
    bits
};

/// Squares a rook on `sq` attacks given `occupied`.
#[inline]
pub(crate) fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let file = sq.file() as usize;
    let rank = sq.rank() as usize;
    let file_inner = (occupied.0 >> (9 * file + 1)) as usize & 0x7F;
    let file_part = (LINE_ATTACKS[rank][file_inner] as u128) << (9 * file);
    let rank_bits = (occupied.0 >> (rank + 9)) as u64 & RANK_INNER;
    let rank_inner = (rank_bits.wrapping_mul(RANK_GATHER) >> 48) as usize & 0x7F;
    let rank_part = RANK_ATTACKS[file][rank_inner] << rank;
    Bitboard(file_part | rank_part)
}
