//! Quiescence search: at the horizon, play out captures (all evasions when
//! in check) until the position is quiet, so that the static evaluation is
//! never taken in the middle of an exchange.

use super::correction::CorrectionKeys;
use super::movepick::MovePicker;
use super::report::Bound;
use super::see::captured_value;
use super::thread::Worker;
use super::values::{from_tt, mated_in, to_tt, INFINITE, MATE_BOUND, MAX_PLY};

impl Worker<'_> {
    /// Quiescence search of the node at `ply`.
    pub(crate) fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, pv_node: bool) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.stack[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check {
                0
            } else {
                self.eval.evaluate(&self.pos)
            };
        }
        let game_end = if in_check {
            self.game_end_score(ply)
        } else {
            self.move_limit_score(ply)
        };
        if let Some(score) = game_end {
            return score;
        }

        let key = self.pos.key();
        let tt_hit = self.shared.tt.probe(key);
        if let Some(hit) = tt_hit {
            let score = from_tt(hit.score, ply);
            if !pv_node
                && match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                }
            {
                return score;
            }
        }

        let original_alpha = alpha;
        let (mut best_score, stand_pat, raw_eval) = if in_check {
            (-INFINITE, -INFINITE, -INFINITE + 1)
        } else {
            let raw = tt_hit.map_or_else(|| self.eval.evaluate(&self.pos), |h| h.eval);
            let us = self.pos.side_to_move();
            let keys = CorrectionKeys::new(&self.pos);
            let stand_pat = self.history.correction.corrected(us, keys, raw);
            if stand_pat >= beta {
                if tt_hit.is_none() {
                    self.shared
                        .tt
                        .store(key, None, to_tt(stand_pat, ply), raw, 0, Bound::Lower);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            (stand_pat, stand_pat, raw)
        };

        let mut picker = MovePicker::new_quiescence(&self.pos, tt_hit.and_then(|h| h.mv));
        let mut best_move = None;
        let mut move_count = 0;
        while let Some(m) = picker.next(&self.pos, self.history) {
            move_count += 1;
            // Delta pruning: even winning this piece cannot reach alpha.
            if !in_check
                && !m.is_promotion()
                && best_score > -MATE_BOUND
                // A capture must be able to bring the score within the margin of alpha.
                && stand_pat + captured_value(&self.pos, m) + super::params::qsearch_delta() <= alpha
            {
                continue;
            }
            self.play(ply, m);
            let score = -self.qsearch(ply + 1, -beta, -alpha, pv_node);
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
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, to_tt(best_score, ply), raw_eval, 0, bound);
        best_score
    }
}
