//! A fast, exact (but not complete) mate-in-one test for interior nodes.
//!
//! Only moves and drops landing next to the enemy king, or on a square
//! from which a knight would check it, are tried: those are nearly all
//! shogi one-move mates, and the short list keeps the test cheap. Each
//! candidate that gives check is played and the reply list checked empty.
//! Candidates come from the legal generator, so an illegal pawn-drop mate
//! (uchifuzume) is never reported.

use crate::attacks;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// A move that checkmates at once, if one lands near the enemy king.
/// Must not be called in check (evasions are never one-move mates here).
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    debug_assert!(!pos.in_check());
    let us = pos.side_to_move();
    if !pos.has_king(us.flip()) {
        return None;
    }
    let ksq = pos.king_square(us.flip());
    // A knight of `us` on these squares would attack `ksq`.
    let targets = attacks::king_attacks(ksq) | attacks::knight_attacks(us.flip(), ksq);
    let mut candidates = MoveList::new();
    pos.generate_legal_onto(&mut candidates, targets);
    for m in candidates {
        if !pos.gives_check(m) {
            continue;
        }
        pos.do_move(m);
        let mated = !pos.has_legal_move();
        pos.undo_move(m);
        if mated {
            return Some(m);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate(sfen: &str) -> Option<String> {
        let mut pos = Position::from_sfen(sfen).unwrap();
        mate_in_one(&mut pos).map(|m| m.to_string())
    }

    #[test]
    fn finds_a_gold_drop_mate() {
        // White king 5a, black pawn 5c: G*5b mates (protected by the pawn).
        assert_eq!(
            mate("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").as_deref(),
            Some("G*5b")
        );
    }

    #[test]
    fn never_reports_a_pawn_drop_mate() {
        assert_eq!(mate("7lk/9/8S/9/9/9/9/7L1/8K b P 1"), None);
    }

    /// Every mate reported along random games is a real one, and the
    /// test does find some.
    #[test]
    fn reported_mates_are_checkmates() {
        let mut rng = crate::util::rng::SplitMix64::new(12345);
        let mut found = 0;
        for _game in 0..1000 {
            let mut pos = Position::startpos();
            for _ply in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !pos.in_check() {
                    if let Some(m) = mate_in_one(&mut pos) {
                        found += 1;
                        pos.do_move(m);
                        // Full generation, independent of has_legal_move,
                        // which both mate_in_one and is_checkmate rely on.
                        let mated = pos.in_check() && pos.legal_moves().is_empty();
                        assert!(mated, "{m} does not mate");
                        pos.undo_move(m);
                    }
                }
                pos.do_move(moves[rng.below(moves.len())]);
            }
        }
        assert!(found > 100, "only {found} mates found");
    }

    #[test]
    fn no_mate_in_the_start_position() {
        assert_eq!(mate(crate::position::START_SFEN), None);
    }
}
