//! The evaluation's incremental state for one search thread: the board
//! knows nothing of it (the board/eval boundary). The thread pushes after
//! every move it plays and pops after every move it takes back, as
//! Stockfish's worker keeps its accumulator stack; each entry is derived
//! from its parent and what the move changed.
//!
//! With a network (`EvalFile`) the stack is the NNUE accumulator stack;
//! without one, the linear evaluation's piece-square sums.

use super::psq::PsqScore;
use super::{evaluate_from, weights::WEIGHTS, EVAL_LIMIT};
use crate::nnue::{AccumulatorStack, Network};
use crate::position::Position;
use std::sync::Arc;

/// The incremental evaluation state along the current search path, from
/// the root (index 0) to the node being searched (the last).
#[derive(Clone)]
pub struct EvalStack {
    /// Linear evaluation: piece-square sums per ply.
    sums: Vec<PsqScore>,
    /// NNUE evaluation: the network and its accumulators.
    nnue: Option<(Arc<Network>, AccumulatorStack)>,
}

impl Default for EvalStack {
    fn default() -> Self {
        EvalStack::new()
    }
}

impl EvalStack {
    /// A stack for the linear evaluation; call [`EvalStack::reset`] before
    /// evaluating.
    pub fn new() -> EvalStack {
        EvalStack::with_network(None)
    }

    /// A stack that evaluates with `network`, or linearly without one.
    pub fn with_network(network: Option<Arc<Network>>) -> EvalStack {
        EvalStack {
            sums: Vec::with_capacity(256),
            nnue: network.map(|net| (net, AccumulatorStack::new())),
        }
    }

    /// Starts a new path at `pos`.
    pub fn reset(&mut self, pos: &Position) {
        match &mut self.nnue {
            Some((net, acc)) => acc.reset(pos, net),
            None => {
                self.sums.clear();
                self.sums.push(PsqScore::compute(pos));
            }
        }
    }

    /// Follows the move (or null move) that `pos` has just played.
    #[inline]
    pub fn push(&mut self, pos: &Position) {
        if let Some((_, acc)) = &mut self.nnue {
            acc.push(pos.dirty_piece());
            return;
        }
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
        match &mut self.nnue {
            Some((_, acc)) => acc.pop(),
            None => {
                debug_assert!(self.sums.len() > 1, "pop below the root");
                self.sums.pop();
            }
        }
    }

    /// The evaluation of `pos`, the position at the top of the stack, from
    /// the side to move's point of view. Linear: the same as
    /// [`super::evaluate`]; NNUE: the network's value (plus the linear
    /// evaluation's dynamic terms for a network trained with them),
    /// clamped likewise.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        if let Some((net, acc)) = &mut self.nnue {
            let mut value = acc.evaluate(pos, net);
            if net.dynamic_terms().is_some() {
                value += super::dynamic_terms(pos);
            }
            return value.clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        let sums = *self.sums.last().expect("EvalStack::reset before evaluate");
        evaluate_from(pos, sums.relative(pos.side_to_move()), &WEIGHTS)
    }

    /// Whether this stack evaluates with a network.
    pub fn uses_network(&self) -> bool {
        self.nnue.is_some()
    }
}
