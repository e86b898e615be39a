//! Static exchange evaluation: does a move win at least `threshold` once
//! every piece that can recapture on its square has done so, cheapest
//! first? Promotions on the way and pins are ignored, which is the usual
//! trade of accuracy for speed.

use crate::eval::piece_value;
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

/// Value of what `m` captures (0 for drops and quiet moves).
#[inline]
pub fn captured_value(pos: &Position, m: Move) -> i32 {
    if m.is_drop() {
        return 0;
    }
    pos.piece_on(m.to()).kind().map_or(0, piece_value)
}

/// The kind standing on `m.to()` once `m` (legal) is played.
#[inline]
pub fn moved_kind(pos: &Position, m: Move) -> PieceType {
    match m.dropped_kind() {
        Some(kind) => kind,
        None => {
            let kind = pos.piece_on(m.from()).kind_unchecked();
            if m.is_promotion() {
                kind.promote()
            } else {
                kind
            }
        }
    }
}

/// Whether `m` (legal in `pos`) wins at least `threshold` in the exchange
/// it starts on its destination square.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let mut swap = captured_value(pos, m) - threshold;
    if swap < 0 {
        return false;
    }
    let mover = moved_kind(pos, m);
    if mover == PieceType::King {
        // The king moved only to a safe square: nothing can recapture.
        return true;
    }
    swap = piece_value(mover) - swap;
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
        swap = piece_value(kind) - swap;
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

    #[test]
    fn an_undefended_capture_wins_the_piece() {
        // Black rook 5e takes an undefended white gold 5c.
        let sfen = "4k4/9/4g4/9/4R4/9/9/9/4K4 b - 1";
        assert!(see(sfen, "5e5c", 500));
        assert!(!see(sfen, "5e5c", 600));
    }

    #[test]
    fn a_defended_pawn_taken_by_a_rook_loses() {
        // White pawn 5c is defended by the gold 5b.
        let sfen = "4k4/4g4/4p4/9/4R4/9/9/9/4K4 b - 1";
        assert!(!see(sfen, "5e5c", 0));
        assert!(see(sfen, "5e5c", -1000));
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
