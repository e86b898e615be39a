//! What a thread learns about quiet moves while searching: killers per
//! ply, a butterfly history per side, counter-moves, and a continuation
//! history (how a quiet move did after a given piece arrived on a given
//! square one or two plies earlier). Kept per thread (Lazy SMP threads
//! diverge partly because their histories do).

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, Square};

/// The (piece, destination) of the moves one and two plies before a node,
/// when those were real moves: the context of the continuation history.
pub type Context = [Option<(Piece, Square)>; 2];

const PIECE_SQUARES: usize = Piece::NUM * 81;

#[inline]
fn piece_square(piece: Piece, sq: Square) -> usize {
    piece.index() * 81 + sq.index()
}

/// The piece that `m` (legal in `pos`) moves or drops, before promotion.
#[inline]
pub fn moving_piece(pos: &Position, m: Move) -> Piece {
    match m.dropped_kind() {
        Some(kind) => Piece::new(pos.side_to_move(), kind),
        None => pos.piece_on(m.from()),
    }
}

/// Moves `entry` towards `bonus` with saturation at ±HISTORY_MAX.
#[inline]
fn apply(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let value = *entry as i32;
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

/// Board origins 0..81, then one "origin" per droppable kind.
const ORIGINS: usize = 81 + 8;
/// History values stay within ±HISTORY_MAX (gravity formula below).
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a move's origin: its square, or 81 + kind for a drop.
#[inline]
fn origin(m: Move) -> usize {
    match m.dropped_kind() {
        Some(kind) => 81 + kind as usize,
        None => m.from().index(),
    }
}

/// Move-ordering statistics of one thread.
pub struct History {
    butterfly: Vec<i16>,
    counter: Vec<Option<Move>>,
    /// Indexed by (earlier piece-square) * PIECE_SQUARES + (piece-square
    /// of the move judged): 13 MB, allocated once per thread.
    continuation: Vec<i16>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * ORIGINS * 81],
            counter: vec![None; Piece::NUM * 81],
            continuation: vec![0; PIECE_SQUARES * PIECE_SQUARES],
        }
    }
}

impl History {
    /// Forgets everything (new game, bench).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.counter.fill(None);
        self.continuation.fill(0);
    }

    /// Ordering score of quiet `m` in `pos` given the earlier moves `ctx`.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, ctx: &Context, m: Move) -> i32 {
        let mut score = self.quiet(pos.side_to_move(), m);
        let here = piece_square(moving_piece(pos, m), m.to());
        for &(piece, sq) in ctx.iter().flatten() {
            score += self.continuation[piece_square(piece, sq) * PIECE_SQUARES + here] as i32;
        }
        score
    }

    /// Rewards or punishes quiet `m` in `pos`, in the butterfly table and
    /// in the continuation tables of `ctx`.
    pub fn update_quiet_in(&mut self, pos: &Position, ctx: &Context, m: Move, bonus: i32) {
        self.update_quiet(pos.side_to_move(), m, bonus);
        let here = piece_square(moving_piece(pos, m), m.to());
        for &(piece, sq) in ctx.iter().flatten() {
            apply(
                &mut self.continuation[piece_square(piece, sq) * PIECE_SQUARES + here],
                bonus,
            );
        }
    }

    #[inline]
    fn index(color: Color, m: Move) -> usize {
        (color.index() * ORIGINS + origin(m)) * 81 + m.to().index()
    }

    /// How well the quiet move `m` by `color` has done so far.
    #[inline]
    pub fn quiet(&self, color: Color, m: Move) -> i32 {
        self.butterfly[Self::index(color, m)] as i32
    }

    /// Rewards (`bonus` > 0) or punishes a quiet move; values saturate
    /// smoothly towards ±HISTORY_MAX.
    pub fn update_quiet(&mut self, color: Color, m: Move, bonus: i32) {
        apply(&mut self.butterfly[Self::index(color, m)], bonus);
    }

    /// The quiet move that last refuted `piece` arriving on `prev.to()`.
    #[inline]
    pub fn counter(&self, piece: Piece, prev: Move) -> Option<Move> {
        self.counter[piece.index() * 81 + prev.to().index()]
    }

    /// Records `m` as the refutation of `piece` arriving on `prev.to()`.
    pub fn set_counter(&mut self, piece: Piece, prev: Move, m: Move) {
        self.counter[piece.index() * 81 + prev.to().index()] = Some(m);
    }
}

/// Bonus for a quiet move that caused a cutoff at `depth`.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16 + 32 * depth).min(2_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_saturates_and_drops_have_their_own_slots() {
        let mut h = History::default();
        let board = Move::from_usi("7g7f").unwrap();
        let drop = Move::from_usi("P*7f").unwrap();
        for _ in 0..1000 {
            h.update_quiet(Color::Black, board, 2000);
        }
        assert!(h.quiet(Color::Black, board) <= HISTORY_MAX);
        assert!(h.quiet(Color::Black, board) > HISTORY_MAX / 2);
        assert_eq!(h.quiet(Color::Black, drop), 0);
        assert_eq!(h.quiet(Color::White, board), 0);
    }

    #[test]
    fn continuation_history_depends_on_the_previous_move() {
        let mut h = History::default();
        let pos = Position::startpos();
        let m = pos.parse_usi_move("2g2f").unwrap();
        let after_pawn = [
            Some((Piece::new(Color::White, crate::PieceType::Pawn), m.to())),
            None,
        ];
        let after_rook = [
            Some((Piece::new(Color::White, crate::PieceType::Rook), m.to())),
            None,
        ];
        h.update_quiet_in(&pos, &after_pawn, m, 1000);
        let butterfly = h.quiet(Color::Black, m);
        assert_eq!(h.quiet_score(&pos, &after_rook, m), butterfly);
        assert!(h.quiet_score(&pos, &after_pawn, m) > butterfly);
    }
}
