//! Hands out the moves of one node in the order most likely to cut off
//! early, generating lazily: the hash move before any generation, then
//! captures (best victim first, losing ones deferred), killers and the
//! counter-move, quiet moves and drops by history and by what they
//! threaten or escape (see [`QuietHints`]), and the losing
//! captures last. In check every evasion is scored in one list.

use super::history::{ContinuationRow, History};
use super::quiet_hints::QuietHints;
use super::see::{captured_value, see_ge};
use crate::eval::piece_value;
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::{Color, PieceType};
use arrayvec::ArrayVec;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    HashMove,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    GenerateEvasions,
    Evasions,
    Done,
}

type Scored = ArrayVec<(Move, i32), MAX_MOVES>;

/// Orders captures by most valuable victim, then least valuable attacker.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let promotion = if m.is_promotion() { 300 } else { 0 };
    captured_value(pos, m) * 16 - piece_value(pos.moved_kind(m)) / 16 + promotion
}

/// Removes and returns the highest-scored entry at or after `next`
/// (selection sort: most nodes cut off after a few moves).
fn pick_best(list: &mut Scored, next: &mut usize) -> Option<Move> {
    if *next >= list.len() {
        return None;
    }
    let mut best = *next;
    for i in *next + 1..list.len() {
        if list[i].1 > list[best].1 {
            best = i;
        }
    }
    list.swap(*next, best);
    *next += 1;
    Some(list[*next - 1].0)
}

/// Move ordering state of one node of the main search or quiescence.
pub struct MovePicker {
    stage: Stage,
    hash_move: Option<Move>,
    refutations: ArrayVec<Move, 3>,
    refutation_index: usize,
    list: Scored,
    next: usize,
    bad_captures: ArrayVec<Move, MAX_MOVES>,
    bad_index: usize,
    /// Quiescence: captures only, losing ones dropped.
    captures_only: bool,
    /// Set by the search once late quiet moves are not worth trying.
    pub skip_quiets: bool,
    /// Continuation-history rows of the moves one and two plies back.
    pub continuation_rows: [Option<ContinuationRow>; 2],
}

impl MovePicker {
    /// A picker for the main search. `hash_move` and `refutations` (killers,
    /// counter-move) are untrusted and checked for legality here.
    pub fn new(
        pos: &Position,
        hash_move: Option<Move>,
        refutations: [Option<Move>; 3],
    ) -> MovePicker {
        let in_check = pos.in_check();
        let hash_move = hash_move.filter(|&m| pos.is_legal(m));
        let mut refs = ArrayVec::new();
        if !in_check {
            for m in refutations.into_iter().flatten() {
                let quiet = !pos.is_capture(m);
                if quiet && Some(m) != hash_move && !refs.contains(&m) && pos.is_legal(m) {
                    refs.push(m);
                }
            }
        }
        MovePicker {
            stage: if hash_move.is_some() {
                Stage::HashMove
            } else if in_check {
                Stage::GenerateEvasions
            } else {
                Stage::GenerateCaptures
            },
            hash_move,
            refutations: refs,
            refutation_index: 0,
            list: ArrayVec::new(),
            next: 0,
            bad_captures: ArrayVec::new(),
            bad_index: 0,
            captures_only: false,
            skip_quiets: false,
            continuation_rows: [None; 2],
        }
    }

    /// A picker for quiescence: captures (evasions in check).
    pub fn new_quiescence(pos: &Position, hash_move: Option<Move>) -> MovePicker {
        let in_check = pos.in_check();
        let hash_move = hash_move.filter(|&m| (in_check || pos.is_capture(m)) && pos.is_legal(m));
        let mut picker = MovePicker::new(pos, hash_move, [None; 3]);
        picker.captures_only = true;
        picker
    }

    /// Ordering score of quiet `m`, which leaves `kind` on its
    /// destination: what it did here and after the moves that led here.
    #[inline]
    fn quiet_score(&self, history: &History, us: Color, m: Move, kind: PieceType) -> i32 {
        history.quiet(us, m) + history.continuations(&self.continuation_rows, kind, m.to())
    }

    /// Whether the current stage hands out quiet moves that came from
    /// the refutation slots (killers/counter).
    pub fn in_refutation_stage(&self) -> bool {
        self.stage == Stage::Refutations
    }

    /// The next move, or `None` when all have been handed out.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = if pos.in_check() {
                        Stage::GenerateEvasions
                    } else {
                        Stage::GenerateCaptures
                    };
                    return self.hash_move;
                }
                Stage::GenerateCaptures => {
                    let mut moves = MoveList::new();
                    pos.generate_captures(&mut moves);
                    self.list.clear();
                    for m in moves {
                        if Some(m) != self.hash_move {
                            // A full capture history (16384) over the divisor
                            // (2) is a victim about three pawns dearer.
                            let learned =
                                history.capture(pos.piece_on(m.from()), m, pos.piece_on(m.to()));
                            self.list.push((
                                m,
                                mvv_lva(pos, m) + learned / super::params::capture_history_div(),
                            ));
                        }
                    }
                    self.next = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match pick_best(&mut self.list, &mut self.next) {
                    Some(m) => {
                        if see_ge(pos, m, 0) {
                            return Some(m);
                        }
                        if !self.captures_only {
                            self.bad_captures.push(m);
                        }
                    }
                    None => {
                        self.stage = if self.captures_only {
                            Stage::Done
                        } else {
                            Stage::Refutations
                        };
                    }
                },
                Stage::Refutations => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    if let Some(&m) = self.refutations.get(self.refutation_index) {
                        self.refutation_index += 1;
                        return Some(m);
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    self.stage = Stage::Quiets;
                    if self.skip_quiets {
                        continue;
                    }
                    let mut moves = MoveList::new();
                    pos.generate_quiets(&mut moves);
                    let us = pos.side_to_move();
                    let hints = QuietHints::new(pos);
                    self.list.clear();
                    for m in moves {
                        if Some(m) != self.hash_move && !self.refutations.contains(&m) {
                            let kind = pos.moved_kind(m);
                            let score =
                                self.quiet_score(history, us, m, kind) + hints.bonus(m, kind);
                            self.list.push((m, score));
                        }
                    }
                    self.next = 0;
                }
                Stage::Quiets => {
                    if !self.skip_quiets {
                        if let Some(m) = pick_best(&mut self.list, &mut self.next) {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if let Some(&m) = self.bad_captures.get(self.bad_index) {
                        self.bad_index += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    let mut moves = MoveList::new();
                    pos.generate_legal(&mut moves);
                    let us = pos.side_to_move();
                    self.list.clear();
                    for m in moves {
                        if Some(m) == self.hash_move {
                            continue;
                        }
                        let score = if pos.is_capture(m) {
                            1_000_000 + mvv_lva(pos, m)
                        } else {
                            self.quiet_score(history, us, m, pos.moved_kind(m))
                        };
                        self.list.push((m, score));
                    }
                    self.next = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    if let Some(m) = pick_best(&mut self.list, &mut self.next) {
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_moves(sfen: &str, hash: Option<&str>, refs: [Option<&str>; 3]) -> Vec<Move> {
        let pos = Position::from_sfen(sfen).unwrap();
        let parse = |t: Option<&str>| t.and_then(Move::from_usi);
        let mut picker = MovePicker::new(&pos, parse(hash), refs.map(parse));
        let history = History::default();
        let mut out = Vec::new();
        while let Some(m) = picker.next(&pos, &history) {
            out.push(m);
        }
        out
    }

    #[test]
    fn every_legal_move_comes_out_once() {
        for sfen in [
            crate::position::START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "4k4/4g4/4p4/9/4R4/9/9/9/4K4 b G 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut legal: Vec<u16> = pos.legal_moves().iter().map(|m| m.bits()).collect();
            legal.sort_unstable();
            // Bogus hash move and killers must be filtered, not played.
            let mut got: Vec<u16> =
                all_moves(sfen, Some("5a5b"), [Some("P*5e"), Some("1a1b"), None])
                    .iter()
                    .map(|m| m.bits())
                    .collect();
            got.sort_unstable();
            assert_eq!(legal, got, "{sfen}");
        }
    }

    #[test]
    fn hash_move_first_and_losing_captures_last() {
        let sfen = "4k4/4g4/4p4/9/4R4/9/9/9/4K4 b G 1";
        let moves = all_moves(sfen, Some("5i4h"), [None; 3]);
        assert_eq!(moves[0].to_string(), "5i4h");
        let rook_takes = moves.iter().position(|m| m.to_string() == "5e5c").unwrap();
        assert!(
            rook_takes >= moves.len() - 2,
            "a losing capture is tried last"
        );
    }
}
