//! Checking moves, tested with per-position tables instead of per-move
//! attack computations: the tsume solver keeps only the checks at every
//! attacker node, and calling [`Position::gives_check`] on each legal move
//! (a slider attack per move, a discovery scan for many) was its second
//! largest cost.
//!
//! A move gives check when its piece (promoted or not) lands on a square
//! from which that kind attacks the enemy king, or when it leaves the line
//! between one of our sliders and that king. The first set is computed
//! once per kind with the occupancy before the move. That is exact: the
//! only square the move empties is `from`, and `from` can only matter if it
//! lies between `to` and the king, which means the piece moved straight
//! away from the king along that line. It did not give check before (the
//! defender is never in check at the attacker's turn), so something still
//! stands between, and it does not give check after.

use crate::attacks::{self, line};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{PieceType, Square};

/// What [`CheckTest::gives_check`] needs to know about a position.
#[derive(Clone, Debug)]
pub struct CheckTest {
    /// The enemy king; `None` when there is none (then nothing checks).
    king: Option<Square>,
    /// Per piece kind, the squares from which our piece of that kind
    /// attacks the enemy king.
    direct: [Bitboard; PieceType::NUM],
    /// Our pieces that alone block one of our sliders from the enemy king.
    discoverers: Bitboard,
}

impl CheckTest {
    /// Whether `m`, a legal move in `pos` (the position this test was made
    /// for), gives check. Always equal to [`Position::gives_check`].
    #[inline]
    pub fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let Some(ksq) = self.king else {
            return false;
        };
        let to = m.to();
        if self.direct[pos.moved_kind(m).index()].contains(to) {
            return true;
        }
        !m.is_drop() && self.discoverers.contains(m.from()) && !line(ksq, m.from()).contains(to)
    }
}

impl Position {
    /// The tables for testing many moves of this position for check.
    pub fn check_test(&self) -> CheckTest {
        let us = self.side;
        let them = us.flip();
        let mut test = CheckTest {
            king: None,
            direct: [Bitboard::EMPTY; PieceType::NUM],
            discoverers: Bitboard::EMPTY,
        };
        if !self.has_king(them) {
            return test;
        }
        let ksq = self.kings[them.index()];
        let occ = self.occupied();
        test.king = Some(ksq);
        for kind in PieceType::ALL {
            if kind != PieceType::King {
                // Where a piece of ours attacks `ksq` from is where the same
                // kind of theirs on `ksq` would attack.
                test.direct[kind.index()] = attacks::attacks_of(them, kind, ksq, occ);
            }
        }
        test.discoverers = self.line_blockers(them) & self.by_color[us.index()];
        test
    }

    /// The legal moves that give check.
    pub fn legal_checks(&self) -> MoveList {
        let test = self.check_test();
        let mut list = self.legal_moves();
        list.retain(|m| test.gives_check(self, *m));
        list
    }
}

#[cfg(test)]
mod tests {
    use crate::movegen::sample::sample_positions;
    use crate::position::Position;

    #[test]
    fn check_test_agrees_with_gives_check() {
        let mut checked = 0;
        let sfens = [
            // Discoveries by lance, rook and bishop, with promotions.
            "4k4/9/4S4/9/4L4/9/9/9/4K4 b - 1",
            "4k4/9/4G4/9/4R4/9/9/9/4K4 b - 1",
            "8k/7s1/9/5B3/9/9/9/9/K8 b SGNLP 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "3+P+P+P+P+L1/1g7/1n2ppppk/2+Psg+p+R1s/+b+nL6/1PP+B1s1P1/4+Ps3/4+P1P2/6G1g b Lr2nl2p 1",
        ];
        let mut positions: Vec<Position> = sfens
            .iter()
            .map(|s| Position::from_tsume_sfen(s).unwrap())
            .collect();
        positions.extend(sample_positions(400, 7));
        for pos in &positions {
            let test = pos.check_test();
            let mut list = Vec::new();
            for m in pos.legal_moves() {
                assert_eq!(
                    test.gives_check(pos, m),
                    pos.gives_check(m),
                    "{} {m}",
                    pos.to_sfen()
                );
                checked += 1;
                if pos.gives_check(m) {
                    list.push(m);
                }
            }
            assert_eq!(pos.legal_checks().to_vec(), list, "{}", pos.to_sfen());
        }
        assert!(checked > 10_000, "only {checked} moves tested");
    }
}
