//! Input features: which inputs of the network are 1 in a position, seen
//! from one colour (the *perspective*).
//!
//! Every non-king piece is one *BonaPiece* (0..1548), numbered exactly as
//! YaneuraOu numbers them (`BonaPiece` in its `evaluate.h`): hand pieces
//! first, one slot per count ("the nth pawn in hand"), then 81 squares for
//! each board kind, friend (`f_`) before enemy (`e_`). The four promoted
//! minor pieces count as golds. White sees the board turned 180 degrees and
//! its own pieces as friends, so both perspectives share one weight table.
//!
//! A feature is a king bucket times 1548 plus a BonaPiece: the perspective's
//! own king square for [`FeatureSet::HalfKp`], or that square with the board
//! mirrored left-right onto files 1-5 for [`FeatureSet::HalfKpMirror`].

use arrayvec::ArrayVec;

use crate::position::Position;
use crate::position::{DirtyPiece, PieceSpot};
use crate::types::{Color, PieceType, Square};

/// Number of BonaPieces (YaneuraOu's `fe_end`).
pub const BONA_PIECE_END: usize = 1548;

/// YaneuraOu's `fe_hand_end`: the first board BonaPiece.
const HAND_END: u16 = 90;

/// Most features one perspective can have: every piece but the two kings.
pub const MAX_ACTIVE: usize = 38;

/// The active features of one perspective.
pub type FeatureList = ArrayVec<u32, MAX_ACTIVE>;

/// Features one move turns off or on for one perspective (at most two
/// pieces change).
pub type ChangeList = ArrayVec<u32, 2>;

/// How the network's inputs are laid out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// Ours: king square with files 6-9 mirrored onto 4-1 (45 buckets), the
    /// pieces mirrored with it. 69,660 inputs.
    HalfKpMirror,
    /// YaneuraOu's HalfKP: own king square (81) times BonaPiece. 125,388
    /// inputs.
    HalfKp,
}

impl FeatureSet {
    /// Both sets, in id order.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::HalfKpMirror, FeatureSet::HalfKp];

    /// Number of king buckets.
    pub const fn king_buckets(self) -> usize {
        match self {
            FeatureSet::HalfKpMirror => 5 * 9,
            FeatureSet::HalfKp => Square::NUM,
        }
    }

    /// Number of inputs per perspective.
    pub const fn inputs(self) -> usize {
        self.king_buckets() * BONA_PIECE_END
    }

    /// The id stored in network files.
    pub const fn id(self) -> u32 {
        match self {
            FeatureSet::HalfKpMirror => 1,
            FeatureSet::HalfKp => 2,
        }
    }

    /// The set with file id `id`.
    pub fn from_id(id: u32) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|set| set.id() == id)
    }

    /// A name for messages.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::HalfKpMirror => "HalfKP-mirror",
            FeatureSet::HalfKp => "HalfKP",
        }
    }
}

/// First BonaPiece of each hand kind, `[friend, enemy]`, indexed by
/// [`PieceType::index`] (pawn 1 .. gold 7). The slots are sized one more
/// than the most pieces a hand can hold (19, 5, 3), as in YaneuraOu, so the
/// slot after each run is unused.
const HAND_BASE: [[u16; 2]; 8] = [
    [0, 0],
    [1, 20],  // pawn
    [39, 44], // lance
    [49, 54], // knight
    [59, 64], // silver
    [79, 82], // bishop
    [85, 88], // rook
    [69, 74], // gold
];

/// First BonaPiece of each board kind, `[friend, enemy]`, indexed by
/// [`PieceType::index`]; each run is 81 squares. The order is YaneuraOu's:
/// pawn, lance, knight, silver, gold, bishop, horse, rook, dragon.
const BOARD_BASE: [[u16; 2]; 15] = {
    const fn run(k: u16) -> [u16; 2] {
        let friend = HAND_END + 2 * 81 * k;
        [friend, friend + 81]
    }
    let gold = run(4);
    [
        [0, 0],
        run(0), // pawn
        run(1), // lance
        run(2), // knight
        run(3), // silver
        run(5), // bishop
        run(7), // rook
        gold,
        [0, 0], // king: never a BonaPiece
        gold,   // promoted pawn
        gold,   // promoted lance
        gold,   // promoted knight
        gold,   // promoted silver
        run(6), // horse
        run(8), // dragon
    ]
};

/// `sq` as `perspective` sees it: White's view is the board turned round.
#[inline]
fn oriented(sq: Square, perspective: Color) -> Square {
    match perspective {
        Color::Black => sq,
        Color::White => sq.flip(),
    }
}

/// `sq` with files 1-9 swapped left to right.
#[inline]
fn mirrored(sq: Square) -> Square {
    Square::new(8 - sq.file(), sq.rank())
}

/// The BonaPiece of `spot` seen from `perspective`; `None` for a king.
///
/// The nth (1-based) piece of a kind in hand is slot `base + nth - 1`, as
/// in YaneuraOu, where the first pawn in hand is `f_hand_pawn` = 1.
pub fn bona_piece(spot: PieceSpot, perspective: Color) -> Option<u16> {
    match spot {
        PieceSpot::Board { sq, piece } => {
            let kind = piece.kind()?;
            board_bona_piece(
                kind,
                piece.color() == perspective,
                oriented(sq, perspective),
            )
        }
        PieceSpot::Hand { color, kind, nth } => {
            let friend = usize::from(color != perspective);
            let base = HAND_BASE.get(kind.index())?[friend];
            debug_assert!(base != 0 && nth >= 1, "{kind:?} #{nth} in hand");
            Some(base + u16::from(nth.saturating_sub(1)))
        }
    }
}

/// The BonaPiece of a `kind` piece on `view_sq` (already oriented).
#[inline]
fn board_bona_piece(kind: PieceType, friend: bool, view_sq: Square) -> Option<u16> {
    let base = BOARD_BASE[kind.index()][usize::from(!friend)];
    (base != 0).then(|| base + view_sq.index() as u16)
}

/// The piece a BonaPiece stands for: its kind (the four promoted minor
/// pieces read as gold, with which they share their BonaPieces) and whether
/// it is the perspective's own (`true`) or the opponent's; `None` for the
/// unused slots.
pub fn bona_piece_kind(bona: u16) -> Option<(PieceType, bool)> {
    if bona < HAND_END {
        return PieceType::HAND.into_iter().find_map(|kind| {
            let count = crate::hand::MAX_IN_HAND[kind.index()] as u16;
            HAND_BASE[kind.index()]
                .iter()
                .position(|&base| (base..base + count).contains(&bona))
                .map(|side| (kind, side == 0))
        });
    }
    if usize::from(bona) >= BONA_PIECE_END {
        return None;
    }
    // The run of 2 x 81 (friend, enemy) this BonaPiece lies in, and the
    // kind whose run starts there in BOARD_BASE (gold before the promoted
    // minor pieces that share its run).
    let offset = bona - HAND_END;
    let run_start = bona - offset % 162;
    let kind = PieceType::ALL
        .into_iter()
        .find(|kind| BOARD_BASE[kind.index()][0] == run_start)?;
    Some((kind, offset % 162 < 81))
}

/// One perspective's frame for a position: where its king bucket starts
/// and whether its board is mirrored. Fixed while that king stays put.
#[derive(Copy, Clone, Debug)]
struct View {
    perspective: Color,
    mirror: bool,
    offset: u32,
}

impl View {
    fn new(pos: &Position, perspective: Color, set: FeatureSet) -> View {
        // A tsume position may lack a king: use its back-rank centre square
        // (5i from Black, 5a from White), which is the same in both views.
        let king = if pos.has_king(perspective) {
            oriented(pos.king_square(perspective), perspective)
        } else {
            Square::new(4, 8)
        };
        let (bucket, mirror) = match set {
            FeatureSet::HalfKp => (king.index(), false),
            FeatureSet::HalfKpMirror => {
                let mirror = king.file() > 4;
                let king = if mirror { mirrored(king) } else { king };
                (
                    usize::from(king.file()) * 9 + usize::from(king.rank()),
                    mirror,
                )
            }
        };
        View {
            perspective,
            mirror,
            offset: (bucket * BONA_PIECE_END) as u32,
        }
    }

    /// The feature of `spot`; `None` for kings.
    #[inline]
    fn feature(self, spot: PieceSpot) -> Option<u32> {
        let bona = match spot {
            PieceSpot::Board { sq, piece } if self.mirror => {
                let view_sq = mirrored(oriented(sq, self.perspective));
                board_bona_piece(piece.kind()?, piece.color() == self.perspective, view_sq)?
            }
            _ => bona_piece(spot, self.perspective)?,
        };
        Some(self.offset + u32::from(bona))
    }
}

/// Replaces `out` with the active features of `pos` seen from `perspective`.
pub fn active_features(pos: &Position, perspective: Color, set: FeatureSet, out: &mut FeatureList) {
    out.clear();
    let view = View::new(pos, perspective, set);
    let mut push = |spot| {
        if let Some(feature) = view.feature(spot) {
            // A legal position has at most 38 non-king pieces.
            debug_assert!(!out.is_full());
            let _ = out.try_push(feature);
        }
    };
    for sq in pos.occupied() & !pos.pieces_of_kind(PieceType::King) {
        push(PieceSpot::Board {
            sq,
            piece: pos.piece_on(sq),
        });
    }
    for color in Color::ALL {
        let hand = pos.hand(color);
        for kind in PieceType::HAND {
            for nth in 1..=hand.count(kind) as u8 {
                push(PieceSpot::Hand { color, kind, nth });
            }
        }
    }
}

/// The features a move turned off and on, seen from `perspective`.
///
/// `pos_after` only supplies `perspective`'s king square, so any position
/// with that king where it stood after the move will do. When the move was
/// `perspective`'s own king move (`dirty.king_moved == Some(perspective)`),
/// every feature changes: refresh with [`active_features`] instead.
pub fn changed_features(
    dirty: &DirtyPiece,
    pos_after: &Position,
    perspective: Color,
    set: FeatureSet,
) -> (ChangeList, ChangeList) {
    debug_assert_ne!(dirty.king_moved, Some(perspective), "needs a refresh");
    let view = View::new(pos_after, perspective, set);
    let mut removed = ChangeList::new();
    let mut added = ChangeList::new();
    for change in dirty.changes() {
        if let Some(feature) = view.feature(change.before) {
            removed.push(feature);
        }
        if let Some(feature) = view.feature(change.after) {
            added.push(feature);
        }
    }
    (removed, added)
}

/// Whether `perspective`'s features must be rebuilt after `dirty`.
#[inline]
pub fn needs_refresh(dirty: &DirtyPiece, perspective: Color) -> bool {
    dirty.king_moved == Some(perspective)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Piece;
    use std::collections::HashSet;

    /// Every BonaPiece that `bona_piece` gives decodes to its own piece,
    /// and the slots it never gives decode to nothing.
    #[test]
    fn bona_pieces_decode_to_their_pieces() {
        let mut given = HashSet::new();
        for perspective in Color::ALL {
            for color in Color::ALL {
                let friend = color == perspective;
                for kind in PieceType::ALL {
                    if kind == PieceType::King {
                        continue;
                    }
                    for sq in 0..81 {
                        let spot = PieceSpot::Board {
                            sq: Square::from_index(sq).unwrap(),
                            piece: Piece::new(color, kind),
                        };
                        let b = bona_piece(spot, perspective).unwrap();
                        let minor = !matches!(kind, PieceType::Horse | PieceType::Dragon);
                        let shown = if kind.is_promoted() && minor {
                            PieceType::Gold
                        } else {
                            kind
                        };
                        assert_eq!(bona_piece_kind(b), Some((shown, friend)), "{kind:?} {sq}");
                        given.insert(b);
                    }
                }
                for kind in PieceType::HAND {
                    for nth in 1..=crate::hand::MAX_IN_HAND[kind.index()] as u8 {
                        let b =
                            bona_piece(PieceSpot::Hand { color, kind, nth }, perspective).unwrap();
                        assert_eq!(bona_piece_kind(b), Some((kind, friend)), "{kind:?} #{nth}");
                        given.insert(b);
                    }
                }
            }
        }
        for b in 0..BONA_PIECE_END as u16 {
            assert_eq!(bona_piece_kind(b).is_some(), given.contains(&b), "slot {b}");
        }
    }

    fn board(sq: &str, color: Color, kind: PieceType) -> PieceSpot {
        PieceSpot::Board {
            sq: Square::from_usi(sq.as_bytes()).unwrap(),
            piece: Piece::new(color, kind),
        }
    }

    fn hand(color: Color, kind: PieceType, nth: u8) -> PieceSpot {
        PieceSpot::Hand { color, kind, nth }
    }

    /// YaneuraOu's named constants, read off our tables.
    #[test]
    fn layout_matches_yaneuraou() {
        use Color::{Black, White};
        use PieceType::*;
        let bp = |spot| bona_piece(spot, Black).unwrap();
        assert_eq!(bp(hand(Black, Pawn, 1)), 1); // f_hand_pawn
        assert_eq!(bp(hand(Black, Pawn, 18)), 18);
        assert_eq!(bp(hand(White, Pawn, 1)), 20); // e_hand_pawn
        assert_eq!(bp(hand(Black, Lance, 1)), 39); // f_hand_lance
        assert_eq!(bp(hand(White, Knight, 1)), 54); // e_hand_knight
        assert_eq!(bp(hand(Black, Silver, 1)), 59); // f_hand_silver
        assert_eq!(bp(hand(White, Gold, 1)), 74); // e_hand_gold
        assert_eq!(bp(hand(Black, Bishop, 1)), 79); // f_hand_bishop
        assert_eq!(bp(hand(White, Rook, 2)), 89); // e_hand_rook + 1
                                                  // Board runs start at square 1a = 0.
        assert_eq!(bp(board("1a", Black, Pawn)), 90); // f_pawn
        assert_eq!(bp(board("1a", White, Pawn)), 171); // e_pawn
        assert_eq!(bp(board("1a", Black, Lance)), 252); // f_lance
        assert_eq!(bp(board("1a", White, Knight)), 495); // e_knight
        assert_eq!(bp(board("1a", Black, Silver)), 576); // f_silver
        assert_eq!(bp(board("1a", Black, Gold)), 738); // f_gold
        assert_eq!(bp(board("1a", White, ProPawn)), 819); // e_gold
        assert_eq!(bp(board("1a", Black, Bishop)), 900); // f_bishop
        assert_eq!(bp(board("1a", Black, Horse)), 1062); // f_horse
        assert_eq!(bp(board("1a", Black, Rook)), 1224); // f_rook
        assert_eq!(bp(board("1a", White, Dragon)), 1467); // e_dragon
        assert_eq!(bp(board("9i", White, Dragon)), 1547); // fe_end - 1
        assert_eq!(bp(board("2a", Black, Pawn)), 99, "square = file * 9 + rank");
        assert_eq!(bona_piece(board("5i", Black, King), Black), None);
    }

    /// White sees Black's 7g pawn as an enemy pawn on 3c (80 - sq).
    #[test]
    fn white_sees_the_board_turned_round() {
        use Color::{Black, White};
        let pawn = board("7g", Black, PieceType::Pawn);
        let turned = Square::from_usi(b"3c").unwrap().index() as u16;
        assert_eq!(bona_piece(pawn, White), Some(171 + turned));
        assert_eq!(
            bona_piece(hand(Black, PieceType::Rook, 1), White),
            Some(88),
            "e_hand_rook"
        );
        // The turned-round piece seen from the other side agrees.
        let their_pawn = board("3c", White, PieceType::Pawn);
        assert_eq!(
            bona_piece(their_pawn, White),
            bona_piece(board("7g", Black, PieceType::Pawn), Black)
        );
        assert_eq!(bona_piece(their_pawn, White), Some(90 + 60));
    }

    /// Every spot maps into 0..1548 without collisions; the slots left over
    /// are YaneuraOu's unused ones (0 and the gap after each hand run).
    #[test]
    fn bona_pieces_are_distinct_and_in_range() {
        let mut seen = HashSet::new();
        for color in Color::ALL {
            for kind in PieceType::HAND {
                let max = crate::hand::MAX_IN_HAND[kind.index()] as u8;
                for nth in 1..=max {
                    let bp = bona_piece(hand(color, kind, nth), Color::Black).unwrap();
                    assert!(seen.insert(bp), "{kind:?} #{nth}");
                }
            }
            // Golds and promoted minors share a run: count golds only.
            for kind in PieceType::ALL {
                if kind == PieceType::King || (kind.is_promoted() && kind.moves_like_gold()) {
                    continue;
                }
                for sq in Square::all() {
                    let spot = PieceSpot::Board {
                        sq,
                        piece: Piece::new(color, kind),
                    };
                    let bp = bona_piece(spot, Color::White).unwrap();
                    assert!(usize::from(bp) < BONA_PIECE_END);
                    assert!(seen.insert(bp), "{kind:?} {sq}");
                }
            }
        }
        let unused: Vec<u16> = (0..BONA_PIECE_END as u16)
            .filter(|bp| !seen.contains(bp))
            .collect();
        assert_eq!(
            unused,
            [0, 19, 38, 43, 48, 53, 58, 63, 68, 73, 78, 81, 84, 87]
        );
    }

    #[test]
    fn feature_set_sizes_and_ids() {
        assert_eq!(FeatureSet::HalfKp.inputs(), 125_388);
        assert_eq!(FeatureSet::HalfKpMirror.inputs(), 69_660);
        for set in FeatureSet::ALL {
            assert_eq!(FeatureSet::from_id(set.id()), Some(set));
        }
        assert_eq!(FeatureSet::from_id(0), None);
    }

    /// The start position: 38 features per side, all in range, and
    /// HalfKP's king bucket is the king square in the perspective's view.
    #[test]
    fn startpos_features() {
        let pos = Position::startpos();
        for set in FeatureSet::ALL {
            for color in Color::ALL {
                let mut list = FeatureList::new();
                active_features(&pos, color, set, &mut list);
                assert_eq!(list.len(), 38);
                let distinct: HashSet<u32> = list.iter().copied().collect();
                assert_eq!(distinct.len(), 38);
                let king_5i = 44;
                let bucket = match set {
                    FeatureSet::HalfKp => king_5i,
                    FeatureSet::HalfKpMirror => 4 * 9 + 8,
                };
                for &f in &list {
                    assert_eq!(f as usize / BONA_PIECE_END, bucket, "{set:?} {color:?}");
                }
            }
            // Both sides see the same (symmetric) position.
            let (mut black, mut white) = (FeatureList::new(), FeatureList::new());
            active_features(&pos, Color::Black, set, &mut black);
            active_features(&pos, Color::White, set, &mut white);
            black.sort_unstable();
            white.sort_unstable();
            assert_eq!(black, white);
        }
    }

    /// With the king on files 6-9 the mirror set mirrors king and pieces:
    /// the position and its left-right mirror image give the same features.
    #[test]
    fn mirror_set_folds_files() {
        let left = "4k4/9/9/9/9/9/9/8P/3K5 b Gp 1";
        let right = "4k4/9/9/9/9/9/9/P8/5K3 b Gp 1";
        let (left, right) = (
            Position::from_sfen(left).unwrap(),
            Position::from_sfen(right).unwrap(),
        );
        // Black's king is on 6i in one and 4i in the other (White's 5a
        // king needs no mirror, so White's features differ).
        let black = Color::Black;
        let (mut a, mut b) = (FeatureList::new(), FeatureList::new());
        active_features(&left, black, FeatureSet::HalfKpMirror, &mut a);
        active_features(&right, black, FeatureSet::HalfKpMirror, &mut b);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        active_features(&left, black, FeatureSet::HalfKp, &mut a);
        active_features(&right, black, FeatureSet::HalfKp, &mut b);
        a.sort_unstable();
        b.sort_unstable();
        assert_ne!(a, b, "HalfKP does not mirror");
        let mut list = FeatureList::new();
        active_features(&left, Color::Black, FeatureSet::HalfKpMirror, &mut list);
        let buckets: HashSet<usize> = list.iter().map(|&f| f as usize / BONA_PIECE_END).collect();
        // King on 6i (file index 5) mirrors to 4i: bucket 3 * 9 + 8.
        assert_eq!(buckets, HashSet::from([3 * 9 + 8]));
    }

    /// A tsume position without the attacker's king uses the fixed bucket.
    #[test]
    fn missing_king_uses_the_back_rank_centre() {
        let pos = Position::from_tsume_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
            .expect("tsume sfen");
        assert!(!pos.has_king(Color::Black));
        for set in FeatureSet::ALL {
            let mut list = FeatureList::new();
            active_features(&pos, Color::Black, set, &mut list);
            assert_eq!(list.len(), 38);
            // 5i is square 44 and bucket 4 * 9 + 8 = 44 alike.
            let expected = 44;
            assert!(list
                .iter()
                .all(|&f| f as usize / BONA_PIECE_END == expected));
        }
    }

    /// Along random games, old features minus removed plus added are the
    /// new features for each perspective whose king did not move.
    #[test]
    fn changed_features_turn_old_lists_into_new() {
        let mut rng = 0x2545_F491_4F6C_DD1D_u64;
        for set in FeatureSet::ALL {
            let mut pos = Position::startpos();
            for _ in 0..300 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let m = moves[(rng % moves.len() as u64) as usize];
                let mut before = [FeatureList::new(), FeatureList::new()];
                for color in Color::ALL {
                    active_features(&pos, color, set, &mut before[color.index()]);
                }
                pos.do_move(m);
                let dirty = pos.dirty_piece().unwrap();
                for color in Color::ALL {
                    if needs_refresh(&dirty, color) {
                        continue;
                    }
                    let (removed, added) = changed_features(&dirty, &pos, color, set);
                    let mut expected: Vec<u32> = before[color.index()].to_vec();
                    for f in removed {
                        let at = expected.iter().position(|&e| e == f).expect("was active");
                        expected.swap_remove(at);
                    }
                    expected.extend(added);
                    expected.sort_unstable();
                    let mut now = FeatureList::new();
                    active_features(&pos, color, set, &mut now);
                    now.sort_unstable();
                    assert_eq!(expected, now.as_slice(), "{m} {}", pos.to_sfen());
                }
            }
        }
    }
}
