//! What a thread learns about moves while searching: a butterfly history
//! per side, counter-moves and continuation history (how a quiet move did
//! after a given move one and two plies earlier) for quiet moves, a
//! capture history for captures. Kept per thread (Lazy SMP threads diverge
//! partly because their histories do).

use super::correction::CorrectionHistory;
use crate::moves::Move;
use crate::types::{Color, Piece, PieceType, Square};

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

/// Rows of the continuation table: the piece that arrived on a square.
const CONT_ROWS: usize = Piece::NUM * 81;
/// Columns: the kind a quiet move leaves on its destination, and that square.
const CONT_COLS: usize = PieceType::NUM * 81;

/// A row of the continuation table: the move `piece` arriving on `to`
/// (one or two plies before the node that reads it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ContinuationRow(usize);

impl ContinuationRow {
    /// The row of `piece` (as it stands after the move) arriving on `to`.
    #[inline]
    pub fn new(piece: Piece, to: Square) -> ContinuationRow {
        ContinuationRow((piece.index() * 81 + to.index()) * CONT_COLS)
    }

    /// Index in the table of a quiet move leaving `kind` on `to`.
    #[inline]
    fn cell(self, kind: PieceType, to: Square) -> usize {
        self.0 + kind.index() * 81 + to.index()
    }
}

/// Move-ordering statistics of one thread.
pub struct History {
    butterfly: Vec<i16>,
    counter: Vec<Option<Move>>,
    /// Quiet moves by the move before them: row × (kind, destination).
    continuation: Vec<i16>,
    /// Captures by moving piece × destination × captured kind.
    capture: Vec<i16>,
    /// Static-evaluation errors by pawn and castle structure.
    pub correction: CorrectionHistory,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * ORIGINS * 81],
            counter: vec![None; Piece::NUM * 81],
            continuation: vec![0; CONT_ROWS * CONT_COLS],
            capture: vec![0; Piece::NUM * 81 * PieceType::NUM],
            correction: CorrectionHistory::default(),
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
        self.continuation.fill(0);
        self.capture.fill(0);
        self.correction.clear();
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

    /// How well a quiet move leaving `kind` on `to` did after `row`'s move.
    #[inline]
    pub fn continuation(&self, row: ContinuationRow, kind: PieceType, to: Square) -> i32 {
        self.continuation[row.cell(kind, to)] as i32
    }

    /// Sum of [`History::continuation`] over the rows that exist.
    #[inline]
    pub fn continuations(
        &self,
        rows: &[Option<ContinuationRow>; 2],
        kind: PieceType,
        to: Square,
    ) -> i32 {
        rows.iter()
            .flatten()
            .map(|&row| self.continuation(row, kind, to))
            .sum()
    }

    /// Rewards or punishes a quiet move in every existing row.
    pub fn update_continuations(
        &mut self,
        rows: &[Option<ContinuationRow>; 2],
        kind: PieceType,
        to: Square,
        bonus: i32,
    ) {
        for row in rows.iter().flatten() {
            apply_bonus(&mut self.continuation[row.cell(kind, to)], bonus);
        }
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
    use super::params;
    (depth * depth * params::history_depth_sq() + params::history_depth() * depth)
        .min(params::history_max_bonus())
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

    #[test]
    fn continuation_history_is_kept_per_previous_move() {
        let mut h = History::default();
        let sq = |usi: &str| Square::from_usi(usi.as_bytes()).unwrap();
        let knight = Piece::new(Color::White, PieceType::Knight);
        let after_knight = ContinuationRow::new(knight, sq("2c"));
        let after_pawn = ContinuationRow::new(Piece::new(Color::White, PieceType::Pawn), sq("2c"));
        let rows = [Some(after_knight), None];
        for _ in 0..1000 {
            h.update_continuations(&rows, PieceType::Gold, sq("3b"), 2000);
        }
        let learned = h.continuation(after_knight, PieceType::Gold, sq("3b"));
        assert!(learned > HISTORY_MAX / 2 && learned <= HISTORY_MAX);
        assert_eq!(h.continuations(&rows, PieceType::Gold, sq("3b")), learned);
        assert_eq!(h.continuation(after_pawn, PieceType::Gold, sq("3b")), 0);
        assert_eq!(h.continuation(after_knight, PieceType::Silver, sq("3b")), 0);
        assert_eq!(h.continuations(&[None, None], PieceType::Gold, sq("3b")), 0);
        h.clear();
        assert_eq!(h.continuation(after_knight, PieceType::Gold, sq("3b")), 0);
    }
}
