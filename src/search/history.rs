//! What a thread learns about quiet moves while searching: killers per
//! ply, a butterfly history per side, and counter-moves. Kept per thread
//! (Lazy SMP threads diverge partly because their histories do).

use crate::moves::Move;
use crate::types::{Color, Piece};

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
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * ORIGINS * 81],
            counter: vec![None; Piece::NUM * 81],
        }
    }
}

impl History {
    /// Forgets everything (new game, bench).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.counter.fill(None);
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
        let entry = &mut self.butterfly[Self::index(color, m)];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let value = *entry as i32;
        *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
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
}
