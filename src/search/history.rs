//! What a thread learns about moves while searching: a butterfly history
//! per side and counter-moves for quiet moves, a capture history for
//! captures. Kept per thread (Lazy SMP threads diverge partly because their
//! histories do).

use crate::moves::Move;
use crate::types::{Color, Piece, PieceType};

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
    /// Captures by moving piece × destination × captured kind.
    capture: Vec<i16>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * ORIGINS * 81],
            counter: vec![None; Piece::NUM * 81],
            capture: vec![0; Piece::NUM * 81 * PieceType::NUM],
        }
    }
}

/// Moves `entry` by `bonus`, saturating smoothly towards ±HISTORY_MAX.
#[inline]
fn apply_bonus(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let value = *entry as i32;
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

impl History {
    /// Forgets everything (new game, bench).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.counter.fill(None);
        self.capture.fill(0);
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
        apply_bonus(&mut self.butterfly[Self::index(color, m)], bonus);
    }

    /// `captured` is the piece on the destination, [`Piece::NONE`] for a
    /// promotion that takes nothing (slot 0, an unused kind index).
    #[inline]
    fn capture_index(moved: Piece, m: Move, captured: Piece) -> usize {
        let kind = captured.kind().map_or(0, PieceType::index);
        (moved.index() * 81 + m.to().index()) * PieceType::NUM + kind
    }

    /// How well `moved` taking `captured` with `m` (a capture or a
    /// promotion) has done so far.
    #[inline]
    pub fn capture(&self, moved: Piece, m: Move, captured: Piece) -> i32 {
        self.capture[Self::capture_index(moved, m, captured)] as i32
    }

    /// Rewards or punishes a capture, like [`History::update_quiet`].
    pub fn update_capture(&mut self, moved: Piece, m: Move, captured: Piece, bonus: i32) {
        apply_bonus(
            &mut self.capture[Self::capture_index(moved, m, captured)],
            bonus,
        );
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
    fn capture_history_tells_victims_and_bare_promotions_apart() {
        let mut h = History::default();
        let m = Move::from_usi("2b8h+").unwrap();
        let bishop = Piece::new(Color::Black, PieceType::Bishop);
        let rook = Piece::new(Color::White, PieceType::Rook);
        for _ in 0..1000 {
            h.update_capture(bishop, m, rook, 2000);
        }
        assert!(h.capture(bishop, m, rook) > HISTORY_MAX / 2);
        assert!(h.capture(bishop, m, rook) <= HISTORY_MAX);
        let silver = Piece::new(Color::White, PieceType::Silver);
        assert_eq!(h.capture(bishop, m, silver), 0);
        h.update_capture(bishop, m, Piece::NONE, -500);
        assert_eq!(h.capture(bishop, m, Piece::NONE), -500);
        h.clear();
        assert_eq!(h.capture(bishop, m, rook), 0);
    }
}
