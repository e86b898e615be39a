//! Attack sets of every piece, and the geometric helpers (`between`, `line`)
//! that pins and interpositions need.
//!
//! Step attacks and the geometry tables are `const`; the bishop uses the
//! lazily built magic table of [`magic`]; the rook combines a file lookup
//! and a rank lookup in two small `const` tables (`rook.rs`); lance attacks
//! come straight from the file-major layout (a file is nine contiguous bits).

pub mod magic;
mod magic_numbers;
mod rook;

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, PieceType, Square};

pub use magic::sliding_attacks_slow;

/// (file, rank) steps for Black; White's are the same with the rank negated.
const PAWN_STEPS: &[(i8, i8)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i8, i8)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i8, i8)] = &[(0, -1), (-1, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i8, i8)] = &[(0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i8, i8)] = &[
    (0, -1),
    (-1, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (0, 1),
    (-1, 1),
    (1, 1),
];

const fn step_table(steps: &[(i8, i8)]) -> [[Bitboard; 81]; 2] {
    let mut table = [[Bitboard::EMPTY; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 81 {
            let sq = Square::from_index_unchecked(s);
            let mut bits = 0u128;
            let mut i = 0;
            while i < steps.len() {
                let (df, dr) = steps[i];
                let dr = if c == 0 { dr } else { -dr };
                if let Some(to) = sq.offset(df, dr) {
                    bits |= 1u128 << to.index();
                }
                i += 1;
            }
            table[c][s] = Bitboard(bits);
            s += 1;
        }
        c += 1;
    }
    table
}

static PAWN_ATTACKS: [[Bitboard; 81]; 2] = step_table(PAWN_STEPS);
static KNIGHT_ATTACKS: [[Bitboard; 81]; 2] = step_table(KNIGHT_STEPS);
static SILVER_ATTACKS: [[Bitboard; 81]; 2] = step_table(SILVER_STEPS);
static GOLD_ATTACKS: [[Bitboard; 81]; 2] = step_table(GOLD_STEPS);
static KING_ATTACKS: [[Bitboard; 81]; 2] = step_table(KING_STEPS);

/// Empty-board attacks of a slider moving along `steps`, for each square.
const fn ray_table(steps: &[(i8, i8)]) -> [Bitboard; 81] {
    let mut table = [Bitboard::EMPTY; 81];
    let mut s = 0;
    while s < 81 {
        let mut bits = 0u128;
        let mut i = 0;
        while i < steps.len() {
            let (df, dr) = steps[i];
            let mut cur = Square::from_index_unchecked(s);
            while let Some(next) = cur.offset(df, dr) {
                bits |= 1u128 << next.index();
                cur = next;
            }
            i += 1;
        }
        table[s] = Bitboard(bits);
        s += 1;
    }
    table
}

static ROOK_PSEUDO_ATTACKS: [Bitboard; 81] = ray_table(&magic::ROOK_DIRECTIONS);
static BISHOP_PSEUDO_ATTACKS: [Bitboard; 81] = ray_table(&magic::BISHOP_DIRECTIONS);

/// Squares a rook on `sq` attacks on an empty board (its rank and file).
///
/// A cheap filter before a magic lookup: a rook can only be seen from `sq`
/// if it stands on one of these squares.
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    ROOK_PSEUDO_ATTACKS[sq.index()]
}

/// Squares a bishop on `sq` attacks on an empty board (its two diagonals).
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    BISHOP_PSEUDO_ATTACKS[sq.index()]
}

/// Squares a `color` pawn on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN_ATTACKS[color.index()][sq.index()]
}
/// Squares a `color` knight on `sq` attacks.
#[inline]
pub fn knight_attacks(color: Color, sq: Square) -> Bitboard {
    KNIGHT_ATTACKS[color.index()][sq.index()]
}
/// Squares a `color` silver on `sq` attacks.
#[inline]
pub fn silver_attacks(color: Color, sq: Square) -> Bitboard {
    SILVER_ATTACKS[color.index()][sq.index()]
}
/// Squares a `color` gold (or gold-moving promoted piece) on `sq` attacks.
#[inline]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    GOLD_ATTACKS[color.index()][sq.index()]
}
/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING_ATTACKS[0][sq.index()]
}

/// Squares a `color` lance on `sq` attacks given `occupied`.
///
/// The file is nine contiguous bits, so the first blocker is the nearest set
/// bit below (Black) or above (White) the lance's bit within its file.
#[inline]
pub fn lance_attacks(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let base = sq.file() as u32 * 9;
    let rank = sq.rank() as u32;
    let file_occ = ((occupied.0 >> base) & 0x1FF) as u32;
    let ray = match color {
        Color::Black => {
            // Squares of lower rank, down to and including the nearest blocker.
            let below = file_occ & ((1 << rank) - 1);
            let stop = if below == 0 {
                0
            } else {
                31 - below.leading_zeros()
            };
            ((1u32 << rank) - 1) & !((1u32 << stop) - 1)
        }
        Color::White => {
            let above = file_occ & !((2u32 << rank) - 1) & 0x1FF;
            let stop = if above == 0 {
                8
            } else {
                above.trailing_zeros()
            };
            ((2u32 << stop) - 1) & !((2u32 << rank) - 1)
        }
    };
    Bitboard((ray as u128) << base)
}

/// Squares a bishop on `sq` attacks given `occupied`.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic::BISHOP_TABLE.attacks(sq, occupied)
}

/// Squares a rook on `sq` attacks given `occupied`.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook::rook_attacks(sq, occupied)
}

/// Squares a horse (promoted bishop) on `sq` attacks.
#[inline]
pub fn horse_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | king_attacks(sq)
}

/// Squares a dragon (promoted rook) on `sq` attacks.
#[inline]
pub fn dragon_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | king_attacks(sq)
}

/// Squares `piece` on `sq` attacks given `occupied`; empty for no piece.
#[inline]
pub fn piece_attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    let color = piece.color();
    match piece.kind() {
        None => Bitboard::EMPTY,
        Some(kind) => attacks_of(color, kind, sq, occupied),
    }
}

/// Squares a `color` `kind` on `sq` attacks given `occupied`.
#[inline]
pub fn attacks_of(color: Color, kind: PieceType, sq: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceType::Pawn => pawn_attacks(color, sq),
        PieceType::Lance => lance_attacks(color, sq, occupied),
        PieceType::Knight => knight_attacks(color, sq),
        PieceType::Silver => silver_attacks(color, sq),
        PieceType::Bishop => bishop_attacks(sq, occupied),
        PieceType::Rook => rook_attacks(sq, occupied),
        PieceType::King => king_attacks(sq),
        PieceType::Horse => horse_attacks(sq, occupied),
        PieceType::Dragon => dragon_attacks(sq, occupied),
        PieceType::Gold
        | PieceType::ProPawn
        | PieceType::ProLance
        | PieceType::ProKnight
        | PieceType::ProSilver => gold_attacks(color, sq),
    }
}

const fn direction_between(a: Square, b: Square) -> Option<(i8, i8)> {
    let df = b.file() as i8 - a.file() as i8;
    let dr = b.rank() as i8 - a.rank() as i8;
    if df == 0 && dr == 0 {
        None
    } else if df == 0 || dr == 0 || df == dr || df == -dr {
        Some((df.signum(), dr.signum()))
    } else {
        None
    }
}

const fn geometry_tables() -> ([[Bitboard; 81]; 81], [[Bitboard; 81]; 81]) {
    let mut between = [[Bitboard::EMPTY; 81]; 81];
    let mut line = [[Bitboard::EMPTY; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let sa = Square::from_index_unchecked(a);
            let sb = Square::from_index_unchecked(b);
            if let Some((df, dr)) = direction_between(sa, sb) {
                let mut bits = 0u128;
                let mut cur = sa;
                while let Some(next) = cur.offset(df, dr) {
                    if next.index() == b {
                        break;
                    }
                    bits |= 1u128 << next.index();
                    cur = next;
                }
                between[a][b] = Bitboard(bits);
                let mut full = 1u128 << a;
                let mut cur = sa;
                while let Some(next) = cur.offset(df, dr) {
                    full |= 1u128 << next.index();
                    cur = next;
                }
                let mut cur = sa;
                while let Some(next) = cur.offset(-df, -dr) {
                    full |= 1u128 << next.index();
                    cur = next;
                }
                line[a][b] = Bitboard(full);
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static GEOMETRY: ([[Bitboard; 81]; 81], [[Bitboard; 81]; 81]) = geometry_tables();

/// Squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    GEOMETRY.0[a.index()][b.index()]
}

/// The whole board line through `a` and `b` (edge to edge) when they are
/// aligned; empty otherwise.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    GEOMETRY.1[a.index()][b.index()]
}

/// Whether `c` lies on the line through `a` and `b`.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::from_usi(s.as_bytes()).unwrap()
    }

    #[test]
    fn lance_matches_the_ray_walker() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard(
                (seed as u128 | (seed as u128) << 64 | (seed.rotate_left(17) as u128) << 17)
                    & Bitboard::ALL.0,
            );
            for s in Square::all() {
                assert_eq!(
                    lance_attacks(Color::Black, s, occ),
                    sliding_attacks_slow(s, occ, &[(0, -1)]),
                    "black lance on {s}"
                );
                assert_eq!(
                    lance_attacks(Color::White, s, occ),
                    sliding_attacks_slow(s, occ, &[(0, 1)]),
                    "white lance on {s}"
                );
            }
        }
    }

    #[test]
    fn pseudo_attacks_are_empty_board_lookups() {
        for s in Square::all() {
            assert_eq!(rook_pseudo_attacks(s), rook_attacks(s, Bitboard::EMPTY));
            assert_eq!(bishop_pseudo_attacks(s), bishop_attacks(s, Bitboard::EMPTY));
        }
    }

    #[test]
    fn step_attacks_point_forward_for_each_side() {
        assert_eq!(
            pawn_attacks(Color::Black, sq("7g")),
            Bitboard::from_square(sq("7f"))
        );
        assert_eq!(
            pawn_attacks(Color::White, sq("3c")),
            Bitboard::from_square(sq("3d"))
        );
        assert_eq!(knight_attacks(Color::Black, sq("8i")).count(), 2);
        assert_eq!(
            knight_attacks(Color::Black, sq("9i")),
            Bitboard::from_square(sq("8g"))
        );
        assert!(knight_attacks(Color::Black, sq("5b")).is_empty());
        assert_eq!(gold_attacks(Color::Black, sq("5e")).count(), 6);
        assert_eq!(silver_attacks(Color::White, sq("5e")).count(), 5);
        assert_eq!(king_attacks(sq("1a")).count(), 3);
    }

    #[test]
    fn between_and_line_cover_the_geometry() {
        assert_eq!(between(sq("1a"), sq("1i")).count(), 7);
        assert_eq!(between(sq("1a"), sq("9i")).count(), 7);
        assert!(between(sq("1a"), sq("2c")).is_empty());
        assert_eq!(line(sq("5e"), sq("5a")).count(), 9);
        assert!(aligned(sq("1a"), sq("5e"), sq("9i")));
        assert!(!aligned(sq("1a"), sq("5e"), sq("9h")));
    }
}
