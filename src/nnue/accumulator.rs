//! The feature transformer's output kept up to date along a search path.
//!
//! One [`AccumulatorStack`] belongs to one search thread, next to its
//! position: `push` after every `do_move` (with the position's
//! [`DirtyPiece`]), `pop` after every `undo_move`. Pushing only records the
//! change; [`AccumulatorStack::evaluate`] brings the top entry up to date
//! lazily, per perspective: from the nearest computed ancestor by applying
//! the recorded changes forward, or from scratch when that perspective's
//! king moved on the way (every one of its features changed). Nodes that
//! are never evaluated, such as those cut off before their static
//! evaluation, cost a few bytes of bookkeeping and no vector work.

use super::features::{changed_features, needs_refresh};
use super::net::{Network, MAX_L1};
use super::simd::Kernel;
use crate::position::DirtyPiece;
use crate::position::Position;
use crate::types::Color;

/// Entries allocated up front: deeper than any search path plus the moves
/// from the game's root; deeper paths grow the stack.
const INITIAL_CAPACITY: usize = 256 + 16;

/// One ply's accumulators, indexed by perspective colour.
#[derive(Clone)]
struct Entry {
    acc: [[i16; MAX_L1]; 2],
    /// Sums of the active features' piece-square weights, per perspective.
    psqt: [i32; 2],
    /// Whether `acc[colour]` and `psqt[colour]` hold this ply's values.
    computed: [bool; 2],
    /// What the move into this ply changed; `None` at the root and after a
    /// null move (the accumulators are the parent's).
    dirty: Option<DirtyPiece>,
}

impl Entry {
    const EMPTY: Entry = Entry {
        acc: [[0; MAX_L1]; 2],
        psqt: [0; 2],
        computed: [false; 2],
        dirty: None,
    };
}

/// Accumulators for the root and every ply pushed since; see the module
/// docs.
#[derive(Clone)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
    kernel: Kernel,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::new()
    }
}

impl AccumulatorStack {
    /// A stack using the fastest kernel this CPU runs.
    pub fn new() -> AccumulatorStack {
        AccumulatorStack::with_kernel(Kernel::best())
    }

    /// A stack using `kernel` (tests compare kernels this way).
    pub fn with_kernel(kernel: Kernel) -> AccumulatorStack {
        AccumulatorStack {
            entries: vec![Entry::EMPTY; INITIAL_CAPACITY],
            top: 0,
            kernel,
        }
    }

    /// The kernel this stack runs.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Plies pushed since the last reset.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// Starts over at `pos` (the search root), computing both perspectives
    /// from scratch with `net`, the network later calls must also pass.
    pub fn reset(&mut self, pos: &Position, net: &Network) {
        self.top = 0;
        let root = &mut self.entries[0];
        root.dirty = None;
        for color in Color::ALL {
            let c = color.index();
            root.psqt[c] = net.refresh(pos, color, self.kernel, &mut root.acc[c]);
        }
        root.computed = [true; 2];
    }

    /// Records the move the position just played: `pos.dirty_piece()`,
    /// which is `None` after a null move.
    #[inline]
    pub fn push(&mut self, dirty: Option<DirtyPiece>) {
        self.top += 1;
        if self.top == self.entries.len() {
            // Deeper than planned: grow rather than fail.
            self.entries.push(Entry::EMPTY);
        }
        let entry = &mut self.entries[self.top];
        entry.dirty = dirty;
        entry.computed = [false; 2];
    }

    /// Forgets the last push (call after `undo_move` or `undo_null_move`).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop below the root");
        self.top = self.top.saturating_sub(1);
    }

    /// The static evaluation of `pos`, the position at the top of the
    /// stack, from the side to move's view.
    pub fn evaluate(&mut self, pos: &Position, net: &Network) -> i32 {
        for perspective in Color::ALL {
            self.bring_up_to_date(pos, net, perspective);
        }
        let top = &self.entries[self.top];
        let us = pos.side_to_move();
        let (us, them) = (us.index(), us.flip().index());
        net.propagate(
            self.kernel,
            &top.acc[us],
            &top.acc[them],
            top.psqt[us] - top.psqt[them],
        )
    }

    /// Makes the top entry's `perspective` accumulator current.
    fn bring_up_to_date(&mut self, pos: &Position, net: &Network, perspective: Color) {
        let p = perspective.index();
        // Walk back to the nearest computed entry; if the king moved on the
        // way (or nothing below is computed), rebuild the top instead.
        let mut base = self.top;
        while !self.entries[base].computed[p] {
            let king_moved = self.entries[base]
                .dirty
                .is_some_and(|dirty| needs_refresh(&dirty, perspective));
            if base == 0 || king_moved {
                let top = &mut self.entries[self.top];
                top.psqt[p] = net.refresh(pos, perspective, self.kernel, &mut top.acc[p]);
                top.computed[p] = true;
                return;
            }
            base -= 1;
        }
        // The king stood still since `base`, so `pos` gives its square for
        // every ply in between.
        let l1 = net.l1();
        for ply in base + 1..=self.top {
            let (below, above) = self.entries.split_at_mut(ply);
            let (parent, child) = (&below[ply - 1], &mut above[0]);
            let acc = &mut child.acc[p][..l1];
            acc.copy_from_slice(&parent.acc[p][..l1]);
            let mut psqt = parent.psqt[p];
            if let Some(dirty) = &child.dirty {
                let (removed, added) = changed_features(dirty, pos, perspective, net.feature_set());
                for feature in removed {
                    self.kernel.sub_row(acc, net.feature_weights(feature));
                    psqt -= net.psqt_weight(feature);
                }
                for feature in added {
                    self.kernel.add_row(acc, net.feature_weights(feature));
                    psqt += net.psqt_weight(feature);
                }
            }
            child.psqt[p] = psqt;
            child.computed[p] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::nnue::features::FeatureSet;
    use crate::types::PieceType;

    use crate::util::rng::XorShift64;

    fn kernels() -> Vec<Kernel> {
        [Some(Kernel::SCALAR), Kernel::avx2()]
            .into_iter()
            .flatten()
            .collect()
    }

    /// The top accumulators equal a from-scratch refresh, and the
    /// evaluation equals a from-scratch evaluation.
    fn assert_matches_refresh(stack: &mut AccumulatorStack, pos: &Position, net: &Network) {
        let value = stack.evaluate(pos, net);
        let kernel = stack.kernel();
        assert_eq!(
            value,
            net.evaluate_from_scratch(pos, kernel),
            "{}",
            pos.to_sfen()
        );
        let top = &stack.entries[stack.top];
        for color in Color::ALL {
            let mut fresh = [0i16; MAX_L1];
            let psqt = net.refresh(pos, color, kernel, &mut fresh);
            assert!(top.computed[color.index()]);
            assert_eq!(top.psqt[color.index()], psqt, "{color:?} {}", pos.to_sfen());
            assert_eq!(
                top.acc[color.index()][..net.l1()],
                fresh[..net.l1()],
                "{color:?} {}",
                pos.to_sfen()
            );
        }
    }

    /// What the random games covered, so the test fails if they stop
    /// reaching the interesting moves.
    #[derive(Default, Debug)]
    struct Seen {
        king_moves: usize,
        captures: usize,
        drops: usize,
        promotions: usize,
        null_moves: usize,
    }

    /// Plays a random game, evaluating at some plies (so the lazy walk
    /// back spans several moves) and checking against a refresh; then
    /// undoes it all, checking again on the way up.
    fn random_game(
        net: &Network,
        kernel: Kernel,
        rng: &mut XorShift64,
        plies: usize,
        seen: &mut Seen,
    ) {
        let mut pos = Position::startpos();
        let mut stack = AccumulatorStack::with_kernel(kernel);
        stack.reset(&pos, net);
        assert_matches_refresh(&mut stack, &pos, net);
        let mut played: Vec<Option<Move>> = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if !pos.in_check() && rng.below(20) == 0 {
                pos.do_null_move();
                stack.push(pos.dirty_piece());
                played.push(None);
                seen.null_moves += 1;
            } else {
                let m = moves[rng.below(moves.len())];
                seen.captures += usize::from(pos.is_capture(m));
                seen.drops += usize::from(m.dropped_kind().is_some());
                seen.promotions += usize::from(m.is_promotion());
                let king = !m.is_drop() && pos.piece_on(m.from()).kind() == Some(PieceType::King);
                seen.king_moves += usize::from(king);
                pos.do_move(m);
                stack.push(pos.dirty_piece());
                played.push(Some(m));
            }
            if rng.below(3) == 0 {
                assert_matches_refresh(&mut stack, &pos, net);
            }
        }
        assert_matches_refresh(&mut stack, &pos, net);
        while let Some(m) = played.pop() {
            match m {
                Some(m) => pos.undo_move(m),
                None => pos.undo_null_move(),
            }
            stack.pop();
            if rng.below(2) == 0 {
                assert_matches_refresh(&mut stack, &pos, net);
            }
        }
        assert_eq!(stack.depth(), 0);
        assert_matches_refresh(&mut stack, &pos, net);
    }

    #[test]
    fn incremental_equals_refresh_along_random_games() {
        for (set, seed, psqt) in [
            (FeatureSet::HalfKpMirror, 5, false),
            (FeatureSet::HalfKp, 6, false),
            (FeatureSet::HalfKpMirror, 7, true),
        ] {
            let net = Network::random(seed, set, 64);
            let net = if psqt {
                net.with_random_psqt(seed)
            } else {
                net
            };
            for kernel in kernels() {
                let mut rng = XorShift64::new(0x9E37_79B9_7F4A_7C15 ^ seed);
                let mut seen = Seen::default();
                for _ in 0..6 {
                    random_game(&net, kernel, &mut rng, 250, &mut seen);
                }
                assert!(
                    seen.king_moves > 0
                        && seen.captures > 0
                        && seen.drops > 0
                        && seen.promotions > 0
                        && seen.null_moves > 0,
                    "{seen:?}"
                );
            }
        }
    }

    /// Paths deeper than the preallocated entries grow the stack.
    #[test]
    fn deep_paths_grow_instead_of_failing() {
        let net = Network::random(9, FeatureSet::HalfKpMirror, 32);
        let mut rng = XorShift64::new(77);
        let mut seen = Seen::default();
        random_game(
            &net,
            Kernel::SCALAR,
            &mut rng,
            2 * INITIAL_CAPACITY,
            &mut seen,
        );
        let pos = Position::startpos();
        let mut stack = AccumulatorStack::with_kernel(Kernel::SCALAR);
        stack.reset(&pos, &net);
        let root = stack.evaluate(&pos, &net);
        for _ in 0..3 * INITIAL_CAPACITY {
            stack.push(None);
        }
        assert_eq!(stack.depth(), 3 * INITIAL_CAPACITY);
        assert_eq!(stack.evaluate(&pos, &net), root);
    }

    /// Without a reset, the first evaluation computes from scratch.
    #[test]
    fn evaluate_without_reset_refreshes() {
        let net = Network::random(4, FeatureSet::HalfKp, 32);
        let pos = Position::startpos();
        let mut stack = AccumulatorStack::with_kernel(Kernel::SCALAR);
        assert_matches_refresh(&mut stack, &pos, &net);
    }
}
