//! Counting legal moves without building the list, for perft's last ply.
//!
//! The count follows [`Position::generate_legal`] step by step but adds up
//! destination sets with popcounts instead of pushing one move per square:
//!
//! - a board move that may promote is two moves (promoting and not), less
//!   one on the squares where the piece may not stay unpromoted; those
//!   squares lie inside the promotion zone, so for a target set `T`
//!   the count is `|T| + |T ∩ P| - |T ∩ D|`, with `P` the squares where
//!   promotion is allowed and `D` the dead squares of the kind;
//! - a drop of each kind in hand is one move per allowed empty square.
//!
//! King moves, pinned pawns and the pawn-drop-mate square are still tested
//! one by one, exactly as in generation. The unit test below checks the
//! count against the generated list's length.

use super::dead_squares;
use crate::attacks::{self, aligned, between, line};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// Number of moves of a `color` `kind` from `from` onto the squares of `to_set`,
/// counting promoting and non-promoting versions separately.
#[inline(always)]
fn board_move_count(color: Color, kind: PieceType, from: Square, to_set: Bitboard) -> u32 {
    if !kind.can_promote() {
        return to_set.count();
    }
    let promotable = if from.in_promotion_zone(color) {
        to_set
    } else {
        to_set & Bitboard::promotion_zone(color)
    };
    to_set.count() + promotable.count() - (to_set & dead_squares(color, kind)).count()
}

/// What every board-move count of one side shares.
struct Movers {
    us: Color,
    ksq: Square,
    pinned: Bitboard,
    targets: Bitboard,
}

impl Movers {
    /// Moves of the `kind` pieces on `from_set` whose attacks are `attacks`.
    /// Gold-moving kinds may all pass as [`PieceType::Gold`]: only the
    /// promotion rule of `kind` matters here.
    #[inline(always)]
    fn count(
        &self,
        kind: PieceType,
        from_set: Bitboard,
        attacks: impl Fn(Square) -> Bitboard,
    ) -> u32 {
        let mut n = 0;
        for from in from_set {
            let mut to_set = attacks(from) & self.targets;
            if self.pinned.contains(from) {
                to_set &= line(self.ksq, from);
            }
            n += board_move_count(self.us, kind, from, to_set);
        }
        n
    }
}

impl Position {
    /// Number of legal moves here: always equal to
    /// `self.legal_moves().len()`, but computed without materialising
    /// the moves (see the module docs of `movegen::count`).
    pub fn count_legal(&self) -> usize {
        self.count_moves(false)
    }

    /// [`Position::count_legal`] with all drops onto one square counted as
    /// one move: how the tsume solver estimates the work an evasion takes
    /// (interpositions on one square are refuted alike).
    pub fn count_legal_drops_by_square(&self) -> usize {
        self.count_moves(true)
    }

    fn count_moves(&self, drops_by_square: bool) -> usize {
        let us = self.side;
        let own = self.by_color[us.index()];
        let checkers = self.checkers();
        let mut n = self.safe_king_targets(own).count();
        if checkers.has_more_than_one() {
            return n as usize;
        }
        let (board_targets, drop_targets) = if let Some(checker) = checkers.into_iter().next() {
            let block = between(self.kings[us.index()], checker);
            (block.with(checker), block)
        } else {
            (!own, !self.occupied())
        };
        n += self.count_piece_moves(board_targets, checkers.is_nonempty());
        n += if drops_by_square {
            self.drop_squares(drop_targets).count()
        } else {
            self.count_drops(drop_targets)
        };
        n as usize
    }

    /// Board moves of every piece but the king onto `targets`.
    fn count_piece_moves(&self, targets: Bitboard, evasion: bool) -> u32 {
        let us = self.side;
        let own = self.by_color[us.index()];
        let ksq = self.kings[us.index()];
        let pinned = self.pinned();
        let occ = self.occupied();
        let movers = if evasion { own - pinned } else { own };
        let pawns = self.by_kind[PieceType::Pawn.index()] & movers;

        // Unpinned pawns in bulk; a pawn's move promotes exactly when it
        // lands in the zone, so `board_move_count`'s formula applies to the
        // whole set with `from` taken outside the zone.
        let free_pawns = pawns - pinned;
        let pawn_targets = free_pawns.shift_forward(us) & targets;
        let mut n = pawn_targets.count() + (pawn_targets & Bitboard::promotion_zone(us)).count()
            - (pawn_targets & dead_squares(us, PieceType::Pawn)).count();
        for from in pawns & pinned {
            let to_set = attacks::pawn_attacks(us, from) & targets;
            if to_set.is_nonempty() && aligned(ksq, from, to_set.lsb()) {
                n += board_move_count(us, PieceType::Pawn, from, to_set);
            }
        }

        // The other pieces kind by kind, so each loop knows its attack
        // function and promotion rule without looking at the board.
        let ctx = Movers {
            us,
            ksq,
            pinned,
            targets,
        };
        let mine = |kind: PieceType| self.by_kind[kind.index()] & movers;
        n += ctx.count(PieceType::Lance, mine(PieceType::Lance), |sq| {
            attacks::lance_attacks(us, sq, occ)
        });
        n += ctx.count(PieceType::Knight, mine(PieceType::Knight), |sq| {
            attacks::knight_attacks(us, sq)
        });
        n += ctx.count(PieceType::Silver, mine(PieceType::Silver), |sq| {
            attacks::silver_attacks(us, sq)
        });
        n += ctx.count(PieceType::Gold, self.golds(us) & movers, |sq| {
            attacks::gold_attacks(us, sq)
        });
        n += ctx.count(PieceType::Bishop, mine(PieceType::Bishop), |sq| {
            attacks::bishop_attacks(sq, occ)
        });
        n += ctx.count(PieceType::Rook, mine(PieceType::Rook), |sq| {
            attacks::rook_attacks(sq, occ)
        });
        n += ctx.count(PieceType::Horse, mine(PieceType::Horse), |sq| {
            attacks::horse_attacks(sq, occ)
        });
        n += ctx.count(PieceType::Dragon, mine(PieceType::Dragon), |sq| {
            attacks::dragon_attacks(sq, occ)
        });
        n
    }

    /// The squares of `targets` some piece in hand may legally drop on.
    fn drop_squares(&self, targets: Bitboard) -> Bitboard {
        let us = self.side;
        let hand = self.hands[us.index()];
        if hand.is_empty() || targets.is_empty() {
            return Bitboard::EMPTY;
        }
        let free = [
            PieceType::Silver,
            PieceType::Gold,
            PieceType::Bishop,
            PieceType::Rook,
        ];
        if free.iter().any(|&kind| hand.has(kind)) {
            return targets;
        }
        let mut squares = Bitboard::EMPTY;
        for kind in [PieceType::Lance, PieceType::Knight] {
            if hand.has(kind) {
                squares |= targets - dead_squares(us, kind);
            }
        }
        if hand.has(PieceType::Pawn) {
            let mut pawn_targets =
                targets - dead_squares(us, PieceType::Pawn) - self.pawn_files(us);
            let mate_square = self.pawn_check_square(us.flip());
            if (pawn_targets & mate_square).is_nonempty()
                && self.is_pawn_drop_mate(mate_square.lsb())
            {
                pawn_targets = pawn_targets - mate_square;
            }
            squares |= pawn_targets;
        }
        squares
    }

    /// Drops onto the empty squares in `targets`.
    fn count_drops(&self, targets: Bitboard) -> u32 {
        let us = self.side;
        let hand = self.hands[us.index()];
        if hand.is_empty() || targets.is_empty() {
            return 0;
        }
        let mut n = 0;
        if hand.has(PieceType::Pawn) {
            let pawn_targets = targets - dead_squares(us, PieceType::Pawn) - self.pawn_files(us);
            n += pawn_targets.count();
            let them = us.flip();
            let mate_square = self.pawn_check_square(them);
            if (pawn_targets & mate_square).is_nonempty()
                && self.is_pawn_drop_mate(mate_square.lsb())
            {
                n -= 1;
            }
        }
        for kind in [PieceType::Lance, PieceType::Knight] {
            if hand.has(kind) {
                n += (targets - dead_squares(us, kind)).count();
            }
        }
        let free_kinds = [
            PieceType::Silver,
            PieceType::Gold,
            PieceType::Bishop,
            PieceType::Rook,
        ]
        .iter()
        .filter(|&&kind| hand.has(kind))
        .count() as u32;
        n + free_kinds * targets.count()
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;

    /// Walks every position up to `depth` plies below `pos` and compares
    /// the count with the generated list at each one.
    fn check_tree(pos: &mut Position, depth: u32) {
        let moves = pos.legal_moves();
        assert_eq!(pos.count_legal(), moves.len(), "{}", pos.to_sfen());
        let mut drop_squares = crate::bitboard::Bitboard::EMPTY;
        for m in moves.iter().filter(|m| m.is_drop()) {
            drop_squares |= crate::bitboard::Bitboard::from_square(m.to());
        }
        let board_moves = moves.iter().filter(|m| !m.is_drop()).count();
        assert_eq!(
            pos.count_legal_drops_by_square(),
            board_moves + drop_squares.count() as usize,
            "{}",
            pos.to_sfen()
        );
        if depth == 0 {
            return;
        }
        for m in moves {
            pos.do_move(m);
            check_tree(pos, depth - 1);
            pos.undo_move(m);
        }
    }

    #[test]
    fn count_equals_generated_length() {
        let sfens = [
            crate::position::START_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "ln1g3nl/1r1sk1gs1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1BG4R1/LN2KGSNL b B 13",
        ];
        for sfen in sfens {
            let mut pos = Position::from_sfen(sfen).unwrap();
            check_tree(&mut pos, 2);
        }
    }
}
