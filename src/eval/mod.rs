//! Static evaluation: how good a position is for the side to move, in
//! centipawn-like units (a pawn on the board is about 100).
//!
//! Contract for the search: `evaluate` is pure, cheap, and symmetric
//! (`evaluate` of a colour-flipped position is the same number).

use crate::position::Position;
use crate::types::PieceType;

/// Material value of a piece of `kind` on the board.
pub const fn piece_value(kind: PieceType) -> i32 {
    use PieceType::*;
    match kind {
        Pawn => 90,
        Lance => 315,
        Knight => 405,
        Silver => 495,
        Gold => 540,
        Bishop => 855,
        Rook => 990,
        King => 0,
        ProPawn | ProLance | ProKnight | ProSilver => 540,
        Horse => 945,
        Dragon => 1395,
    }
}

/// Material value of a piece of `kind` in hand (unpromoted kinds only).
pub const fn hand_value(kind: PieceType) -> i32 {
    piece_value(kind)
}

/// Evaluates `pos` from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let them = us.flip();
    let mut score = 0;
    for kind in (1..=14).filter_map(PieceType::from_u8) {
        let on_board = pos.pieces(us, kind).count() as i32 - pos.pieces(them, kind).count() as i32;
        score += piece_value(kind) * on_board;
        if !kind.is_promoted() && kind != PieceType::King {
            let in_hand = pos.hand(us).count(kind) as i32 - pos.hand(them).count(kind) as i32;
            score += hand_value(kind) * in_hand;
        }
    }
    score
}
