//! The evaluation's incremental state for one search thread: the board
//! knows nothing of it (the board/eval boundary). The thread pushes after
//! every move it plays and pops after every move it takes back, as
//! Stockfish's worker keeps its accumulator stack; each entry is derived
//! from its parent and what the move changed.

use super::psq::PsqScore;
use super::{evaluate_from, weights::WEIGHTS};
use crate::position::Position;

/// Piece-square sums for each position on the current search path, from
/// the root (index 0) to the node being searched (the last).
#[derive(Clone, Debug, Default)]
pub struct EvalStack {
    sums: Vec<PsqScore>,
}

impl EvalStack {
    /// An empty stack; call [`EvalStack::reset`] before evaluating.
    pub fn new() -> EvalStack {
        EvalStack {
            sums: Vec::with_capacity(256),
        }
    }

    /// Starts a new path at `pos` (sums from scratch).
    pub fn reset(&mut self, pos: &Position) {
        self.sums.clear();
        self.sums.push(PsqScore::compute(pos));
    }

    /// Follows the move (or null move) that `pos` has just played.
    #[inline]
    pub fn push(&mut self, pos: &Position) {
        let parent = *self.sums.last().expect("EvalStack::reset before push");
        let sums = match pos.last_move() {
            Some(m) => parent.after_move(pos, m, pos.captured_piece()),
            // A null move changes no piece.
            None => parent,
        };
        debug_assert_eq!(sums, PsqScore::compute(pos));
        self.sums.push(sums);
    }

    /// Takes back the last [`EvalStack::push`].
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.sums.len() > 1, "pop below the root");
        self.sums.pop();
    }

    /// The evaluation of `pos`, the position at the top of the stack, from
    /// the side to move's point of view; the same as [`super::evaluate`].
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let sums = *self.sums.last().expect("EvalStack::reset before evaluate");
        evaluate_from(pos, sums.relative(pos.side_to_move()), &WEIGHTS)
    }
}
