//! Partial generators for the search: captures, quiet moves, and moves onto
//! chosen squares. Each produces exactly the legal moves of its class, so a
//! search that plays captures first and quiets later never sees a move
//! twice and never misses one; the test below checks
//! `captures ∪ quiets == legal` against the full generator.
//!
//! They reuse the legal generator's pieces with narrower target sets, which
//! is sound only when the side to move is not in check (in check the
//! targets are the checker and the squares between, see `generate_legal`),
//! so in check they all fall back to the full evasion list.

use crate::bitboard::Bitboard;
use crate::moves::MoveList;
use crate::position::Position;

impl Position {
    /// Appends the legal captures (with and without promotion); all legal
    /// evasions when in check.
    pub fn generate_captures(&self, list: &mut MoveList) {
        let enemy = self.by_color[self.side.flip().index()];
        self.generate_onto(list, enemy, Bitboard::EMPTY);
    }

    /// Appends the legal moves onto empty squares, drops included; nothing
    /// when in check (the evasions come from `generate_captures`).
    pub fn generate_quiets(&self, list: &mut MoveList) {
        if self.in_check() {
            return;
        }
        let empty = !self.occupied();
        self.generate_onto(list, empty, empty);
    }

    /// Appends the legal moves (board moves and drops) whose destination is
    /// in `targets`; all legal evasions when in check.
    pub fn generate_legal_onto(&self, list: &mut MoveList, targets: Bitboard) {
        let own = self.by_color[self.side.index()];
        let board_targets = targets - own;
        self.generate_onto(list, board_targets, board_targets & !self.occupied());
    }

    fn generate_onto(&self, list: &mut MoveList, board_targets: Bitboard, drop_targets: Bitboard) {
        if self.in_check() {
            self.generate_legal(list);
            return;
        }
        let ksq = self.kings[self.side.index()];
        // `safe_king_targets` skips the squares it is told are "own".
        for to in self.safe_king_targets(!board_targets) {
            list.push(crate::moves::Move::normal(ksq, to, false));
        }
        self.generate_piece_moves(list, board_targets, false);
        self.generate_drops(list, drop_targets);
    }
}

#[cfg(test)]
mod tests {
    use crate::moves::{Move, MoveList};
    use crate::position::Position;

    fn sorted(list: &MoveList) -> Vec<u16> {
        let mut v: Vec<u16> = list.iter().map(|m: &Move| m.bits()).collect();
        v.sort_unstable();
        v
    }

    /// Walks a small tree and checks at every node that captures and quiets
    /// split the legal moves exactly, without overlap.
    fn check_split(pos: &mut Position, depth: u32) {
        let legal = pos.legal_moves();
        let mut staged = MoveList::new();
        pos.generate_captures(&mut staged);
        pos.generate_quiets(&mut staged);
        assert_eq!(sorted(&legal), sorted(&staged), "{}", pos.to_sfen());
        assert_eq!(pos.has_legal_move(), !legal.is_empty(), "{}", pos.to_sfen());
        if depth == 0 {
            return;
        }
        for m in legal {
            pos.do_move(m);
            check_split(pos, depth - 1);
            pos.undo_move(m);
        }
    }

    #[test]
    fn captures_and_quiets_partition_the_legal_moves() {
        for (sfen, depth) in [
            (crate::position::START_SFEN, 3),
            (
                "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                2,
            ),
            ("8k/9/9/9/9/9/9/9/K8 b RBLrbl 1", 2),
            ("7lk/9/8S/9/9/9/9/7L1/8K b P 1", 2),
            // Mated: gold on 5b, guarded by the pawn on 5c.
            ("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", 0),
            // Double check by the knight and the rook: the king must move.
            ("4k4/9/5N3/9/4R4/9/9/9/4K4 w - 1", 1),
        ] {
            let mut pos = Position::from_sfen(sfen).unwrap();
            check_split(&mut pos, depth);
        }
    }

    #[test]
    fn moves_onto_targets_are_the_legal_moves_landing_there() {
        let pos = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        )
        .unwrap();
        let targets = crate::attacks::king_attacks(pos.king_square(pos.side_to_move().flip()));
        let mut onto = MoveList::new();
        pos.generate_legal_onto(&mut onto, targets);
        let expected: MoveList = pos
            .legal_moves()
            .into_iter()
            .filter(|m| targets.contains(m.to()))
            .collect();
        assert_eq!(sorted(&onto), sorted(&expected));
    }
}
