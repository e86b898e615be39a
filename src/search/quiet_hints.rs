//! What a node knows about its quiet moves and drops before any history:
//! which squares give check, which attack a dearer enemy piece, which the
//! enemy's cheaper pieces attack, and what a promotion gains. Drops make
//! quiet moves many (often over a hundred), so ordering them by history
//! alone leaves the obvious ones (checks, forks, promotions, saving an
//! attacked rook, not dropping a piece where a pawn takes it) too late.

use crate::attacks::attacks_of;
use crate::bitboard::Bitboard;
use crate::eval::piece_value;
use crate::moves::Move;
use crate::position::Position;
use crate::types::PieceType;

/// Ordering bonus of a quiet move or drop that gives check directly.
const CHECK_BONUS: i32 = 8_000;
/// Per value class: bonus for moving a piece out of an attack by a cheaper
/// enemy piece, and penalty for moving or dropping it into one.
const THREAT_UNIT: i32 = 4_000;

/// Ordering bonus of a quiet move or drop that attacks an enemy piece of
/// a dearer class (a pawn dropped on a silver, a knight fork).
const ATTACK_BONUS: i32 = 4_000;

/// Ordering bonus of a promotion without capture, per centipawn the
/// piece gains: these moves get no history (they are not quiet to the
/// search), so without it a dragon or a tokin waits behind the drops.
const PROMOTION_SCALE: i32 = 20;

/// Value classes, cheapest first.
const CLASSES: usize = 5;

/// Value class of a kind: pawn 0, lance and knight 1, silver and the
/// gold-likes 2, bishop and rook 3, horse and dragon 4 (the king has none).
const fn class(kind: PieceType) -> Option<usize> {
    match kind {
        PieceType::Pawn => Some(0),
        PieceType::Lance | PieceType::Knight => Some(1),
        PieceType::Bishop | PieceType::Rook => Some(3),
        PieceType::Horse | PieceType::Dragon => Some(4),
        PieceType::King => None,
        _ => Some(2),
    }
}

/// Check squares and threats of one node, for scoring its quiet moves.
pub struct QuietHints {
    /// Squares from which a piece of each kind (by [`PieceType::index`])
    /// would attack the enemy king.
    check_squares: [Bitboard; PieceType::NUM],
    /// By class: squares attacked by an enemy piece of a cheaper class.
    attacked_by_cheaper: [Bitboard; CLASSES],
    /// By kind: squares from which a piece of that kind would attack an
    /// enemy piece of a dearer class.
    attack_squares: [Bitboard; PieceType::NUM],
}

impl QuietHints {
    /// The hints for the side to move of `pos`.
    pub fn new(pos: &Position) -> QuietHints {
        let us = pos.side_to_move();
        let them = us.flip();
        let occupied = pos.occupied();
        let enemy_king = pos.king_square(them);

        // A piece of ours attacks the king from exactly the squares an
        // enemy piece of the same kind on the king's square would attack.
        let mut check_squares = [Bitboard::EMPTY; PieceType::NUM];
        let gold_checks = attacks_of(them, PieceType::Gold, enemy_king, occupied);
        // A king-less side (tsume attacker) cannot be checked.
        let can_check = pos.has_king(them);
        for kind in PieceType::ALL {
            check_squares[kind.index()] = match class(kind) {
                _ if !can_check => Bitboard::EMPTY,
                None => Bitboard::EMPTY,
                Some(_) if kind.moves_like_gold() => gold_checks,
                Some(_) => attacks_of(them, kind, enemy_king, occupied),
            };
        }

        // The same trick finds where a piece of ours attacks a dearer
        // enemy: from the squares that enemy, were it of our kind, attacks.
        let mut dearer_targets = [Bitboard::EMPTY; CLASSES];
        for kind in PieceType::ALL {
            if let Some(c @ 1..) = class(kind) {
                for cheaper in &mut dearer_targets[..c] {
                    *cheaper |= pos.pieces(them, kind);
                }
            }
        }
        let attacked_from = |kind: PieceType, targets: Bitboard| {
            targets.into_iter().fold(Bitboard::EMPTY, |squares, sq| {
                squares | attacks_of(them, kind, sq, occupied)
            })
        };
        let gold_attacks = attacked_from(PieceType::Gold, dearer_targets[2]);
        let mut attack_squares = [Bitboard::EMPTY; PieceType::NUM];
        for kind in PieceType::ALL {
            attack_squares[kind.index()] = match class(kind) {
                None => Bitboard::EMPTY,
                Some(0) => dearer_targets[0].shift_forward(them),
                Some(_) if kind.moves_like_gold() => gold_attacks,
                Some(c) => attacked_from(kind, dearer_targets[c]),
            };
        }

        let mut attacked_by_class = [Bitboard::EMPTY; CLASSES];
        let pawns = pos.pieces(them, PieceType::Pawn);
        attacked_by_class[0] = pawns.shift_forward(them);
        for kind in PieceType::ALL {
            // Pawns are done above; a horse or dragon is never the
            // cheaper piece of a threat.
            let Some(c @ 1..=3) = class(kind) else {
                continue;
            };
            let mut pieces = pos.pieces(them, kind);
            while let Some(sq) = pieces.pop() {
                attacked_by_class[c] |= attacks_of(them, kind, sq, occupied);
            }
        }
        let mut attacked_by_cheaper = [Bitboard::EMPTY; CLASSES];
        for c in 1..CLASSES {
            attacked_by_cheaper[c] = attacked_by_cheaper[c - 1] | attacked_by_class[c - 1];
        }
        QuietHints {
            check_squares,
            attacked_by_cheaper,
            attack_squares,
        }
    }

    /// Ordering bonus of quiet `m`, which leaves `kind` on its destination.
    #[inline]
    pub fn bonus(&self, m: Move, kind: PieceType) -> i32 {
        let to = m.to();
        let mut score = 0;
        if m.is_promotion() {
            score += PROMOTION_SCALE * (piece_value(kind) - piece_value(kind.unpromote()));
        }
        if self.check_squares[kind.index()].contains(to) {
            score += CHECK_BONUS;
        }
        if self.attack_squares[kind.index()].contains(to) {
            score += ATTACK_BONUS;
        }
        if let Some(c @ 1..) = class(kind) {
            let threats = self.attacked_by_cheaper[c];
            let stake = THREAT_UNIT * c as i32;
            if threats.contains(to) {
                score -= stake;
            } else if !m.is_drop() && threats.contains(m.from()) {
                score += stake;
            }
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bonus(sfen: &str, usi: &str) -> i32 {
        let pos = Position::from_sfen(sfen).unwrap();
        let m = Move::from_usi(usi).unwrap();
        assert!(pos.is_legal(m), "{usi} in {sfen}");
        let kind = pos.moved_kind(m);
        QuietHints::new(&pos).bonus(m, kind)
    }

    #[test]
    fn checks_by_drop_and_by_move_score_the_check_bonus() {
        let sfen = "4k4/9/9/9/9/9/9/9/4K2R1 b G 1";
        assert_eq!(bonus(sfen, "G*5b"), CHECK_BONUS);
        assert_eq!(bonus(sfen, "2i3i"), 0);
        assert_eq!(bonus(sfen, "2i2a"), CHECK_BONUS);
        assert_eq!(bonus(sfen, "G*5h"), 0);
    }

    #[test]
    fn escaping_a_cheaper_attacker_scores_and_walking_into_one_costs() {
        // White's pawn on 3d attacks 3e, where Black's rook stands.
        let sfen = "4k4/9/9/6p2/6R2/9/9/9/4K4 b - 1";
        let rook_stake = THREAT_UNIT * 3;
        assert_eq!(bonus(sfen, "3e4e"), rook_stake, "out of the pawn's reach");
        let into_pawn = "4k4/9/9/6p2/9/9/9/9/4K2R1 b - 1";
        assert_eq!(bonus(into_pawn, "2i2e"), 0);
        let pawn_guarded = "4k4/9/9/6p2/9/9/9/9/4K1R2 b - 1";
        assert_eq!(bonus(pawn_guarded, "3i3e"), -rook_stake);
        // A drop into a pawn's attack costs just the same.
        assert_eq!(
            bonus("4k4/9/9/6p2/9/9/9/9/4K4 b S 1", "S*3e"),
            -THREAT_UNIT * 2
        );
    }

    #[test]
    fn a_promotion_scores_what_the_piece_gains() {
        let sfen = "4k4/9/9/9/9/9/9/9/4K2R1 b - 1";
        let gain = piece_value(PieceType::Dragon) - piece_value(PieceType::Rook);
        assert_eq!(bonus(sfen, "2i2c+"), PROMOTION_SCALE * gain);
        assert_eq!(bonus(sfen, "2i2c"), 0);
    }

    #[test]
    fn attacking_a_dearer_piece_scores_the_attack_bonus() {
        // White's silver on 3d: a pawn dropped below it attacks it.
        let sfen = "4k4/9/9/6s2/9/9/9/9/4K4 b PG 1";
        assert_eq!(bonus(sfen, "P*3e"), ATTACK_BONUS);
        // A gold there attacks a piece of its own class: no bonus, and
        // the silver is no cheaper threat to it either.
        assert_eq!(bonus(sfen, "G*3e"), 0);
        assert_eq!(bonus(sfen, "P*7e"), 0);
    }
}
