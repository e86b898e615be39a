//! Static exchange evaluation: does a move win at least `threshold` once
//! every piece that can recapture on its square has done so, cheapest
//! first? Promotions on the way and pins are ignored, which is the usual
//! trade of accuracy for speed.
//!
//! A capture in shogi swings the material twice: the victim leaves the
//! board and joins the captor's hand (unpromoted). Exchanges are counted
//! in those swings, so a promoted pawn traded for a silver is the gain it
//! is, and the thresholds compare with evaluation differences.

use crate::eval::{hand_value, piece_value};
use crate::moves::Move;
use crate::position::Position;
use crate::types::PieceType;

/// Kinds in the order a recapturing side would spend them (cheapest first).
const CAPTURE_ORDER: [PieceType; 14] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::ProPawn,
    PieceType::ProLance,
    PieceType::ProKnight,
    PieceType::Silver,
    PieceType::ProSilver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Horse,
    PieceType::Dragon,
    PieceType::King,
];

/// What losing a piece of `kind` costs its owner: its value on the board
/// plus what the captor gains in hand.
#[inline]
pub const fn exchange_value(kind: PieceType) -> i32 {
    match kind {
        PieceType::King => 0,
        _ => piece_value(kind) + hand_value(kind.unpromote()),
    }
}

/// Material swing of what `m` captures (0 for drops and quiet moves).
#[inline]
pub fn captured_value(pos: &Position, m: Move) -> i32 {
    if m.is_drop() {
        return 0;
    }
    pos.piece_on(m.to()).kind().map_or(0, exchange_value)
}

/// Whether `m` (legal in `pos`) wins at least `threshold` in the exchange
/// it starts on its destination square.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let mut swap = captured_value(pos, m) - threshold;
    if swap < 0 {
        return false;
    }
    let mover = pos.moved_kind(m);
    if mover == PieceType::King {
        // The king moved only to a safe square: nothing can recapture.
        return true;
    }
    swap = exchange_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied().with(to);
    if !m.is_drop() {
        occupied = occupied.without(m.from());
    }
    let mut stm = pos.side_to_move();
    // 1 while the side that made the last capture is ahead of the threshold.
    let mut result = true;
    loop {
        stm = stm.flip();
        // Recomputing attackers against the shrinking occupancy reveals
        // sliders hidden behind pieces that already captured.
        let attackers = pos.attackers_to(stm, to, occupied) & occupied;
        if attackers.is_empty() {
            break;
        }
        result = !result;
        let Some((kind, from)) = CAPTURE_ORDER.iter().find_map(|&kind| {
            let bb = attackers & pos.pieces(stm, kind);
            bb.is_nonempty().then(|| (kind, bb.lsb()))
        }) else {
            break;
        };
        if kind == PieceType::King {
            // The king may take only if nothing can take it back.
            let defenders = pos.attackers_to(stm.flip(), to, occupied) & occupied;
            return if defenders.is_nonempty() {
                !result
            } else {
                result
            };
        }
        swap = exchange_value(kind) - swap;
        if swap < result as i32 {
            break;
        }
        occupied = occupied.without(from);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(sfen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_sfen(sfen).unwrap();
        let m = pos.parse_usi_move(mv).unwrap();
        see_ge(&pos, m, threshold)
    }

    /// `mv`'s exchange is worth exactly `value`: SEE clears that threshold
    /// and not one unit more.
    fn assert_exchange_is(sfen: &str, mv: &str, value: i32) {
        assert!(see(sfen, mv, value), "{mv} should win at least {value}");
        assert!(
            !see(sfen, mv, value + 1),
            "{mv} should win no more than {value}"
        );
    }

    #[test]
    fn an_undefended_capture_wins_the_piece() {
        // Black rook 5e takes an undefended white gold 5c.
        let sfen = "4k4/9/4g4/9/4R4/9/9/9/4K4 b - 1";
        assert_exchange_is(sfen, "5e5c", exchange_value(PieceType::Gold));
    }

    #[test]
    fn a_promoted_pawn_for_a_silver_is_a_gain() {
        // Black's tokin 5d takes the silver 5c, the gold 5b takes back:
        // a silver on board and in hand for a tokin that becomes a pawn
        // in White's hand.
        let sfen = "4k4/4g4/4s4/4+P4/9/9/9/9/4K4 b - 1";
        let gain = exchange_value(PieceType::Silver) - exchange_value(PieceType::ProPawn);
        assert!(gain > 0);
        assert_exchange_is(sfen, "5d5c", gain);
    }

    #[test]
    fn a_defended_pawn_taken_by_a_rook_loses() {
        // White pawn 5c is defended by the gold 5b.
        let sfen = "4k4/4g4/4p4/9/4R4/9/9/9/4K4 b - 1";
        let loss = exchange_value(PieceType::Pawn) - exchange_value(PieceType::Rook);
        assert_exchange_is(sfen, "5e5c", loss);
    }

    #[test]
    fn a_drop_onto_an_attacked_square_loses_the_piece() {
        let sfen = "4k4/9/9/9/9/9/9/9/4K4 b G 1";
        assert!(!see(sfen, "G*5b", 0));
        assert!(see(sfen, "G*5e", 0));
    }

    #[test]
    fn xray_recaptures_count() {
        // Black lances 5e and 5f (behind) against a white pawn 5c with a
        // white gold 5b behind it: L takes, G takes, L takes back.
        let sfen = "4k4/4g4/4p4/9/4L4/4L4/9/9/K8 b - 1";
        assert!(see(sfen, "5e5c+", 0));
    }
}
