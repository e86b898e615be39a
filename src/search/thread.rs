//! One search thread: its position copy, stack, counters and the
//! iterative-deepening loop. The node searches themselves are in
//! `alphabeta.rs` and `qsearch.rs`; spawning and choosing the best thread
//! in `smp.rs`.

use super::history::History;
use super::report::{Bound, Reporter, SearchInfo};
use super::tt::TranspositionTable;
use super::values::{to_report, INFINITE, MATE_BOUND, MAX_PLY};
use super::SearchControl;
use crate::eval::EvalStack;
use crate::moves::Move;
use crate::position::{EnteringKingRule, Position};
use crate::types::{Color, Piece};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    /// Set when the main thread has finished: helpers return at once.
    pub abort: AtomicBool,
    /// Nodes flushed by all threads.
    pub nodes: AtomicU64,
    pub node_limit: u64,
    pub max_depth: i32,
    pub multi_pv: usize,
    pub entering_king_rule: EnteringKingRule,
    pub draw: DrawRule,
    /// The NNUE network every thread evaluates with, if any.
    pub network: Option<std::sync::Arc<crate::nnue::Network>>,
    /// `ConsiderationMode`: deepen past a found mate.
    pub consideration: bool,
}

/// What a draw scores and when a game becomes one by length.
#[derive(Copy, Clone, Debug)]
pub(crate) struct DrawRule {
    /// A position whose SFEN move number exceeds this is a draw (unless
    /// the side to move is mated): `MaxMovesToDraw` moves have been played.
    pub last_move_number: u32,
    /// A draw's score for the side to move, by its colour: the engine's
    /// own draw value for the colour it plays, minus that for the other.
    pub score: [i32; 2],
}

impl DrawRule {
    pub fn new(options: &super::SearchOptions, engine: Color) -> DrawRule {
        let value = options.draw_value[engine.index()];
        let mut score = [0; 2];
        score[engine.index()] = value;
        score[engine.flip().index()] = -value;
        DrawRule {
            last_move_number: match options.max_moves_to_draw {
                0 => u32::MAX,
                n => n,
            },
            score,
        }
    }
}

/// A root move and what the last iterations found for it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// Score in the current iteration (-INFINITE until searched, or when
    /// it failed low against a better move).
    pub score: i32,
    /// Score of the previous iteration.
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

impl RootMove {
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            pv: vec![mv],
            seldepth: 0,
        }
    }

    /// The best score known for this move (the last completed one when the
    /// current iteration has not scored it).
    pub fn shown_score(&self) -> i32 {
        if self.score == -INFINITE {
            self.prev_score
        } else {
            self.score
        }
    }
}

/// Per-ply search state.
#[derive(Clone)]
pub(crate) struct Frame {
    pub killers: [Option<Move>; 2],
    /// Static evaluation (-INFINITE when in check).
    pub eval: i32,
    /// Move played from this ply (`None` for a null move).
    pub mv: Option<Move>,
    /// Piece that move put on its destination.
    pub moved: Piece,
    /// Move left out by a singular-extension search of this node.
    pub excluded: Option<Move>,
    /// Double singular extensions on the path to this node (bounded, so
    /// that they cannot make a line grow without end).
    pub double_extensions: u8,
    pub pv: ArrayVec<Move, MAX_PLY>,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            killers: [None; 2],
            eval: -INFINITE,
            mv: None,
            moved: Piece::NONE,
            excluded: None,
            double_extensions: 0,
            pv: ArrayVec::new(),
        }
    }
}

/// Depth skew of helper threads (the scheme of Stockfish 9-10): helper
/// `i` skips some depths so that threads spread over neighbouring depths.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// One search thread.
pub(crate) struct Worker<'a> {
    pub id: usize,
    /// The board; moved only through [`Worker::play`] and its kin, which
    /// keep `eval` in step.
    pub pos: Position,
    /// The evaluation's incremental state along the current path.
    pub eval: EvalStack,
    pub shared: &'a Shared<'a>,
    pub history: &'a mut History,
    pub reporter: Option<&'a dyn Reporter>,
    pub nodes: u64,
    flushed: u64,
    pub seldepth: usize,
    pub stack: Vec<Frame>,
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pub stopped: bool,
    pub completed_depth: i32,
    pub root_depth: i32,
}

/// Nodes between two polls of the stop flags and the clock.
const POLL_MASK: u64 = 1023;

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        pos: Position,
        shared: &'a Shared<'a>,
        history: &'a mut History,
        root_moves: Vec<RootMove>,
        reporter: Option<&'a dyn Reporter>,
    ) -> Worker<'a> {
        let mut eval = EvalStack::with_network(shared.network.clone());
        eval.reset(&pos);
        Worker {
            id,
            pos,
            eval,
            shared,
            history,
            reporter,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stack: vec![Frame::default(); MAX_PLY + 4],
            root_moves,
            pv_idx: 0,
            stopped: false,
            completed_depth: 0,
            root_depth: 0,
        }
    }

    /// Plays `m` at `ply` on the board and the evaluation, remembering it
    /// for counter-moves and history: every move the search makes goes
    /// through here and [`Worker::unplay`].
    #[inline]
    pub fn play(&mut self, ply: usize, m: Move) {
        self.shared.tt.prefetch(self.pos.key_after(m));
        self.pos.do_move(m);
        self.eval.push(&self.pos);
        let frame = &mut self.stack[ply];
        frame.mv = Some(m);
        frame.moved = self.pos.piece_on(m.to());
    }

    /// Takes back `m`, the last move played.
    #[inline]
    pub fn unplay(&mut self, m: Move) {
        self.pos.undo_move(m);
        self.eval.pop();
    }

    /// Passes the turn at `ply` (null-move pruning; never in check).
    #[inline]
    pub fn play_null(&mut self, ply: usize) {
        self.stack[ply].mv = None;
        self.pos.do_null_move();
        self.eval.push(&self.pos);
    }

    /// Takes back the null move.
    #[inline]
    pub fn unplay_null(&mut self) {
        self.pos.undo_null_move();
        self.eval.pop();
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Counts a node and, every POLL_MASK + 1 nodes, checks whether the
    /// search must end (stop, abort, node limit, and for the main thread the
    /// hard deadline).
    #[inline]
    pub fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            self.poll();
        }
    }

    fn poll(&mut self) {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        let total = self.shared.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
        let shared = self.shared;
        if total >= shared.node_limit {
            shared.abort.store(true, Ordering::Relaxed);
        }
        if self.is_main() && shared.control.out_of_time() {
            shared.control.stop();
        }
        if shared.control.is_stopped() || shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Pushes the unflushed node count into the shared counter.
    pub fn flush_nodes(&mut self) {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.shared.nodes.fetch_add(delta, Ordering::Relaxed);
    }

    fn skips(&self, depth: i32) -> bool {
        if self.is_main() {
            return false;
        }
        let i = (self.id - 1) % SKIP_SIZE.len();
        ((depth + self.pos.game_ply() as i32 + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0
    }

    /// Iterative deepening until the depth limit, a stop, or (main thread)
    /// the soft time target.
    pub fn iterate(&mut self) {
        let multi_pv = self.shared.multi_pv.min(self.root_moves.len()).max(1);
        let mut last_best = self.root_moves[0].mv;
        // Decaying count of best-move changes, in hundredths.
        let mut instability = 0u32;
        for depth in 1..=self.shared.max_depth {
            if self.skips(depth) && depth > 1 {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.shown_score();
                rm.score = -INFINITE;
            }
            for pv_idx in 0..multi_pv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth);
                if self.stopped {
                    break;
                }
                // Keep the lines found so far in score order for MultiPV.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !self.is_main() {
                continue;
            }
            self.report_lines(depth, multi_pv);
            let best = &self.root_moves[0];
            if best.mv != last_best {
                instability += 100;
                last_best = best.mv;
            }
            instability /= 2;
            // A found mate for us is final once searched a little deeper.
            if best.score >= MATE_BOUND
                && depth >= 2 * (super::values::MATE - best.score) + 4
                && !self.shared.consideration
            {
                break;
            }
            // Stable best move: stop a little before the plan; one that
            // just changed gets up to three times the planned time (always
            // capped by the hard deadline). A single legal move needs little.
            let percent = if self.root_moves.len() == 1 {
                20
            } else {
                super::params::stable_share_percent() as u32 + instability.min(200)
            };
            if self.shared.control.past_soft_target(percent) {
                break;
            }
        }
        self.flush_nodes();
        if self.is_main() {
            self.shared.abort.store(true, Ordering::Relaxed);
        }
    }

    /// Searches line `pv_idx` at `depth` with a window around the previous
    /// score, widening it until the score falls inside.
    fn aspiration(&mut self, depth: i32) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = super::params::aspiration_delta() + prev.abs() / 64;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search_root(depth, alpha, beta);
            self.root_moves[self.pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            if self.is_main() && self.shared.control.elapsed().as_millis() > 3000 {
                self.report_line(depth, self.pv_idx, bound);
            }
            delta += delta / 2 + 10;
            if delta > 2000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    fn report_lines(&mut self, depth: i32, multi_pv: usize) {
        for i in 0..multi_pv {
            self.report_line(depth, i, Bound::Exact);
        }
    }

    fn report_line(&mut self, depth: i32, index: usize, bound: Bound) {
        let Some(reporter) = self.reporter else {
            return;
        };
        self.flush_nodes();
        let nodes = self.shared.nodes.load(Ordering::Relaxed);
        let ms = self.shared.control.elapsed().as_millis() as u64;
        let rm = &self.root_moves[index];
        reporter.info(&SearchInfo {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            time_ms: ms,
            nodes,
            nps: nodes * 1000 / ms.max(1),
            hashfull: self.shared.tt.hashfull(),
            score: to_report(rm.shown_score()),
            bound,
            multipv: index + 1,
            pv: rm.pv.clone(),
        });
    }
}
