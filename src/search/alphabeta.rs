//! The principal-variation alpha-beta search of root and interior nodes,
//! with the usual selectivity: hash cutoffs, mate-distance pruning, a
//! one-move mate test, razoring, reverse futility, null move, internal
//! iterative reduction, late-move pruning and reductions, futility and
//! SEE pruning, and check and singular extensions.

use super::correction::CorrectionKeys;
use super::history::{history_bonus, ContinuationRow};
use super::mate1::mate_in_one;
use super::movepick::MovePicker;
use super::params;
use super::report::Bound;
use super::see::see_ge;
use super::thread::Worker;
use super::values::{from_tt, mate_in, mated_in, to_tt, INFINITE, MATE_BOUND, MAX_PLY};
use crate::moves::Move;
use crate::position::{Position, Repetition};
use crate::types::PieceType;
use arrayvec::ArrayVec;
use once_cell::sync::Lazy;

/// Late-move reductions by depth and move number: ~ ln(d)·ln(n)/2 (the
/// base and divisor are `params::lmr_base` / `lmr_divisor`, in hundredths).
fn reduction_table() -> [[u8; 64]; 64] {
    let base = f64::from(params::lmr_base()) / 100.0;
    let divisor = f64::from(params::lmr_divisor()) / 100.0;
    let mut table = [[0u8; 64]; 64];
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (n as f64).ln() / divisor) as u8;
        }
    }
    table
}

#[cfg(not(feature = "tune"))]
static REDUCTIONS: Lazy<[[u8; 64]; 64]> = Lazy::new(reduction_table);

#[cfg(not(feature = "tune"))]
#[inline]
fn reduction(depth: i32, move_count: usize) -> i32 {
    REDUCTIONS[(depth as usize).min(63)][move_count.min(63)] as i32
}

/// Tuning builds: the table follows the LMR parameters as SPSA sets them.
#[cfg(feature = "tune")]
static REDUCTIONS: Lazy<[[std::sync::atomic::AtomicU8; 64]; 64]> =
    Lazy::new(|| reduction_table().map(|row| row.map(std::sync::atomic::AtomicU8::new)));

#[cfg(feature = "tune")]
#[inline]
fn reduction(depth: i32, move_count: usize) -> i32 {
    REDUCTIONS[(depth as usize).min(63)][move_count.min(63)]
        .load(std::sync::atomic::Ordering::Relaxed) as i32
}

#[cfg(all(test, feature = "tune"))]
pub(crate) fn reduction_for_test(depth: i32, move_count: usize) -> i32 {
    reduction(depth, move_count)
}

/// Recomputes the reduction table after an LMR parameter changed.
#[cfg(feature = "tune")]
pub(crate) fn rebuild_reductions() {
    for (row, new) in REDUCTIONS.iter().zip(reduction_table()) {
        for (r, v) in row.iter().zip(new) {
            r.store(v, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// What the singular-extension test says about the hash move.
enum Singular {
    /// It alone holds the node up: search it this many plies deeper.
    Extend(i32),
    /// Another move beats beta too: return this score.
    Cut(i32),
    /// Other moves hold up too, and the hash move is expected to fail
    /// high (or this is a cut node): search it a ply shallower.
    Reduce,
    Neither,
}

/// How far back repetitions are looked for (plies).
const REPETITION_PLIES: usize = 32;

/// Score of a repetition for the side to move at `ply`, if any.
///
/// The same board with a better or worse hand is searched on like any
/// other position: the evaluation already counts the hand, and a fixed
/// score for it (we used ±1500) is wrong by the value of a pawn or so,
/// depends on the path, and spread through the hash table into root scores
/// stuck at +1500 in games the engine then lost.
pub(crate) fn repetition_score(pos: &Position, ply: usize, draw: i32) -> Option<i32> {
    match pos.repetition(REPETITION_PLIES, 1) {
        Repetition::None | Repetition::Superior | Repetition::Inferior => None,
        Repetition::Draw => Some(draw),
        Repetition::Win => Some(mate_in(ply)),
        Repetition::Loss => Some(mated_in(ply)),
    }
}

/// Whether `pos`'s side to move has something besides king and pawns
/// (on the board or in hand): without it a null move may miss zugzwang.
fn has_non_pawn_material(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let pawns_and_king = pos.pieces(us, PieceType::Pawn) | pos.pieces(us, PieceType::King);
    (pos.pieces_of(us) - pawns_and_king).is_nonempty() || pos.hand(us).has_non_pawn()
}

impl Worker<'_> {
    /// What a draw is worth to the side to move here.
    #[inline]
    fn draw_score(&self) -> i32 {
        self.shared.draw.score[self.pos.side_to_move().index()]
    }

    /// The score when the game has ended here by repetition or by length.
    #[inline]
    pub(crate) fn game_end_score(&self, ply: usize) -> Option<i32> {
        if let Some(score) = repetition_score(&self.pos, ply, self.draw_score()) {
            return Some(score);
        }
        self.move_limit_score(ply)
    }

    /// The score when `MaxMovesToDraw` moves have been played: a draw,
    /// unless the last of them mated.
    #[inline]
    pub(crate) fn move_limit_score(&self, ply: usize) -> Option<i32> {
        if self.pos.game_ply() <= self.shared.draw.last_move_number {
            return None;
        }
        Some(if self.pos.in_check() && !self.pos.has_legal_move() {
            mated_in(ply)
        } else {
            self.draw_score()
        })
    }

    /// The PV at `ply` becomes `m` followed by the child's PV.
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.stack.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(m);
        let room = pv.capacity() - 1;
        pv.extend(tail[0].pv.iter().copied().take(room));
    }

    /// Searches every root move from `pv_idx` on; records each move's score
    /// (or -INFINITE when it failed low behind a better one) and PV.
    pub(crate) fn search_root(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITE;
        self.count_node();
        self.stack[1].double_extensions = 0;
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let move_count = i - self.pv_idx + 1;
            let gives_check = self.pos.gives_check(m);
            let quiet = self.pos.is_quiet(m);
            let new_depth = depth - 1 + i32::from(gives_check && see_ge(&self.pos, m, 0));
            self.seldepth = self.seldepth.max(1);
            self.play(0, m);
            let mut score;
            if move_count == 1 {
                score = -self.search(new_depth, 1, -beta, -alpha, false, true);
            } else {
                let r = if depth >= 3 && move_count > 3 && quiet && !gives_check {
                    (reduction(depth, move_count) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.search(new_depth - r, 1, -alpha - 1, -alpha, true, false);
                if score > alpha && r > 0 {
                    score = -self.search(new_depth, 1, -alpha - 1, -alpha, true, false);
                }
                if score > alpha && score < beta {
                    score = -self.search(new_depth, 1, -beta, -alpha, false, true);
                }
            }
            self.unplay(m);
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if move_count == 1 || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.stack[1].pv);
            } else {
                rm.score = -INFINITE;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Alpha-beta search of an interior node at `ply` with `depth` left.
    pub(crate) fn search(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(ply, alpha, beta, pv_node);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.stack[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = self.game_end_score(ply) {
            return score;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check {
                0
            } else {
                self.eval.evaluate(&self.pos)
            };
        }
        // Mate-distance pruning: no line from here beats a shorter mate.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let rule = self.shared.entering_king_rule;
        if self.pos.can_declare_win(rule) || self.pos.try_move(rule).is_some() {
            return mate_in(ply + 1);
        }

        let key = self.pos.key();
        // A singular-extension search asks a different question of this
        // node (its best move barred), so it neither reads nor writes the
        // hash entry of the full node.
        let excluded = self.stack[ply].excluded;
        let tt_hit = if excluded.is_some() {
            None
        } else {
            self.shared.tt.probe(key)
        };
        let tt_move = tt_hit.and_then(|h| h.mv);
        if let Some(hit) = tt_hit {
            let score = from_tt(hit.score, ply);
            if !pv_node
                && hit.depth >= depth
                && match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                }
            {
                if let Some(m) = tt_move.filter(|&m| self.pos.is_quiet(m) && self.pos.is_legal(m)) {
                    self.learn_from_hash_cutoff(ply, m, depth, score >= beta);
                }
                return score;
            }
        }

        // Mate-in-one costs about a third of the node rate when run at every
        // node; at depth >= 2 only it pays for itself (bench depth 14:
        // 1.14M nodes in 6.1 s against 1.46M in 8.8 s at all depths).
        if !in_check && depth >= 2 && excluded.is_none() {
            if let Some(m) = mate_in_one(&mut self.pos) {
                let score = mate_in(ply + 1);
                let stored = to_tt(score, ply);
                self.shared
                    .tt
                    .store(key, Some(m), stored, 0, MAX_PLY as i32, Bound::Exact);
                self.stack[ply].pv.clear();
                self.stack[ply].pv.push(m);
                return score;
            }
        }

        // Static evaluation, corrected by what searches of positions with
        // the same structures found, then sharpened by a hash score that
        // bounds it.
        let us = self.pos.side_to_move();
        let correction_keys = (!in_check).then(|| CorrectionKeys::new(&self.pos));
        let (raw_eval, eval) = match correction_keys {
            None => (-INFINITE, -INFINITE),
            Some(keys) => {
                let raw = tt_hit.map_or_else(|| self.eval.evaluate(&self.pos), |h| h.eval);
                let corrected = self.history.correction.corrected(us, keys, raw);
                let eval = match tt_hit {
                    Some(hit)
                        if hit.score.abs() < MATE_BOUND
                            && hit.bound.improves_on(hit.score, corrected) =>
                    {
                        hit.score
                    }
                    _ => corrected,
                };
                (raw, eval)
            }
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;
        self.stack[ply + 1].killers = [None; 2];
        // Set when passing would get us mated: the quiet defences that
        // pruning would skip are then the moves that matter.
        let mut mate_threat = false;

        if !pv_node && !in_check && excluded.is_none() {
            // Razoring: far below alpha, only captures can save the node.
            if depth <= 3
                && eval + params::razor_base() + params::razor_depth_sq() * depth * depth < alpha
            {
                let score = self.qsearch(ply, alpha, alpha + 1, false);
                if score < alpha {
                    return score;
                }
            }
            // Reverse futility: far above beta, assume it stays there.
            let margin = params::rfp_margin() * depth
                - if improving {
                    params::rfp_improving()
                } else {
                    0
                };
            if depth <= params::rfp_max_depth() && eval - margin >= beta && eval < MATE_BOUND {
                return eval;
            }
            // Null move: if passing still beats beta, a real move will too.
            if depth >= 3
                && eval >= beta
                && beta > -MATE_BOUND
                && ply >= 1
                && self.stack[ply - 1].mv.is_some()
                && has_non_pawn_material(&self.pos)
            {
                // Passing is almost never best in shogi, so the null move
                // can be searched shallow (3 + depth/4 before: 103-6-91).
                let r = params::null_base()
                    + depth / params::null_depth_div()
                    + ((eval - beta) / params::null_eval_div()).min(3);
                self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
                self.play_null(ply);
                let score = -self.search(depth - r, ply + 1, -beta, -beta + 1, !cut_node, false);
                self.unplay_null();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
                mate_threat = score <= -MATE_BOUND;
            }
        }

        // Internal iterative reduction: no hash move means a poorly
        // ordered node; search it shallower first.
        if tt_move.is_none() && excluded.is_none() && depth >= 4 && (pv_node || cut_node) {
            depth -= 1;
        }

        let prev = self.previous_move(ply);
        let counter = prev.and_then(|(piece, m)| self.history.counter(piece, m));
        let tt_move_noisy = tt_move.is_some_and(|m| !self.pos.is_quiet(m));
        let killers = self.stack[ply].killers;
        let continuation_rows = self.continuation_rows(ply);
        let mut picker = MovePicker::new(&self.pos, tt_move, [killers[0], killers[1], counter]);
        picker.continuation_rows = continuation_rows;

        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut move_count = 0usize;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let original_alpha = alpha;

        while let Some(m) = picker.next(&self.pos, self.history) {
            if Some(m) == excluded {
                continue;
            }
            move_count += 1;
            let quiet = self.pos.is_quiet(m);
            let refutation = picker.in_refutation_stage();
            let gives_check = self.pos.gives_check(m);

            // Shallow-depth pruning, once a move has saved us from mate.
            if ply >= 1 && best_score > -MATE_BOUND && !in_check && !mate_threat {
                if quiet && !gives_check {
                    let lmp_limit = (params::lmp_base() + depth * depth) as usize
                        / if improving { 1 } else { 2 };
                    if depth <= 8 && move_count > lmp_limit.max(2) {
                        picker.skip_quiets = true;
                        continue;
                    }
                    let lmr_depth = (depth - 1 - reduction(depth, move_count)).max(0);
                    let futility = params::futility_base() + params::futility_depth() * lmr_depth;
                    if lmr_depth <= 6 && eval + futility <= alpha {
                        continue;
                    }
                    let see_margin = -params::see_quiet_sq() * lmr_depth * lmr_depth;
                    if lmr_depth <= 6 && !see_ge(&self.pos, m, see_margin) {
                        continue;
                    }
                } else if depth <= 6 && !see_ge(&self.pos, m, -params::see_noisy() * depth) {
                    // Captures and checks: sacrifices drive shogi attacks,
                    // so only clearly losing ones go (Fairy-Stockfish's
                    // shogi margin; -120 per ply before).
                    continue;
                }
            }

            let mut extension = 0;
            if ply < 2 * self.root_depth as usize {
                let singular_candidate = tt_hit.filter(|hit| {
                    Some(m) == tt_move
                        && depth >= params::singular_min_depth()
                        && excluded.is_none()
                        && hit.depth >= depth - 3
                        && hit.bound != Bound::Upper
                        && from_tt(hit.score, ply).abs() < MATE_BOUND
                });
                if let Some(hit) = singular_candidate {
                    let tt_score = from_tt(hit.score, ply);
                    match self.singular_test(m, tt_score, depth, ply, beta, cut_node, pv_node) {
                        Singular::Extend(plies) => extension = plies,
                        Singular::Cut(score) => return score,
                        Singular::Reduce => extension = -1,
                        Singular::Neither => {}
                    }
                }
                // Check extension for checks that do not just lose the piece,
                // at every node: limited to PV nodes it won at 50000 nodes a
                // move but lost 57-4-83 at byoyomi 250 ms.
                if gives_check && see_ge(&self.pos, m, 0) {
                    extension = extension.max(1);
                }
            }
            let new_depth = depth - 1 + extension;
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + u8::from(extension >= 2);

            let late = depth >= 3 && move_count > 1 + usize::from(pv_node);
            let reducible = late && (quiet || !see_ge(&self.pos, m, 0));
            // What the histories learned of a quiet move shortens or
            // lengthens its reduction.
            let learned = if reducible && quiet {
                self.history.quiet(us, m)
                    + self
                        .history
                        .continuations(&continuation_rows, self.pos.moved_kind(m), m.to())
            } else {
                0
            };
            self.play(ply, m);
            let mut score;
            if reducible {
                let mut r = reduction(depth, move_count);
                if pv_node {
                    r -= 1;
                }
                if cut_node {
                    r += 1;
                }
                if !improving {
                    r += 1;
                }
                if refutation {
                    r -= 1;
                }
                if gives_check || in_check || mate_threat {
                    r -= 1;
                }
                // Quiet moves rarely beat a capturing or promoting hash move.
                if quiet && tt_move_noisy {
                    r += 1;
                }
                r -= learned / params::lmr_history_div();
                let r = r.clamp(0, new_depth - 1);
                score = -self.search(new_depth - r, ply + 1, -alpha - 1, -alpha, true, false);
                if score > alpha && r > 0 {
                    score = -self.search(new_depth, ply + 1, -alpha - 1, -alpha, !cut_node, false);
                }
            } else if !pv_node || move_count > 1 {
                score = -self.search(new_depth, ply + 1, -alpha - 1, -alpha, !cut_node, false);
            } else {
                score = alpha + 1; // forces the full-window search below
            }
            if pv_node && (move_count == 1 || (score > alpha && score < beta)) {
                score = -self.search(new_depth, ply + 1, -beta, -alpha, false, true);
            }
            self.unplay(m);
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if Some(m) != best_move {
                if quiet {
                    let _ = quiets_tried.try_push(m);
                } else {
                    let _ = captures_tried.try_push(m);
                }
            }
        }

        if move_count == 0 {
            // No legal move is a loss in shogi, in check or not; with the
            // only move barred, the node just fails low.
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }

        if best_score >= beta {
            if let Some(m) = best_move {
                let bonus = history_bonus(depth);
                if self.pos.is_quiet(m) {
                    let rows = &continuation_rows;
                    self.reward_quiet(ply, m, bonus, &quiets_tried, prev, rows);
                } else {
                    self.update_capture_history(m, bonus);
                }
                for &c in &captures_tried {
                    self.update_capture_history(c, -bonus);
                }
            }
        }

        if excluded.is_some() {
            return best_score;
        }
        // Nothing here beat alpha: the opponent's quiet move that led here
        // was a good one; credit it in the continuation tables of its node.
        if best_move.is_none() && (depth >= 3 || pv_node) && self.pos.captured_piece().is_none() {
            self.reward_prior_move(ply, history_bonus(depth));
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if let Some(keys) = correction_keys {
            // Learn from results that say how wrong the evaluation was:
            // not from a capture's gain, a mate, or a bound on the
            // wrong side of the evaluation.
            let quiet_best = best_move.is_none_or(|m| self.pos.is_quiet(m));
            let informative = bound.improves_on(best_score, raw_eval);
            if quiet_best && informative && best_score.abs() < MATE_BOUND {
                let error = best_score - raw_eval;
                self.history.correction.update(us, keys, depth, error);
            }
        }
        self.shared.tt.store(
            key,
            best_move,
            to_tt(best_score, ply),
            raw_eval.max(-INFINITE + 1),
            depth,
            bound,
        );
        best_score
    }

    /// Singular-extension test of the hash move `m` (scored `tt_score`):
    /// a half-depth search of the node with `m` barred, just below that
    /// score. If every other move fails there, `m` alone holds the node
    /// up and a mistake in its line costs the most: extend it (two plies
    /// when the others fail by far, off the PV). If even the lowered bound
    /// clears beta, a second move beats beta: cut. If other moves hold but
    /// the hash score already beats beta, or the node is expected to fail
    /// high, `m` is no more urgent than they are: reduce it.
    #[allow(clippy::too_many_arguments)]
    fn singular_test(
        &mut self,
        m: Move,
        tt_score: i32,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
        pv_node: bool,
    ) -> Singular {
        let singular_beta = tt_score - params::singular_margin() * depth;
        self.stack[ply].excluded = Some(m);
        let score = self.search(
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            cut_node,
            false,
        );
        self.stack[ply].excluded = None;
        if self.stopped {
            // Any answer will do: the search is being unwound.
            Singular::Cut(0)
        } else if score < singular_beta {
            let double = !pv_node
                && score < singular_beta - params::singular_double_margin()
                && i32::from(self.stack[ply].double_extensions) < params::singular_double_limit();
            Singular::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if tt_score >= beta || cut_node {
            Singular::Reduce
        } else {
            Singular::Neither
        }
    }

    /// History updates for a hash cutoff by the quiet hash move `m`: the
    /// reward of a normal cutoff when it fails high, a penalty when it
    /// fails low, so that ordering keeps learning at nodes that end early.
    fn learn_from_hash_cutoff(&mut self, ply: usize, m: Move, depth: i32, fails_high: bool) {
        let rows = self.continuation_rows(ply);
        let bonus = history_bonus(depth);
        if fails_high {
            let prev = self.previous_move(ply);
            self.reward_quiet(ply, m, bonus, &[], prev, &rows);
        } else {
            self.update_quiet_histories(m, -bonus, &rows);
        }
    }

    /// Continuation-history bonus for the (quiet) move that led to `ply`,
    /// in the rows of the moves before it.
    fn reward_prior_move(&mut self, ply: usize, bonus: i32) {
        let Some(prior) = ply.checked_sub(1) else {
            return;
        };
        let frame = &self.stack[prior];
        let Some(m) = frame.mv else {
            return;
        };
        let kind = frame.moved.kind_unchecked();
        let rows = self.continuation_rows(prior);
        self.history
            .update_continuations(&rows, kind, m.to(), bonus);
    }

    /// The move played just before `ply` and the piece it left on its
    /// destination (none at the root or after a null move).
    fn previous_move(&self, ply: usize) -> Option<(crate::types::Piece, Move)> {
        let frame = &self.stack[ply.checked_sub(1)?];
        frame.mv.map(|m| (frame.moved, m))
    }

    /// The continuation-history rows read and written at `ply`: those of
    /// the moves one and two plies before it.
    fn continuation_rows(&self, ply: usize) -> [Option<ContinuationRow>; 2] {
        [self.continuation_row(ply, 1), self.continuation_row(ply, 2)]
    }

    /// The continuation-history row of the move played `back` plies
    /// before `ply` (none across a null move or before the root).
    fn continuation_row(&self, ply: usize, back: usize) -> Option<ContinuationRow> {
        let frame = self.stack.get(ply.checked_sub(back)?)?;
        frame.mv.map(|m| ContinuationRow::new(frame.moved, m.to()))
    }

    /// Capture-history update of the capture or promotion `m`.
    fn update_capture_history(&mut self, m: Move, bonus: i32) {
        let moved = self.pos.piece_on(m.from());
        let captured = self.pos.piece_on(m.to());
        self.history.update_capture(moved, m, captured, bonus);
    }

    /// Butterfly and continuation (after the moves of `rows`) update of
    /// the quiet move `m` by `bonus`.
    fn update_quiet_histories(&mut self, m: Move, bonus: i32, rows: &[Option<ContinuationRow>; 2]) {
        let us = self.pos.side_to_move();
        self.history.update_quiet(us, m, bonus);
        let kind = self.pos.moved_kind(m);
        self.history.update_continuations(rows, kind, m.to(), bonus);
    }

    /// History (butterfly and continuation, after the moves of `rows`),
    /// killer and counter-move updates after quiet `m` cut off (`bonus`
    /// from [`history_bonus`]); the quiets tried before it lose the bonus.
    fn reward_quiet(
        &mut self,
        ply: usize,
        m: Move,
        bonus: i32,
        tried: &[Move],
        prev: Option<(crate::types::Piece, Move)>,
        rows: &[Option<ContinuationRow>; 2],
    ) {
        self.update_quiet_histories(m, bonus, rows);
        for &q in tried {
            self.update_quiet_histories(q, -bonus, rows);
        }
        let killers = &mut self.stack[ply].killers;
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        if let Some((piece, pm)) = prev {
            self.history.set_counter(piece, pm, m);
        }
    }
}
