//! Correction history: how far the static evaluation has been from search
//! results in positions that share a structure, used to correct the next
//! static evaluation of such a position.
//!
//! The evaluation is linear, so it misjudges whole families of positions
//! the same way (a castle it rates too highly, a pawn formation whose
//! weakness only shows a few moves deep). Two tables keep a running mean
//! of `search score - static eval`, one keyed by both sides' pawns, one by
//! each side's king and the golds and silvers of its camp (the castle);
//! their average is added to the evaluation the search prunes with.

use crate::bitboard::Bitboard;
use crate::eval::EVAL_LIMIT;
use crate::position::Position;
use crate::types::{Color, PieceType};

/// Entries per side and table (a power of two).
const SIZE: usize = 1 << 14;
/// Entries hold the mean error times GRAIN, for resolution.
const GRAIN: i32 = 256;
/// Corrections stay within ±LIMIT (evaluation units).
const LIMIT: i32 = 240;
/// Weight of one new sample, out of WEIGHT_SCALE, grows with depth up to
/// this (deeper results are worth more).
const MAX_WEIGHT: i32 = 16;
const WEIGHT_SCALE: i32 = 256;

/// Keys of the two structures of a position, from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    pawns: usize,
    castles: usize,
}

/// Mixes two bitboards into a table index.
#[inline]
fn mix(a: Bitboard, b: Bitboard) -> usize {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
    ];
    let h = (a.0 as u64).wrapping_mul(K[0])
        ^ ((a.0 >> 64) as u64).wrapping_mul(K[1])
        ^ (b.0 as u64).wrapping_mul(K[2])
        ^ ((b.0 >> 64) as u64).wrapping_mul(K[3]);
    (h >> 32) as usize & (SIZE - 1)
}

/// `color`'s king, golds, silvers and promoted minor pieces in its own camp.
fn castle(pos: &Position, color: Color) -> Bitboard {
    use PieceType::*;
    let defenders = [Gold, Silver, ProPawn, ProLance, ProKnight, ProSilver]
        .into_iter()
        .fold(pos.pieces(color, King), |acc, kind| {
            acc | pos.pieces(color, kind)
        });
    defenders & Bitboard::promotion_zone(!color)
}

impl CorrectionKeys {
    pub fn new(pos: &Position) -> CorrectionKeys {
        let us = pos.side_to_move();
        let them = !us;
        CorrectionKeys {
            pawns: mix(
                pos.pieces(us, PieceType::Pawn),
                pos.pieces(them, PieceType::Pawn),
            ),
            castles: mix(castle(pos, us), castle(pos, them)),
        }
    }
}

/// The correction tables of one thread.
pub struct CorrectionHistory {
    pawns: Vec<i32>,
    castles: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawns: vec![0; 2 * SIZE],
            castles: vec![0; 2 * SIZE],
        }
    }
}

impl CorrectionHistory {
    pub fn clear(&mut self) {
        self.pawns.fill(0);
        self.castles.fill(0);
    }

    #[inline]
    fn slot(us: Color, index: usize) -> usize {
        us.index() * SIZE + index
    }

    /// Amount to add to the side to move's (`us`) static evaluation.
    #[inline]
    fn correction(&self, us: Color, keys: CorrectionKeys) -> i32 {
        let pawns = self.pawns[Self::slot(us, keys.pawns)];
        let castles = self.castles[Self::slot(us, keys.castles)];
        (pawns + castles) / (2 * GRAIN)
    }

    /// The side to move's `raw` static evaluation plus its correction, kept
    /// inside the evaluation's range so that no corrected score looks like
    /// a mate.
    #[inline]
    pub fn corrected(&self, us: Color, keys: CorrectionKeys, raw: i32) -> i32 {
        (raw + self.correction(us, keys)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Records that a search of `depth` scored `error` above the static
    /// evaluation.
    pub fn update(&mut self, us: Color, keys: CorrectionKeys, depth: i32, error: i32) {
        let weight = (depth + 1).min(MAX_WEIGHT);
        let target = error.clamp(-LIMIT, LIMIT) * GRAIN;
        for entry in [
            &mut self.pawns[Self::slot(us, keys.pawns)],
            &mut self.castles[Self::slot(us, keys.castles)],
        ] {
            *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_repeated_errors_within_the_limit() {
        let pos = Position::startpos();
        let keys = CorrectionKeys::new(&pos);
        let us = pos.side_to_move();
        let mut table = CorrectionHistory::default();
        assert_eq!(table.correction(us, keys), 0);
        for _ in 0..200 {
            table.update(us, keys, 10, 100);
        }
        let c = table.correction(us, keys);
        assert!((95..=100).contains(&c), "{c}");
        // The other side's tables are untouched.
        assert_eq!(table.correction(!us, keys), 0);
        for _ in 0..400 {
            table.update(us, keys, 20, -10_000);
        }
        assert!((-LIMIT..=-LIMIT + 5).contains(&table.correction(us, keys)));
        table.clear();
        assert_eq!(table.correction(us, keys), 0);
    }

    #[test]
    fn keys_depend_on_pawns_and_castles_only() {
        let a =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap();
        // Rooks moved: same pawns and castles.
        let b =
            Position::from_sfen("lnsgkgsnl/5r1b1/ppppppppp/9/9/9/PPPPPPPPP/1B3R3/LNSGKGSNL b - 1")
                .unwrap();
        // A silver moved inside the camp: same pawns, other castle.
        let c = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B3S1R1/LNSGKG1NL b - 1",
        )
        .unwrap();
        let (ka, kb, kc) = (
            CorrectionKeys::new(&a),
            CorrectionKeys::new(&b),
            CorrectionKeys::new(&c),
        );
        assert_eq!(ka, kb);
        assert_eq!(ka.pawns, kc.pawns);
        assert_ne!(ka.castles, kc.castles);
    }
}
