//! The game-tree search behind `go`.
//!
//! The USI layer builds a [`Limits`] from `go`, a [`SearchControl`] for
//! stop/ponderhit/clock, and a [`Reporter`] for output, then calls
//! [`Searcher::search`] on a worker thread.

pub mod control;
pub mod limits;
pub mod report;
pub mod time;

pub use control::SearchControl;
pub use limits::Limits;
pub use report::{Bound, Reporter, Score, SearchInfo, SilentReporter};
pub use time::{TimeOptions, TimePlan};

use crate::moves::Move;
use crate::position::{EnteringKingRule, Position};

/// Search settings that come from USI options rather than from `go`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of principal variations to report (`MultiPV`).
    pub multi_pv: usize,
    /// Declaration rule, for `bestmove win` and for scoring.
    pub entering_king_rule: EnteringKingRule,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multi_pv: 1,
            entering_king_rule: EnteringKingRule::Csa27,
        }
    }
}

/// What a finished search recommends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this move; `ponder` is the expected reply, legal after it.
    Move {
        /// The move to play.
        best: Move,
        /// The reply to ponder on, if known.
        ponder: Option<Move>,
    },
    /// No legal move, or a lost position: `bestmove resign`.
    Resign,
    /// The entering-king declaration is valid: `bestmove win`.
    DeclareWin,
}

/// The result of [`Searcher::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to send.
    pub best: BestMove,
    /// Score of the best line (side to move's view), if searched.
    pub score: Option<Score>,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// Owns what persists between searches: hash table, threads setting,
/// history tables.
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
}

impl Searcher {
    /// A searcher with a `hash_mb` table and `threads` workers.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            hash_mb,
            threads: threads.max(1),
        }
    }

    /// Re-allocates the transposition table (slow: call from `isready`).
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Forgets everything learnt in the previous game (`usinewgame`): fast.
    pub fn new_game(&mut self) {}

    /// Searches `root` until `limits` or `control` end it, reporting
    /// progress through `reporter`. Blocking; run it on its own thread.
    /// Returns as soon as the search ends, even in infinite or ponder mode:
    /// holding `bestmove` back until `stop` is the caller's job.
    pub fn search(
        &mut self,
        root: &Position,
        limits: &Limits,
        options: &SearchOptions,
        control: &SearchControl,
        reporter: &dyn Reporter,
    ) -> SearchOutcome {
        baseline::search(root, limits, options, control, reporter)
    }
}

/// A minimal material-only iterative deepening, so the front-end has
/// something real to drive until the full search lands.
mod baseline {
    use super::*;

    use crate::eval::evaluate;

    const INF: i32 = 32_000;
    const MATE: i32 = 30_000;

    struct Ctx<'a> {
        control: &'a SearchControl,
        nodes: u64,
        node_limit: u64,
        aborted: bool,
    }

    fn negamax(
        pos: &mut Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        ctx: &mut Ctx,
        pv: &mut Vec<Move>,
    ) -> i32 {
        ctx.nodes += 1;
        if ctx.nodes.is_multiple_of(1024) && (ctx.control.is_stopped() || ctx.control.out_of_time())
            || ctx.nodes >= ctx.node_limit
        {
            ctx.aborted = true;
        }
        if ctx.aborted {
            return 0;
        }
        pv.clear();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -MATE + ply;
        }
        if depth == 0 {
            return evaluate(pos);
        }
        let mut child = Vec::new();
        for &m in moves.iter() {
            pos.do_move(m);
            let score = -negamax(pos, depth - 1, ply + 1, -beta, -alpha, ctx, &mut child);
            pos.undo_move(m);
            if ctx.aborted {
                return 0;
            }
            if score > alpha {
                alpha = score;
                pv.clear();
                pv.push(m);
                pv.extend_from_slice(&child);
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    pub(super) fn search(
        root: &Position,
        limits: &Limits,
        options: &SearchOptions,
        control: &SearchControl,
        reporter: &dyn Reporter,
    ) -> SearchOutcome {
        let mut pos = root.clone();
        if pos.can_declare_win(options.entering_king_rule) {
            return SearchOutcome {
                best: BestMove::DeclareWin,
                score: None,
                nodes: 0,
            };
        }
        let moves = pos.legal_moves();
        let Some(&first) = moves.iter().next() else {
            return SearchOutcome {
                best: BestMove::Resign,
                score: None,
                nodes: 0,
            };
        };
        let mut ctx = Ctx {
            control,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            aborted: false,
        };
        let mut best_pv = vec![first];
        let mut best_score = None;
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        for depth in 1..=max_depth {
            let mut pv = Vec::new();
            let score = negamax(&mut pos, depth, 0, -INF, INF, &mut ctx, &mut pv);
            if ctx.aborted {
                break;
            }
            if !pv.is_empty() {
                best_pv = pv;
            }
            let reported = if score.abs() >= MATE - 1000 {
                Score::Mate(score.signum() * (MATE - score.abs()))
            } else {
                Score::Cp(score)
            };
            best_score = Some(reported);
            let ms = control.elapsed().as_millis() as u64;
            reporter.info(&SearchInfo {
                depth,
                seldepth: depth,
                time_ms: ms,
                nodes: ctx.nodes,
                nps: ctx.nodes * 1000 / ms.max(1),
                hashfull: 0,
                score: reported,
                bound: Bound::Exact,
                multipv: 1,
                pv: best_pv.clone(),
            });
            if control.past_soft_target(60) || score.abs() >= MATE - 1000 {
                break;
            }
        }
        SearchOutcome {
            best: BestMove::Move {
                best: best_pv[0],
                ponder: best_pv.get(1).copied(),
            },
            score: best_score,
            nodes: ctx.nodes,
        }
    }
}
