//! The board state: pieces, hands, side to move, incremental Zobrist key,
//! checkers and pins, with `do_move`/`undo_move` and a history of states
//! for repetition queries.

mod dirty;
mod rules;
mod sfen;

pub use dirty::{DirtyPiece, PieceChange, PieceSpot};

pub use rules::{EnteringKingRule, Repetition};
pub use sfen::{board_field, hands_field, SfenError, START_SFEN};

use crate::attacks::{self, between};
use crate::bitboard::Bitboard;
use crate::hand::Hand;
use crate::moves::Move;
use crate::types::{Color, Piece, PieceType, Square};
use crate::zobrist;

/// What changes with each move and must be restored by `undo_move`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct StateInfo {
    /// Key of the board and side to move.
    pub(crate) board_key: u64,
    /// Key of both hands.
    pub(crate) hand_key: u64,
    /// Pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move pinned to its own king.
    pub(crate) pinned: Bitboard,
    /// The piece the last move captured, or none.
    pub(crate) captured: Piece,
    /// The move that led here (`None` at the root and after a null move).
    pub(crate) last_move: Option<Move>,
    /// For each colour, how many of its consecutive latest moves gave check.
    pub(crate) continuous_checks: [u16; 2],
    /// Plies since the root or the last null move (repetition scans stop there).
    pub(crate) plies_since_null: u16,
}

/// A shogi position. Cloning is cheap enough for per-thread copies.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; 81],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; PieceType::NUM],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) game_ply: u32,
    pub(crate) kings: [Square; 2],
    pub(crate) states: Vec<StateInfo>,
}

impl Position {
    /// The even-game start position.
    pub fn startpos() -> Position {
        Position::from_sfen(START_SFEN).expect("the start position is valid")
    }

    #[inline]
    pub(crate) fn state(&self) -> &StateInfo {
        self.states.last().expect("a position always has a state")
    }

    /// The player to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq` ([`Piece::NONE`] if empty).
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// `color`'s pieces in hand.
    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// Squares holding `color`'s pieces.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding pieces of `kind` (both colours).
    #[inline]
    pub fn pieces_of_kind(&self, kind: PieceType) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// `color`'s king square. Meaningless when `color` has no king (a
    /// tsume position, see [`Position::from_tsume_sfen`]): check
    /// [`Position::has_king`] wherever that can happen.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Whether `color` has a king on the board (always, except for the
    /// attacker of a king-less tsume position).
    #[inline]
    pub fn has_king(&self, color: Color) -> bool {
        self.pieces(color, PieceType::King).is_nonempty()
    }

    /// The position's hash key: board, hands and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        let st = self.state();
        st.board_key ^ st.hand_key
    }

    /// Key of the board and side to move only (hands left out), for
    /// superior/inferior repetition tests.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.state().board_key
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.state().checkers.is_nonempty()
    }

    /// Pieces of the side to move pinned to its king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.state().pinned
    }

    /// The move that led to this position, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.state().last_move
    }

    /// The piece the last move captured ([`Piece::NONE`] if none).
    #[inline]
    pub fn captured_piece(&self) -> Piece {
        self.state().captured
    }

    /// Whether `m` (a move in this position) takes a piece.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        !m.is_drop() && !self.piece_on(m.to()).is_none()
    }

    /// Whether `m` neither captures nor promotes: the moves ordered by
    /// history, pruned by move count and reduced most.
    #[inline]
    pub fn is_quiet(&self, m: Move) -> bool {
        !m.is_promotion() && !self.is_capture(m)
    }

    /// The SFEN move number of this position.
    #[inline]
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// Number of moves played since the position was set up.
    #[inline]
    pub fn moves_played(&self) -> usize {
        self.states.len() - 1
    }

    /// Gold-moving pieces of `color` (gold and the four small promoted kinds).
    #[inline]
    pub(crate) fn golds(&self, color: Color) -> Bitboard {
        (self.by_kind[PieceType::Gold.index()]
            | self.by_kind[PieceType::ProPawn.index()]
            | self.by_kind[PieceType::ProLance.index()]
            | self.by_kind[PieceType::ProKnight.index()]
            | self.by_kind[PieceType::ProSilver.index()])
            & self.by_color[color.index()]
    }

    /// `color`'s bishops and horses.
    #[inline]
    pub(crate) fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.by_kind[PieceType::Bishop.index()] | self.by_kind[PieceType::Horse.index()])
            & self.by_color[color.index()]
    }

    /// `color`'s rooks and dragons.
    #[inline]
    pub(crate) fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.by_kind[PieceType::Rook.index()] | self.by_kind[PieceType::Dragon.index()])
            & self.by_color[color.index()]
    }

    /// `color`'s pieces that attack `sq` given `occupied`.
    pub fn attackers_to(&self, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let them = color.flip();
        let c = color.index();
        let own = self.by_color[c];
        let step = (attacks::pawn_attacks(them, sq) & self.by_kind[PieceType::Pawn.index()])
            | (attacks::knight_attacks(them, sq) & self.by_kind[PieceType::Knight.index()])
            | (attacks::silver_attacks(them, sq) & self.by_kind[PieceType::Silver.index()])
            | (attacks::king_attacks(sq)
                & (self.by_kind[PieceType::King.index()]
                    | self.by_kind[PieceType::Horse.index()]
                    | self.by_kind[PieceType::Dragon.index()]));
        let golds = attacks::gold_attacks(them, sq) & self.golds(color);
        let lances =
            attacks::lance_attacks(them, sq, occupied) & self.by_kind[PieceType::Lance.index()];
        let diag = attacks::bishop_attacks(sq, occupied) & self.diagonal_sliders(color);
        let ortho = attacks::rook_attacks(sq, occupied) & self.orthogonal_sliders(color);
        ((step | lances) & own) | golds | diag | ortho
    }

    /// Whether any `color` piece attacks `sq` given `occupied`.
    ///
    /// Same answer as `attackers_to(..).is_nonempty()`, but the step pieces
    /// are tested first and a slider lookup is made only when a slider of
    /// that kind stands on one of the lines through `sq`.
    #[inline]
    pub fn is_attacked(&self, color: Color, sq: Square, occupied: Bitboard) -> bool {
        let them = color.flip();
        let own = self.by_color[color.index()];
        let kinds = &self.by_kind;
        let steps = (attacks::pawn_attacks(them, sq) & kinds[PieceType::Pawn.index()])
            | (attacks::knight_attacks(them, sq) & kinds[PieceType::Knight.index()])
            | (attacks::silver_attacks(them, sq) & kinds[PieceType::Silver.index()])
            | (attacks::king_attacks(sq)
                & (kinds[PieceType::King.index()]
                    | kinds[PieceType::Horse.index()]
                    | kinds[PieceType::Dragon.index()]));
        if (steps & own).is_nonempty()
            || (attacks::gold_attacks(them, sq) & self.golds(color)).is_nonempty()
        {
            return true;
        }
        let lances = kinds[PieceType::Lance.index()] & own & Bitboard::file(sq.file());
        if lances.is_nonempty()
            && (attacks::lance_attacks(them, sq, occupied) & lances).is_nonempty()
        {
            return true;
        }
        let diag = self.diagonal_sliders(color) & attacks::bishop_pseudo_attacks(sq);
        if diag.is_nonempty() && (attacks::bishop_attacks(sq, occupied) & diag).is_nonempty() {
            return true;
        }
        let ortho = self.orthogonal_sliders(color) & attacks::rook_pseudo_attacks(sq);
        ortho.is_nonempty() && (attacks::rook_attacks(sq, occupied) & ortho).is_nonempty()
    }

    /// `color`'s pieces that stand alone between its king and an enemy slider.
    pub(crate) fn compute_pinned(&self, color: Color) -> Bitboard {
        self.line_blockers(color) & self.by_color[color.index()]
    }

    /// Pieces of either colour that alone stand between `king`'s king and
    /// an enemy slider aimed at it: `king`'s own are pinned, the enemy's
    /// would give a discovered check by moving off the line.
    pub(crate) fn line_blockers(&self, king: Color) -> Bitboard {
        if !self.has_king(king) {
            return Bitboard::EMPTY;
        }
        let them = king.flip();
        let ksq = self.kings[king.index()];
        let snipers = (attacks::rook_pseudo_attacks(ksq) & self.orthogonal_sliders(them))
            | (attacks::bishop_pseudo_attacks(ksq) & self.diagonal_sliders(them))
            | (attacks::lance_attacks(king, ksq, Bitboard::EMPTY)
                & self.pieces(them, PieceType::Lance));
        let occupied = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let in_between = between(ksq, sniper) & occupied;
            if in_between.is_nonempty() && !in_between.has_more_than_one() {
                blockers |= in_between;
            }
        }
        blockers
    }

    #[inline]
    fn put_piece(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = piece;
        let bit = Bitboard::from_square(sq);
        self.by_color[piece.color().index()] |= bit;
        self.by_kind[piece.kind_unchecked().index()] |= bit;
    }

    #[inline]
    fn remove_piece(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq.index()];
        self.board[sq.index()] = Piece::NONE;
        let bit = Bitboard::from_square(sq);
        self.by_color[piece.color().index()] ^= bit;
        self.by_kind[piece.kind_unchecked().index()] ^= bit;
        piece
    }

    /// `us`'s pieces that check the enemy king after `us` played `m`, with
    /// `moved` the kind now standing on `m.to()`.
    ///
    /// Before the move no piece of `us` attacked that king (the side not to
    /// move is never in check), so a checker is either the moved piece or a
    /// slider whose line to the king ran through the vacated square.
    #[inline]
    fn checkers_after(&self, us: Color, m: Move, moved: PieceType) -> Bitboard {
        let them = us.flip();
        if !self.has_king(them) {
            return Bitboard::EMPTY;
        }
        let ksq = self.kings[them.index()];
        let occ = self.occupied();
        let to = m.to();
        let mut checkers = if attacks::attacks_of(us, moved, to, occ).contains(ksq) {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        };
        if m.is_drop() {
            return checkers;
        }
        let from = m.from();
        if attacks::rook_pseudo_attacks(ksq).contains(from) {
            checkers |= attacks::rook_attacks(ksq, occ) & self.orthogonal_sliders(us);
            if from.file() == ksq.file() {
                checkers |=
                    attacks::lance_attacks(them, ksq, occ) & self.pieces(us, PieceType::Lance);
            }
        } else if attacks::bishop_pseudo_attacks(ksq).contains(from) {
            checkers |= attacks::bishop_attacks(ksq, occ) & self.diagonal_sliders(us);
        }
        checkers
    }

    /// The key [`Position::do_move`] would give this position after the
    /// legal move `m`, without playing it (to prefetch its hash entry).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (board, hand) = self.key_changes(m);
        self.key() ^ board ^ hand
    }

    /// The board key ([`Position::board_key`]) after the legal move `m`,
    /// without playing it.
    #[inline]
    pub fn board_key_after(&self, m: Move) -> u64 {
        self.board_key() ^ self.key_changes(m).0
    }

    /// The kind standing on `m.to()` once the legal move `m` is played.
    #[inline]
    pub fn moved_kind(&self, m: Move) -> PieceType {
        match m.dropped_kind() {
            Some(kind) => kind,
            None => {
                let kind = self.board[m.from().index()].kind_unchecked();
                if m.is_promotion() {
                    kind.promote()
                } else {
                    kind
                }
            }
        }
    }

    /// The mover's hand after the legal move `m`, without playing it.
    #[inline]
    pub fn hand_after(&self, m: Move) -> Hand {
        let mut hand = self.hands[self.side.index()];
        if let Some(kind) = m.dropped_kind() {
            hand.remove(kind);
        } else {
            let captured = self.board[m.to().index()];
            if !captured.is_none() {
                hand.add(captured.kind_unchecked().unpromote());
            }
        }
        hand
    }

    /// What the legal move `m` XORs into the board key (side to move
    /// included) and into the hand key: the one place both
    /// [`Position::do_move`] and [`Position::key_after`] take them from.
    #[inline]
    fn key_changes(&self, m: Move) -> (u64, u64) {
        let us = self.side;
        let to = m.to();
        if let Some(kind) = m.dropped_kind() {
            let n = self.hands[us.index()].count(kind);
            let hand = zobrist::hand(us, kind, n) ^ zobrist::hand(us, kind, n - 1);
            let board = zobrist::piece_square(Piece::new(us, kind), to) ^ zobrist::SIDE;
            return (board, hand);
        }
        let mut board = zobrist::SIDE;
        let mut hand = 0;
        let captured = self.board[to.index()];
        if !captured.is_none() {
            let kind = captured.kind_unchecked().unpromote();
            let n = self.hands[us.index()].count(kind);
            board ^= zobrist::piece_square(captured, to);
            hand = zobrist::hand(us, kind, n) ^ zobrist::hand(us, kind, n + 1);
        }
        let piece = self.board[m.from().index()];
        let moved = if m.is_promotion() {
            Piece::new(us, piece.kind_unchecked().promote())
        } else {
            piece
        };
        board ^= zobrist::piece_square(piece, m.from()) ^ zobrist::piece_square(moved, to);
        (board, hand)
    }

    /// Plays `m`, which must be legal in this position.
    pub fn do_move(&mut self, m: Move) {
        let us = self.side;
        let them = us.flip();
        let prev = *self.state();
        let (board_change, hand_change) = self.key_changes(m);
        let mut st = StateInfo {
            captured: Piece::NONE,
            last_move: Some(m),
            plies_since_null: prev.plies_since_null.saturating_add(1),
            board_key: prev.board_key ^ board_change,
            hand_key: prev.hand_key ^ hand_change,
            ..prev
        };
        let to = m.to();
        let moved_kind;
        if let Some(kind) = m.dropped_kind() {
            moved_kind = kind;
            self.hands[us.index()].remove(kind);
            self.put_piece(Piece::new(us, kind), to);
        } else {
            let from = m.from();
            let captured = self.board[to.index()];
            if !captured.is_none() {
                self.remove_piece(to);
                self.hands[us.index()].add(captured.kind_unchecked().unpromote());
                st.captured = captured;
            }
            let piece = self.remove_piece(from);
            let moved = if m.is_promotion() {
                Piece::new(us, piece.kind_unchecked().promote())
            } else {
                piece
            };
            self.put_piece(moved, to);
            moved_kind = moved.kind_unchecked();
            if moved_kind == PieceType::King {
                self.kings[us.index()] = to;
            }
        }
        self.side = them;
        self.game_ply += 1;
        st.checkers = self.checkers_after(us, m, moved_kind);
        debug_assert!(
            !self.has_king(them)
                || st.checkers == self.attackers_to(us, self.kings[them.index()], self.occupied())
        );
        st.continuous_checks[us.index()] = if st.checkers.is_nonempty() {
            prev.continuous_checks[us.index()].saturating_add(1)
        } else {
            0
        };
        st.pinned = self.compute_pinned(them);
        self.states.push(st);
    }

    /// Takes back `m`, which must be the last move played.
    pub fn undo_move(&mut self, m: Move) {
        let st = self.states.pop().expect("undo_move after do_move");
        debug_assert!(!self.states.is_empty());
        let us = self.side.flip();
        self.side = us;
        self.game_ply -= 1;
        let to = m.to();
        if let Some(kind) = m.dropped_kind() {
            self.remove_piece(to);
            self.hands[us.index()].add(kind);
        } else {
            let moved = self.remove_piece(to);
            let piece = if m.is_promotion() {
                Piece::new(us, moved.kind_unchecked().unpromote())
            } else {
                moved
            };
            self.put_piece(piece, m.from());
            if piece.kind_unchecked() == PieceType::King {
                self.kings[us.index()] = m.from();
            }
            if !st.captured.is_none() {
                self.put_piece(st.captured, to);
                self.hands[us.index()].remove(st.captured.kind_unchecked().unpromote());
            }
        }
    }

    /// Passes the turn (for null-move pruning); never call it in check.
    pub fn do_null_move(&mut self) {
        debug_assert!(!self.in_check());
        let prev = *self.state();
        let them = self.side.flip();
        self.side = them;
        let mut st = StateInfo {
            board_key: prev.board_key ^ zobrist::SIDE,
            captured: Piece::NONE,
            last_move: None,
            checkers: Bitboard::EMPTY,
            plies_since_null: 0,
            ..prev
        };
        st.pinned = self.compute_pinned(them);
        self.states.push(st);
    }

    /// Takes back a null move.
    pub fn undo_null_move(&mut self) {
        self.states.pop();
        self.side = self.side.flip();
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl std::fmt::Display for Position {
    /// A board diagram as Black sees it, then hands and side to move.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in 0..9 {
            for file in (0..9).rev() {
                let p = self.piece_on(Square::new(file, rank));
                let text = p.sfen();
                write!(f, "{:>3}", if text.is_empty() { "." } else { &text })?;
            }
            writeln!(f)?;
        }
        writeln!(f, "sfen {}", self.to_sfen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The incremental checkers of `do_move` equal a full `attackers_to`
    /// scan, the stored pins equal a fresh computation, and `key_after`
    /// predicts the key, which equals one computed from the SFEN, at
    /// every node.
    fn check_tree(pos: &mut Position, depth: u32) {
        let us = pos.side_to_move();
        let them = us.flip();
        let ksq = pos.king_square(us);
        assert_eq!(
            pos.checkers(),
            pos.attackers_to(them, ksq, pos.occupied()),
            "{}",
            pos.to_sfen()
        );
        assert_eq!(pos.pinned(), pos.compute_pinned(us), "{}", pos.to_sfen());
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves() {
            let predicted = pos.key_after(m);
            pos.do_move(m);
            assert_eq!(pos.key(), predicted, "key_after({m:?})");
            // Both take their changes from `key_changes`: check it against
            // a key computed from scratch.
            let fresh = Position::from_sfen(&pos.to_sfen()).unwrap();
            assert_eq!(pos.key(), fresh.key(), "{}", pos.to_sfen());
            check_tree(pos, depth - 1);
            pos.undo_move(m);
        }
    }

    #[test]
    fn incremental_checkers_match_a_full_scan() {
        for (sfen, depth) in [
            (START_SFEN, 4),
            (
                "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                2,
            ),
            ("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 1),
            ("8k/9/9/9/9/9/9/9/K8 b RBLrbl 1", 2),
        ] {
            let mut pos = Position::from_sfen(sfen).unwrap();
            check_tree(&mut pos, depth);
        }
    }
}
