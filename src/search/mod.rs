//! The game-tree search behind `go`.
//!
//! The USI layer builds a [`Limits`] from `go`, a [`SearchControl`] for
//! stop/ponderhit/clock, and a [`Reporter`] for output, then calls
//! [`Searcher::search`] on a worker thread.
//!
//! Layout: `thread.rs` (iterative deepening, aspiration), `alphabeta.rs`
//! (root and interior nodes), `qsearch.rs`, `movepick.rs` (staged move
//! ordering) with `history.rs` and `see.rs`, `correction.rs` (static
//! evaluation corrected by past search results), `mate1.rs` (one-move mates),
//! `tt.rs` (shared hash table), `smp.rs` (Lazy SMP threads), `values.rs`
//! (score scale). `gyoku bench` (the node-count signature) is a tool:
//! `src/tools/bench.rs`.

mod alphabeta;
pub mod control;
mod correction;
mod history;
pub mod limits;
mod mate1;
mod movepick;
pub mod params;
mod qsearch;
mod quiet_hints;
pub mod report;
pub mod see;
mod smp;
mod thread;
pub mod time;
pub mod tt;
mod values;

pub use control::SearchControl;
pub use limits::Limits;
pub use report::{Bound, Reporter, Score, SearchInfo, SilentReporter};
pub use time::{TimeOptions, TimePlan};

use crate::moves::Move;
use crate::nnue::Network;
use crate::position::{EnteringKingRule, Position};
use history::History;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use thread::{DrawRule, RootMove, Shared};
use tt::TranspositionTable;

/// Search settings that come from USI options rather than from `go`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Number of principal variations to report (`MultiPV`).
    pub multi_pv: usize,
    /// Declaration rule, for `bestmove win` and for scoring.
    pub entering_king_rule: EnteringKingRule,
    /// A game still going after this many moves is a draw (0 = no limit).
    pub max_moves_to_draw: u32,
    /// What a draw is worth to the engine when it plays Black / White (cp).
    pub draw_value: [i32; 2],
    /// `SkillLevel` 0..=20: below 20 the search is shallower and the move
    /// is picked at random among the best few, the weaker the lower.
    pub skill_level: u8,
    /// `ConsiderationMode`: deepen past a found mate, and report the final
    /// lines again with the last counts when the search ends.
    pub consideration_mode: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multi_pv: 1,
            entering_king_rule: EnteringKingRule::Csa27,
            max_moves_to_draw: 0,
            draw_value: [0, 0],
            skill_level: FULL_SKILL,
            consideration_mode: false,
        }
    }
}

/// `SkillLevel` at full strength.
pub const FULL_SKILL: u8 = 20;

/// Lines a weakened search keeps to choose from.
const SKILL_LINES: usize = 4;

/// Stockfish's weakened pick among `scores` (best first, the top lines of
/// a MultiPV search): each line gets a push that grows with its gap to the
/// best and a random part, both scaled by the weakness; the highest score
/// plus push wins. `randoms` gives one random number per line.
pub fn skill_pick(scores: &[i32], level: u8, randoms: &[u64]) -> usize {
    let Some(&top) = scores.first() else {
        return 0;
    };
    let weakness = 120 - 2 * i64::from(level.min(FULL_SKILL));
    let delta = i64::from(top - scores[scores.len() - 1]).min(90);
    let mut best = (i64::MIN, 0);
    for (i, &score) in scores.iter().enumerate() {
        let random = randoms.get(i).copied().unwrap_or(0) % weakness as u64;
        let push = (weakness * i64::from(top - score) + delta * random as i64) / 128;
        let value = i64::from(score) + push;
        if value > best.0 {
            best = (value, i);
        }
    }
    best.1
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
    /// The chosen thread's root lines in MultiPV order (first move and
    /// score), up to the MultiPV setting; empty when nothing was searched
    /// (a declaration, a mate in one, no legal move).
    pub lines: Vec<(Move, Score)>,
}

/// Owns what persists between searches: hash table, threads setting,
/// history tables.
pub struct Searcher {
    tt: TranspositionTable,
    threads: usize,
    histories: Vec<History>,
    /// The NNUE network, or `None` for the linear evaluation.
    network: Option<Arc<Network>>,
}

impl Searcher {
    /// A searcher with a `hash_mb` table and `threads` workers.
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        let mut searcher = Searcher {
            tt: TranspositionTable::new(hash_mb),
            threads: 1,
            histories: Vec::new(),
            network: None,
        };
        searcher.set_threads(threads);
        searcher
    }

    /// Re-allocates the transposition table (slow: call from `isready`).
    pub fn resize_hash(&mut self, hash_mb: usize) {
        // Free the old table first so that both never live at once.
        self.tt = TranspositionTable::new(1);
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Whether the transposition table sits in Windows large pages.
    pub fn hash_in_large_pages(&self) -> bool {
        self.tt.in_large_pages()
    }

    /// Sets the number of search threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.histories.resize_with(self.threads, History::default);
    }

    /// Evaluates with `network` from the next search on (`None`: the
    /// linear evaluation).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
    }

    /// Forgets everything learnt in the previous game (`usinewgame`): fast.
    pub fn new_game(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Per mille of the transposition table used by the current search
    /// (for `info hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

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
        if root.can_declare_win(options.entering_king_rule) {
            return SearchOutcome {
                best: BestMove::DeclareWin,
                score: None,
                nodes: 0,
                lines: Vec::new(),
            };
        }
        if let Some(best) = root.try_move(options.entering_king_rule) {
            return SearchOutcome {
                best: BestMove::Move { best, ponder: None },
                score: Some(Score::Mate(1)),
                nodes: 0,
                lines: Vec::new(),
            };
        }
        let mut legal = root.legal_moves();
        if legal.is_empty() {
            return SearchOutcome {
                best: BestMove::Resign,
                score: Some(Score::Mate(0)),
                nodes: 0,
                lines: Vec::new(),
            };
        }
        if legal.iter().any(|m| limits.searchmoves.contains(m)) {
            legal.retain(|m| limits.searchmoves.contains(m));
        }
        self.tt.new_search();
        // The hash move first: it is what a search stopped at once plays.
        let tt_move = self.tt.probe(root.key()).and_then(|h| h.mv);
        if let Some(i) = legal.iter().position(|&m| Some(m) == tt_move) {
            legal[..=i].rotate_right(1);
        }
        let root_moves: Vec<RootMove> = legal.iter().map(|&m| RootMove::new(m)).collect();
        let weakened = options.skill_level < FULL_SKILL;
        let shared = Shared {
            tt: &self.tt,
            control,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            max_depth: limits
                .depth
                .map_or(values::MAX_PLY as i32 - 4, |d| d.clamp(1, 100) as i32)
                .min(if weakened {
                    1 + i32::from(options.skill_level)
                } else {
                    i32::MAX
                }),
            multi_pv: if weakened {
                options.multi_pv.max(SKILL_LINES)
            } else {
                options.multi_pv.max(1)
            },
            entering_king_rule: options.entering_king_rule,
            draw: DrawRule::new(options, root.side_to_move()),
            network: self.network.clone(),
            consideration: options.consideration_mode,
        };
        let results = smp::run_threads(root, &root_moves, &shared, &mut self.histories, reporter);
        let chosen = &results[smp::best_thread(&results, shared.multi_pv)];
        if options.consideration_mode {
            report_final_lines(chosen, &shared, reporter);
        }
        let mut pick = 0;
        if weakened {
            let lines = chosen.root_moves.len().min(shared.multi_pv);
            let scores: Vec<i32> = chosen.root_moves[..lines]
                .iter()
                .map(RootMove::shown_score)
                .collect();
            let mut seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1;
            let randoms: Vec<u64> = (0..lines)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed
                })
                .collect();
            pick = skill_pick(&scores, options.skill_level, &randoms);
        }
        let best_line = &chosen.root_moves[pick];
        let best = best_line.mv;
        let ponder = self.ponder_move(root, best, best_line.pv.get(1).copied());
        let score = best_line.shown_score();
        let searched = chosen.root_moves.len().min(shared.multi_pv);
        let lines = chosen.root_moves[..searched]
            .iter()
            .filter(|rm| rm.shown_score() > -values::INFINITE)
            .map(|rm| (rm.mv, values::to_report(rm.shown_score())))
            .collect();
        SearchOutcome {
            best: BestMove::Move { best, ponder },
            score: (score > -values::INFINITE).then(|| values::to_report(score)),
            nodes: shared.nodes.load(Ordering::Relaxed),
            lines,
        }
    }

    /// The expected reply to `best`: the PV's second move, else the hash
    /// move of the position after `best`, if legal there.
    fn ponder_move(&self, root: &Position, best: Move, from_pv: Option<Move>) -> Option<Move> {
        let mut pos = root.clone();
        pos.do_move(best);
        from_pv
            .or_else(|| self.tt.probe(pos.key()).and_then(|h| h.mv))
            .filter(|&m| pos.is_legal(m))
    }
}

/// `ConsiderationMode`: the chosen thread's lines once more, with the
/// final node count and time, so an analysis GUI shows where the search
/// ended and not where its last PV line happened to be printed.
fn report_final_lines(chosen: &smp::ThreadResult, shared: &Shared, reporter: &dyn Reporter) {
    if chosen.completed_depth < 1 {
        return;
    }
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let ms = shared.control.elapsed().as_millis() as u64;
    let depth = chosen.completed_depth as u32;
    let lines = chosen.root_moves.len().min(shared.multi_pv);
    for (i, rm) in chosen.root_moves[..lines].iter().enumerate() {
        if rm.shown_score() <= -values::INFINITE {
            continue;
        }
        reporter.info(&SearchInfo {
            depth,
            seldepth: (rm.seldepth as u32).max(depth),
            time_ms: ms,
            nodes,
            nps: nodes * 1000 / ms.max(1),
            hashfull: shared.tt.hashfull(),
            score: values::to_report(rm.shown_score()),
            bound: Bound::Exact,
            multipv: i + 1,
            pv: rm.pv.clone(),
        });
    }
}

#[cfg(test)]
mod tests;
