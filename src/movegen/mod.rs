//! Legal move generation, and a legality test for single (untrusted) moves.
//!
//! Moves are generated fully legal, with no make/unmake filter: pinned
//! pieces keep to the line through their king, king moves avoid attacked
//! squares (with the king lifted off the board so sliders see through it),
//! in check only captures of the checker, interpositions and king moves
//! are produced, and drops obey all four restrictions, including the exact
//! pawn-drop-mate (uchifuzume) test. [`Position::count_legal`] (in
//! `count.rs`) counts the same moves without listing them.

mod checks;
mod count;
pub mod sample;
mod staged;

pub use checks::CheckTest;

use crate::attacks::{self, aligned, between, line};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// Why [`Position::parse_usi_move`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UsiMoveError {
    /// The text is not a move in USI notation (kept at most 60 characters
    /// long, as quoted in the message).
    NotAMove(String),
    /// A well-formed move that is not legal in the position.
    Illegal {
        /// The move.
        mv: Move,
        /// The position, as SFEN.
        sfen: String,
    },
}

impl std::fmt::Display for UsiMoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UsiMoveError::NotAMove(text) => write!(f, "'{text}' is not a USI move"),
            UsiMoveError::Illegal { mv, sfen } => write!(f, "illegal move {mv} in {sfen}"),
        }
    }
}

impl std::error::Error for UsiMoveError {}

/// Squares where `color` may never drop or leave an unpromoted `kind`.
#[inline]
fn dead_squares(color: Color, kind: PieceType) -> Bitboard {
    const LAST_RANK: [Bitboard; 2] = [
        Bitboard::far_ranks(Color::Black, 1),
        Bitboard::far_ranks(Color::White, 1),
    ];
    const LAST_TWO_RANKS: [Bitboard; 2] = [
        Bitboard::far_ranks(Color::Black, 2),
        Bitboard::far_ranks(Color::White, 2),
    ];
    match kind {
        PieceType::Pawn | PieceType::Lance => LAST_RANK[color.index()],
        PieceType::Knight => LAST_TWO_RANKS[color.index()],
        _ => Bitboard::EMPTY,
    }
}

/// Whether a `color` `kind` may stay unpromoted on `to`.
#[inline]
fn may_stay_unpromoted(color: Color, kind: PieceType, to: Square) -> bool {
    match kind {
        PieceType::Pawn | PieceType::Lance => to.relative_rank(color) > 0,
        PieceType::Knight => to.relative_rank(color) > 1,
        _ => true,
    }
}

/// Pushes the promoting and/or non-promoting versions of `from`→`to`.
#[inline(always)]
fn push_board_move(list: &mut MoveList, color: Color, kind: PieceType, from: Square, to: Square) {
    if kind.can_promote() && (from.in_promotion_zone(color) || to.in_promotion_zone(color)) {
        list.push(Move::normal(from, to, true));
        if may_stay_unpromoted(color, kind, to) {
            list.push(Move::normal(from, to, false));
        }
    } else {
        list.push(Move::normal(from, to, false));
    }
}

impl Position {
    /// All legal moves in this position.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Appends all legal moves to `list`.
    pub fn generate_legal(&self, list: &mut MoveList) {
        let own = self.by_color[self.side.index()];
        self.generate_king_moves(list, own);
        self.generate_non_king_moves(list);
    }

    /// Whether the side to move has a legal move. Cheaper than generating
    /// them all when the king can step away, the usual answer to a check
    /// (the mate-in-one test asks this after every checking candidate).
    pub fn has_legal_move(&self) -> bool {
        let own = self.by_color[self.side.index()];
        if self.safe_king_targets(own).is_nonempty() {
            return true;
        }
        let mut list = MoveList::new();
        self.generate_non_king_moves(&mut list);
        !list.is_empty()
    }

    /// Legal moves of every piece but the king, and drops: captures of
    /// the checker and interpositions when in check, none in double check.
    fn generate_non_king_moves(&self, list: &mut MoveList) {
        let us = self.side;
        let own = self.by_color[us.index()];
        let checkers = self.checkers();
        if checkers.has_more_than_one() {
            return;
        }
        let (board_targets, drop_targets) = if let Some(checker) = checkers.into_iter().next() {
            let block = between(self.kings[us.index()], checker);
            (block.with(checker), block)
        } else {
            (!own, !self.occupied())
        };
        self.generate_piece_moves(list, board_targets, checkers.is_nonempty());
        self.generate_drops(list, drop_targets);
    }

    fn generate_king_moves(&self, list: &mut MoveList, own: Bitboard) {
        let ksq = self.kings[self.side.index()];
        for to in self.safe_king_targets(own) {
            list.push(Move::normal(ksq, to, false));
        }
    }

    /// Squares the side to move's king can step to (not `own`, not attacked
    /// once the king has left its square, so sliders see through it).
    /// Shared by generation and leaf counting.
    #[inline]
    pub(crate) fn safe_king_targets(&self, own: Bitboard) -> Bitboard {
        if !self.has_king(self.side) {
            return Bitboard::EMPTY;
        }
        let them = self.side.flip();
        let ksq = self.kings[self.side.index()];
        let occ_without_king = self.occupied().without(ksq);
        let mut safe = Bitboard::EMPTY;
        for to in attacks::king_attacks(ksq) - own {
            if !self.is_attacked(them, to, occ_without_king) {
                safe = safe.with(to);
            }
        }
        safe
    }

    /// Board moves of every piece but the king onto `targets`.
    fn generate_piece_moves(&self, list: &mut MoveList, targets: Bitboard, evasion: bool) {
        let us = self.side;
        let own = self.by_color[us.index()];
        let ksq = self.kings[us.index()];
        let pinned = self.pinned();
        let occ = self.occupied();
        // In check a pinned piece can never help: lines through the king
        // meet only at the king.
        let movers = if evasion { own - pinned } else { own };

        // Pawns in bulk: the destination set is the pawn set moved one rank.
        let pawns = self.by_kind[PieceType::Pawn.index()] & movers;
        let pawn_targets = pawns.shift_forward(us) & targets;
        for to in pawn_targets {
            let from = match us {
                Color::Black => Square::from_index_unchecked(to.index() + 1),
                Color::White => Square::from_index_unchecked(to.index() - 1),
            };
            if pinned.contains(from) && !aligned(ksq, from, to) {
                continue;
            }
            push_board_move(list, us, PieceType::Pawn, from, to);
        }

        let others =
            movers - self.by_kind[PieceType::Pawn.index()] - self.by_kind[PieceType::King.index()];
        for from in others {
            let kind = self.board[from.index()].kind_unchecked();
            let mut to_set = attacks::attacks_of(us, kind, from, occ) & targets;
            if pinned.contains(from) {
                to_set &= line(ksq, from);
            }
            for to in to_set {
                push_board_move(list, us, kind, from, to);
            }
        }
    }

    /// Drops onto the empty squares in `targets`.
    fn generate_drops(&self, list: &mut MoveList, targets: Bitboard) {
        let us = self.side;
        let hand = self.hands[us.index()];
        if hand.is_empty() || targets.is_empty() {
            return;
        }
        if hand.has(PieceType::Pawn) {
            let mut pawn_targets =
                targets - dead_squares(us, PieceType::Pawn) - self.pawn_files(us);
            let them = us.flip();
            let mate_square = self.pawn_check_square(them);
            if (pawn_targets & mate_square).is_nonempty() {
                let sq = mate_square.lsb();
                if self.is_pawn_drop_mate(sq) {
                    pawn_targets = pawn_targets.without(sq);
                }
            }
            for to in pawn_targets {
                list.push(Move::drop(PieceType::Pawn, to));
            }
        }
        for kind in [PieceType::Lance, PieceType::Knight] {
            if hand.has(kind) {
                for to in targets - dead_squares(us, kind) {
                    list.push(Move::drop(kind, to));
                }
            }
        }
        for kind in [
            PieceType::Silver,
            PieceType::Gold,
            PieceType::Bishop,
            PieceType::Rook,
        ] {
            if hand.has(kind) {
                for to in targets {
                    list.push(Move::drop(kind, to));
                }
            }
        }
    }

    /// The empty squares where `color` could drop a `kind` by the placement
    /// rules alone (no dead square, no second pawn on a file), whatever its
    /// hand; the pawn-drop-mate rule is left out, so this may say more.
    pub(crate) fn placeable_drop_squares(&self, color: Color, kind: PieceType) -> Bitboard {
        let mut squares = !self.occupied() - dead_squares(color, kind);
        if kind == PieceType::Pawn {
            squares = squares - self.pawn_files(color);
        }
        squares
    }

    /// Every file holding an unpromoted pawn of `color` (nifu files).
    #[inline]
    pub(crate) fn pawn_files(&self, color: Color) -> Bitboard {
        let mut files = Bitboard::EMPTY;
        for sq in self.pieces(color, PieceType::Pawn) {
            files |= Bitboard::file(sq.file());
        }
        files
    }

    /// Whether a pawn dropped by the side to move on `to` (the square in
    /// front of the enemy king) would be checkmate.
    ///
    /// The defender can answer a pawn check only by capturing the pawn or by
    /// moving the king (the pawn is adjacent, so nothing can interpose).
    pub(crate) fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = us.flip();
        let ksq = self.kings[them.index()];
        let occ = self.occupied().with(to);
        // Captures by pieces other than the king. The drop adds a blocker but
        // cannot create a pin, so the current pins of the defender are exact;
        // a piece pinned along the pawn's file may still capture (it stays on the line).
        let pinned = self.compute_pinned(them);
        let capturers = self.attackers_to(them, to, occ).without(ksq);
        for from in capturers {
            if !pinned.contains(from) || aligned(ksq, from, to) {
                return false;
            }
        }
        // King moves, including taking the pawn when it is undefended.
        let occ_without_king = occ.without(ksq);
        for escape in attacks::king_attacks(ksq) - self.by_color[them.index()] {
            if !self.is_attacked(us, escape, occ_without_king) {
                return false;
            }
        }
        true
    }

    /// Whether `m` is legal here. Works for any value, so it is safe to use
    /// on moves from the transposition table or from user input.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let to = m.to();
        let target = self.board[to.index()];
        let ksq = self.kings[us.index()];
        let checkers = self.checkers();
        if m.is_drop() {
            let Some(kind) = m.dropped_kind() else {
                return false;
            };
            if m.is_promotion() || !target.is_none() || !self.hands[us.index()].has(kind) {
                return false;
            }
            if dead_squares(us, kind).contains(to) {
                return false;
            }
            if checkers.is_nonempty()
                && (checkers.has_more_than_one() || !between(ksq, checkers.lsb()).contains(to))
            {
                return false;
            }
            if kind == PieceType::Pawn {
                if self.pawn_files(us).contains(to) {
                    return false;
                }
                let mate_square = self.pawn_check_square(them);
                if mate_square.contains(to) && self.is_pawn_drop_mate(to) {
                    return false;
                }
            }
            return true;
        }
        let from = m.from();
        let piece = self.board[from.index()];
        let Some(kind) = piece.kind() else {
            return false;
        };
        if piece.color() != us || (!target.is_none() && target.color() == us) {
            return false;
        }
        let occ = self.occupied();
        if !attacks::attacks_of(us, kind, from, occ).contains(to) {
            return false;
        }
        if m.is_promotion() {
            if !kind.can_promote() || !(from.in_promotion_zone(us) || to.in_promotion_zone(us)) {
                return false;
            }
        } else if !may_stay_unpromoted(us, kind, to) {
            return false;
        }
        if kind == PieceType::King {
            return !self.is_attacked(them, to, occ.without(from));
        }
        if checkers.is_nonempty() {
            if checkers.has_more_than_one() {
                return false;
            }
            let checker = checkers.lsb();
            if to != checker && !between(ksq, checker).contains(to) {
                return false;
            }
        }
        !self.pinned().contains(from) || aligned(ksq, from, to)
    }

    /// Parses a USI move and checks that it is legal here.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, UsiMoveError> {
        let m = Move::from_usi(text)
            .ok_or_else(|| UsiMoveError::NotAMove(crate::text::shorten(text)))?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(UsiMoveError::Illegal {
                mv: m,
                sfen: self.to_sfen(),
            })
        }
    }

    /// Whether the side to move is checkmated (in check with no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// The square where a pawn of `them`'s enemy would check `them`'s king
    /// (empty when `them` has no king): the one square where a pawn drop
    /// can be an illegal drop-pawn mate.
    #[inline]
    pub(crate) fn pawn_check_square(&self, them: Color) -> Bitboard {
        if self.has_king(them) {
            attacks::pawn_attacks(them, self.kings[them.index()])
        } else {
            Bitboard::EMPTY
        }
    }

    /// Whether `m` (legal here) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        if !self.has_king(them) {
            return false;
        }
        let ksq = self.kings[them.index()];
        let to = m.to();
        let occ = self.occupied();
        let kind = self.moved_kind(m);
        let occ_after = if m.is_drop() {
            occ.with(to)
        } else {
            occ.without(m.from()).with(to)
        };
        if attacks::attacks_of(us, kind, to, occ_after).contains(ksq) {
            return true;
        }
        if m.is_drop() {
            return false;
        }
        // Discovered check: a slider of ours behind `from` now sees the king.
        let from = m.from();
        if line(ksq, from).is_empty() {
            return false;
        }
        let sliders = (attacks::rook_attacks(ksq, occ_after) & self.orthogonal_sliders(us))
            | (attacks::bishop_attacks(ksq, occ_after) & self.diagonal_sliders(us))
            | (attacks::lance_attacks(them, ksq, occ_after) & self.pieces(us, PieceType::Lance));
        (sliders.without(from)).is_nonempty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    fn sq(text: &str) -> Square {
        Square::from_usi(text.as_bytes()).unwrap()
    }

    fn has(p: &Position, text: &str) -> bool {
        p.legal_moves().iter().any(|m| m.to_string() == text)
    }

    #[test]
    fn a_king_less_side_is_never_checked_pinned_or_restricted() {
        // Black has no king. White's rook would pin Black's silver to a
        // king anywhere on rank e; with none, it moves freely, White's pawn
        // drops in front of any square a king might stand on are legal, and
        // no White move gives check.
        let p = Position::from_tsume_sfen("4k4/9/9/9/r2S5/9/9/4G4/9 b - 1").unwrap();
        assert!(!p.in_check());
        assert!(p.pinned().is_empty());
        assert!(has(&p, "6e5d") && has(&p, "5h4h"));
        assert_eq!(p.legal_moves().len(), p.count_legal());
        let w = Position::from_tsume_sfen("4k4/9/9/9/9/9/9/9/R8 w rp 1").unwrap();
        assert!(!w.has_king(Color::Black) && w.has_king(Color::White));
        for m in w.legal_moves() {
            assert!(!w.gives_check(m), "{m}");
        }
        assert!(has(&w, "P*5h") && has(&w, "P*5b"));
        // Both kings missing is still an error, as is a king-less plain SFEN.
        assert!(Position::from_tsume_sfen("9/9/9/9/9/9/9/9/9 b G 1").is_err());
        assert!(Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b G 1").is_err());
    }

    #[test]
    fn usi_move_errors_say_what_is_wrong() {
        let p = Position::startpos();
        assert_eq!(
            p.parse_usi_move("7g7f"),
            Ok(Move::from_usi("7g7f").unwrap())
        );
        let bad = p.parse_usi_move("7g7").unwrap_err();
        assert_eq!(bad, UsiMoveError::NotAMove("7g7".to_string()));
        assert_eq!(bad.to_string(), "'7g7' is not a USI move");
        let long = "x".repeat(100);
        assert_eq!(
            p.parse_usi_move(&long).unwrap_err().to_string(),
            format!("'{}...' is not a USI move", "x".repeat(60))
        );
        assert_eq!(
            p.parse_usi_move("7g7e").unwrap_err().to_string(),
            format!("illegal move 7g7e in {}", crate::position::START_SFEN)
        );
    }

    #[test]
    fn start_position_has_thirty_moves() {
        assert_eq!(Position::startpos().legal_moves().len(), 30);
    }

    #[test]
    fn pawn_drop_mate_is_illegal_but_pawn_move_mate_is_not() {
        // White king 1a boxed in by a lance on 2a's file and a silver; P*1b would mate.
        let p = pos("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
        assert!(!has(&p, "P*1b"));
        assert!(!p.is_legal(Move::from_usi("P*1b").unwrap()));
        assert!(has(&p, "P*2b"));
    }

    #[test]
    fn pawn_drop_check_that_can_be_captured_is_legal() {
        // Same box, but a white gold on 2b can take the pawn.
        let p = pos("7lk/7g1/8S/9/9/9/9/7L1/8K b P 1");
        assert!(has(&p, "P*1b"));
    }

    #[test]
    fn nifu_and_dead_drops_are_excluded() {
        let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1");
        let moves = p.legal_moves();
        assert!(!moves.iter().any(|m| m.to_string().starts_with("P*5")));
        assert!(!moves
            .iter()
            .any(|m| m.to_string() == "P*1a" || m.to_string() == "L*1a"));
        assert!(!moves.iter().any(|m| m.to_string() == "N*1b"));
        assert!(has(&p, "N*1c"));
    }

    #[test]
    fn placeable_drop_squares_follow_the_rules() {
        let p = pos("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1");
        let pawn = p.placeable_drop_squares(Color::Black, PieceType::Pawn);
        assert!(!pawn.contains(sq("5e")) && !pawn.contains(sq("1a")));
        assert!(pawn.contains(sq("1b")));
        let knight = p.placeable_drop_squares(Color::Black, PieceType::Knight);
        assert!(!knight.contains(sq("1b")) && knight.contains(sq("1c")));
        // White's dead ranks are Black's first; occupied squares never count.
        let white_lance = p.placeable_drop_squares(Color::White, PieceType::Lance);
        assert!(!white_lance.contains(sq("1i")) && white_lance.contains(sq("1a")));
        assert!(!p
            .placeable_drop_squares(Color::White, PieceType::Gold)
            .contains(sq("5a")));
    }

    #[test]
    fn forced_promotion_removes_the_plain_move() {
        let p = pos("4k4/9/P8/9/9/9/9/9/4K4 b - 1");
        assert!(has(&p, "9c9b+"));
        assert!(has(&p, "9c9b"));
        let p = pos("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
        assert!(has(&p, "9b9a+"));
        assert!(!has(&p, "9b9a"));
    }

    #[test]
    fn generated_moves_agree_with_is_legal() {
        // Every generated move passes is_legal, and every well-formed move
        // that is_legal accepts was generated; the leaf counter agrees.
        let sfens = [
            crate::position::START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            // King-less attackers (tsume), each side to move.
            "l1l5k/3p5/1gn+b4P/1pg6/1lpn3+b1/1gnl+r+rgpp/6ns1/p1s2pps1/9 b S 1",
            "l1l5k/3p5/1gn+b4P/1pg6/1lpn3+b1/1gnl+r+rgpp/6ns1/p1s2pps1/9 w S 1",
            "4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p 1",
            "9/9/9/9/9/9/9/4P4/3GKG3 w 2R2B2G4S4N4L17p 1",
        ];
        for sfen in sfens {
            let p = Position::from_tsume_sfen(sfen).unwrap();
            let legal = p.legal_moves();
            assert_eq!(p.count_legal(), legal.len(), "{sfen}");
            for &m in &legal {
                assert!(p.is_legal(m), "{m} in {sfen}");
            }
            for bits in 1..=u16::MAX {
                let Some(m) = Move::from_bits(bits) else {
                    continue;
                };
                if (bits & 0x7F) as usize >= 81 || ((bits >> 7) & 0x7F) as usize >= 81 {
                    continue;
                }
                if p.is_legal(m) {
                    assert!(
                        legal.contains(&m),
                        "{m} accepted but not generated in {sfen}"
                    );
                }
            }
        }
    }

    #[test]
    fn gives_check_matches_the_resulting_position() {
        let p = pos("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
        let mut q = p.clone();
        for m in p.legal_moves() {
            q.do_move(m);
            assert_eq!(p.gives_check(m), q.in_check(), "{m}");
            q.undo_move(m);
        }
    }
}
