//! Evaluation features, shared by the evaluator and the tuner.
//!
//! The evaluation is linear: `evaluate(pos) = Σ weight[i] · count_i(pos)`.
//! [`extract`] walks the position once and reports each feature with its
//! count to a [`FeatureSink`]; the evaluator's sink multiplies by the
//! weights, the tuner's sink records the counts. Non-linear ideas (king
//! danger growing faster than the number of attackers, diminishing returns
//! of hand pieces) become one-hot buckets, so the model stays linear and the
//! tuner's gradient is exact.
//!
//! Everything is measured from the owner's point of view (ranks counted
//! from the owner's far rank, files by distance, never by side), so a
//! colour-flipped or left-right mirrored position has the same features.
//! Most features count `+1` for the side to move and `-1` for the opponent,
//! sharing one weight; the threat features and the tempo are different for
//! the side to move (it can act first) and have their own weights.
//!
//! The features fall in two parts. The piece-square part (material, hand,
//! the placement tables, king placement) is a sum over single pieces, so
//! the position keeps its weighted sum up to date move by move
//! (`eval/psq.rs`); the dynamic part (attacks, king safety and the
//! control map around each king, hanging pieces, tempo) depends on how
//! pieces interact and is extracted per call.

use crate::attacks::{
    bishop_attacks, dragon_attacks, gold_attacks, horse_attacks, king_attacks, knight_attacks,
    lance_attacks, rook_attacks, silver_attacks,
};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// Receives features one at a time.
pub trait FeatureSink {
    /// Feature `index` occurs `count` times (negative counts are the opponent's).
    fn add(&mut self, index: usize, count: i32);
}

/// Number of piece groups used by the placement tables.
pub const GROUPS: usize = 9;
/// Names of the piece groups, for weight dumps.
pub const GROUP_NAMES: [&str; GROUPS] = [
    "pawn", "lance", "knight", "silver", "goldlike", "bishop", "rook", "horse", "dragon",
];
/// Group of each piece type (by [`PieceType::index`]). Promoted minor pieces
/// move like a gold, so they share its tables; the king has none (index 0 unused).
const GROUP_OF: [usize; PieceType::NUM] = [0, 0, 1, 2, 3, 5, 6, 4, 0, 4, 4, 4, 4, 7, 8];

/// A piece type that moves like each group (gold for the gold-likes).
const GROUP_KIND: [PieceType; GROUPS] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::Silver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Horse,
    PieceType::Dragon,
];

/// Hand buckets per hand kind (by [`PieceType::index`]): the `i`-th piece of
/// a kind has its own weight, so the tuner can learn diminishing returns.
/// Pawns beyond the eighth share the last bucket.
const HAND_BUCKETS: [usize; 8] = [0, 8, 4, 4, 4, 2, 2, 4];

/// Horizontal distance between piece and king, 0..=8 (sign dropped: shogi is
/// left-right symmetric, and folding halves the data each cell needs).
const FILE_SPAN: usize = 9;
/// Vertical offset between piece and king, -8..=8, stored as 0..17.
const RANK_SPAN: usize = 17;
/// Cells of one king-relative table of all groups.
const KING_TABLE: usize = GROUPS * FILE_SPAN * RANK_SPAN;

/// Capped bucket counts of the king-safety features.
const MAX_ATTACKERS: usize = 7;
const MAX_HAND_VARIETY: usize = 4;
const MAX_ROOK_LIKE: usize = 2;
const MAX_CAMP_PIECES: usize = 10;
/// Capped counts of the check-danger features: groups with a safe check
/// (0..=3) × king-zone attackers (0..=4).
const MAX_CHECK_GROUPS: usize = 3;
const MAX_CHECK_ATTACKERS: usize = 4;
const CHECK_DANGER_CELLS: usize = (MAX_CHECK_GROUPS + 1) * (MAX_CHECK_ATTACKERS + 1);

/// The king-control map covers the squares up to two files (folded: 0..=2)
/// and two ranks (-2..=2, towards the enemy first) from each king.
const CONTROL_FILES: usize = 3;
const CONTROL_RANKS: usize = 5;
/// States of one square of the map: enemy attackers (0, 1, 2+) × own
/// defenders other than the king (0, 1, 2+) × what stands there (empty,
/// own piece, enemy piece) × whether the enemy has a non-pawn piece in hand.
const CONTROL_STATES: usize = 3 * 3 * 3 * 2;

/// Start of each feature block in the flat weight vector.
pub mod layout {
    use super::*;

    /// Material on the board, by [`PieceType::index`] (king and 0 unused).
    pub const MATERIAL: usize = 0;
    /// Hand pieces: the `i`-th piece of each kind.
    pub const HAND: usize = MATERIAL + PieceType::NUM;
    const HAND_LEN: usize = 8 + 4 + 4 + 4 + 2 + 2 + 4;
    /// Piece placement relative to its own king: group × file distance × rank offset.
    pub const OWN_KING: usize = HAND + HAND_LEN;
    /// Piece placement relative to the enemy king.
    pub const ENEMY_KING: usize = OWN_KING + KING_TABLE;
    /// Piece placement by rank from the owner's side: group × relative rank.
    pub const RANK: usize = ENEMY_KING + KING_TABLE;
    /// King placement: distance from the centre file (0..5) × relative rank.
    pub const KING_PLACE: usize = RANK + GROUPS * 9;
    /// Squares a piece attacks that are not its own side's, per group.
    pub const MOBILITY: usize = KING_PLACE + 5 * 9;
    /// Enemy pieces attacking the 3×3 king zone: one-hot 0..=7.
    pub const KING_ATTACKERS: usize = MOBILITY + GROUPS;
    /// King-zone squares attacked by the enemy: one-hot 0..=8.
    pub const ZONE_ATTACKED: usize = KING_ATTACKERS + MAX_ATTACKERS + 1;
    /// Zone squares attacked by the enemy and defended only by the king
    /// (0..=8) × kinds in the enemy's hand (0..=4).
    pub const WEAK_BY_HAND: usize = ZONE_ATTACKED + 9;
    /// Empty zone squares no own piece defends (0..=8) × whether the enemy
    /// holds a non-pawn piece in hand (drop targets).
    pub const DROP_TARGETS: usize = WEAK_BY_HAND + 9 * (MAX_HAND_VARIETY + 1);
    /// Files around the king without an own pawn (0..=3) × enemy rooks
    /// and dragons on board or in hand (0..=2).
    pub const OPEN_FILES: usize = DROP_TARGETS + 9 * 2;
    /// King in the enemy camp: own pieces in that camp, one-hot 0..=10.
    pub const ENTERING: usize = OPEN_FILES + 4 * (MAX_ROOK_LIKE + 1);
    /// Side to move's pieces attacked and undefended, per group.
    pub const HANGING_US: usize = ENTERING + MAX_CAMP_PIECES + 1;
    /// Opponent's pieces attacked and undefended, per group.
    pub const HANGING_THEM: usize = HANGING_US + GROUPS;
    /// Side to move's pieces attacked by a cheaper enemy piece class
    /// (minor pieces by pawns, major pieces by pawns or minors), per group.
    pub const THREAT_US: usize = HANGING_THEM + GROUPS;
    /// The same for the opponent's pieces.
    pub const THREAT_THEM: usize = THREAT_US + GROUPS;
    /// Bonus for having the move.
    pub const TEMPO: usize = THREAT_THEM + GROUPS;
    /// Who controls each square around a king: cell (file distance ×
    /// rank offset) × square state (see `CONTROL_STATES`).
    pub const KING_CONTROL: usize = TEMPO + 1;
    /// The opponent (who moves next turn) has a safe check against the
    /// side to move's king with a piece of this group, by move or drop.
    pub const SAFE_CHECK_US: usize = KING_CONTROL + CONTROL_FILES * CONTROL_RANKS * CONTROL_STATES;
    /// The side to move has a safe check with a piece of this group now.
    pub const SAFE_CHECK_THEM: usize = SAFE_CHECK_US + GROUPS;
    /// Against the side to move's king: groups with a safe check (0..=3)
    /// × enemy pieces attacking its zone (0..=4), where checks turn into mates.
    pub const CHECK_DANGER_US: usize = SAFE_CHECK_THEM + GROUPS;
    /// The same against the opponent's king.
    pub const CHECK_DANGER_THEM: usize = CHECK_DANGER_US + CHECK_DANGER_CELLS;
    /// Total number of features (length of the weight vector).
    pub const NUM: usize = CHECK_DANGER_THEM + CHECK_DANGER_CELLS;

    /// Hand block offset of kind `index` (1..=7).
    pub(super) const HAND_START: [usize; 8] = {
        let mut starts = [0; 8];
        let mut k = 1;
        let mut at = HAND;
        while k < 8 {
            starts[k] = at;
            at += HAND_BUCKETS[k];
            k += 1;
        }
        starts
    };
}

/// Total number of features.
pub const NUM_FEATURES: usize = layout::NUM;

/// Index of a king-relative table cell.
const fn king_cell(
    group: usize,
    piece_file: u8,
    piece_rank: u8,
    king_file: u8,
    king_rank: u8,
) -> usize {
    let df = piece_file.abs_diff(king_file) as usize;
    let dr = (piece_rank as i32 - king_rank as i32 + 8) as usize;
    (group * FILE_SPAN + df) * RANK_SPAN + dr
}

/// A compile-time table of one byte per owner, king square and square,
/// each entry `$cell` of `$color` (the owner), `$king` and `$sq`.
macro_rules! owner_king_square_table {
    (|$color:ident, $king:ident, $sq:ident| $cell:expr) => {{
        let mut table = [[[0u8; Square::NUM]; Square::NUM]; 2];
        let mut owner = 0;
        while owner < 2 {
            let $color = Color::ALL[owner];
            let mut k = 0;
            while k < Square::NUM {
                let $king = Square::from_index_unchecked(k);
                let mut s = 0;
                while s < Square::NUM {
                    let $sq = Square::from_index_unchecked(s);
                    table[owner][k][s] = $cell;
                    s += 1;
                }
                k += 1;
            }
            owner += 1;
        }
        table
    }};
}

/// [`king_cell`] of group 0 by owner, king square and piece square (ranks
/// relative to the owner), so that a lookup needs no division: a king move
/// sums a cell for every piece on the board.
static KING_CELLS: [[[u8; Square::NUM]; Square::NUM]; 2] =
    owner_king_square_table!(|color, king, sq| king_cell(
        0,
        sq.file(),
        sq.relative_rank(color),
        king.file(),
        king.relative_rank(color),
    ) as u8);

// Declared after the table macro, which its control-map cells use.
mod king_safety;
use king_safety::{king_control, king_safety, safe_checks};

/// Placement-table group of a piece of `kind` (not the king).
#[inline]
pub(crate) fn group_of(kind: PieceType) -> usize {
    GROUP_OF[kind.index()]
}

/// Material feature of a piece of `kind` on the board.
#[inline]
pub(crate) fn material_feature(kind: PieceType) -> usize {
    layout::MATERIAL + kind.index()
}

/// Hand feature of the `nth` (0-based) piece of `kind` in a hand: pieces
/// beyond the last bucket share it.
#[inline]
pub(crate) fn hand_feature(kind: PieceType, nth: usize) -> usize {
    let buckets = HAND_BUCKETS[kind.index()];
    layout::HAND_START[kind.index()] + nth.min(buckets - 1)
}

/// King-placement feature of `color`'s king on `king`.
#[inline]
pub(crate) fn king_place_feature(color: Color, king: Square) -> usize {
    let centre_distance = (king.file() as i32 - 4).unsigned_abs() as usize;
    layout::KING_PLACE + centre_distance * 9 + rel_rank(king, color) as usize
}

/// Rank feature of a `group` piece of `owner` on `sq`.
#[inline(always)]
pub(crate) fn rank_feature(owner: Color, group: usize, sq: Square) -> usize {
    layout::RANK + group * 9 + rel_rank(sq, owner) as usize
}

/// One king as `owner`'s pieces see it: the table their cells relative to
/// it belong to (own-king or enemy-king) and each square's cell.
#[derive(Clone, Copy)]
pub(crate) struct KingView {
    table: usize,
    cells: &'static [u8; Square::NUM],
}

impl KingView {
    /// `owner`'s view of `king`'s king, which stands on `square`.
    #[inline]
    pub(crate) fn new(owner: Color, king: Color, square: Square) -> KingView {
        KingView {
            table: if king == owner {
                layout::OWN_KING
            } else {
                layout::ENEMY_KING
            },
            cells: &KING_CELLS[owner.index()][square.index()],
        }
    }

    /// The table feature of a `group` piece of the owner on `sq`.
    #[inline(always)]
    pub(crate) fn feature(&self, group: usize, sq: Square) -> usize {
        self.table + group * FILE_SPAN * RANK_SPAN + self.cells[sq.index()] as usize
    }
}

/// `color`'s pieces (the king left out) with their placement groups.
#[inline(always)]
pub(crate) fn pieces_by_group(pos: &Position, color: Color) -> [(Bitboard, usize); GROUPS] {
    [
        (pos.pieces(color, PieceType::Pawn), PAWN),
        (pos.pieces(color, PieceType::Lance), LANCE),
        (pos.pieces(color, PieceType::Knight), KNIGHT),
        (pos.pieces(color, PieceType::Silver), SILVER),
        (pos.golds(color), GOLD_LIKE),
        (pos.pieces(color, PieceType::Bishop), BISHOP),
        (pos.pieces(color, PieceType::Rook), ROOK),
        (pos.pieces(color, PieceType::Horse), HORSE),
        (pos.pieces(color, PieceType::Dragon), DRAGON),
    ]
}

/// Attack information of one side, gathered in one pass over its pieces.
#[derive(Default, Clone, Copy)]
struct SideAttacks {
    /// Squares attacked by pieces other than the king.
    by_pieces: Bitboard,
    /// Squares attacked by two or more of them.
    twice: Bitboard,
    /// Squares attacked by pawns.
    by_pawns: Bitboard,
    /// Squares attacked by pawns and minor pieces (lance to gold-like).
    by_minors: Bitboard,
    /// Pieces attacking the enemy king zone.
    zone_attackers: usize,
    /// Squares attacked by each placement group.
    by_group: [Bitboard; GROUPS],
}

/// Piece groups by name, for the kind-by-kind walk.
const PAWN: usize = 0;
const LANCE: usize = 1;
const KNIGHT: usize = 2;
const SILVER: usize = 3;
const GOLD_LIKE: usize = 4;
const BISHOP: usize = 5;
const ROOK: usize = 6;
const HORSE: usize = 7;
const DRAGON: usize = 8;

/// Kinds with a material weight (all but the king).
const MATERIAL_KINDS: [PieceType; 13] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::Silver,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Gold,
    PieceType::ProPawn,
    PieceType::ProLance,
    PieceType::ProKnight,
    PieceType::ProSilver,
    PieceType::Horse,
    PieceType::Dragon,
];

/// Walks one side's pieces, reporting mobility and gathering that side's
/// attacks.
struct PieceWalker {
    sign: i32,
    own: Bitboard,
    enemy_zone: Bitboard,
    attacks: SideAttacks,
}

impl PieceWalker {
    /// Mobility and king-zone pressure of `group` pieces attacking `attacks`
    /// (`zone_attackers` of them reach the enemy king zone).
    #[inline(always)]
    fn add_attacks<S: FeatureSink>(
        &mut self,
        sink: &mut S,
        group: usize,
        attacks: Bitboard,
        zone_attackers: u32,
    ) {
        let mobility = (attacks - self.own).count() as i32;
        if mobility != 0 {
            sink.add(layout::MOBILITY + group, self.sign * mobility);
        }
        self.attacks.by_group[group] |= attacks;
        self.attacks.twice |= self.attacks.by_pieces & attacks;
        self.attacks.by_pieces |= attacks;
        self.attacks.zone_attackers += zone_attackers as usize;
    }

    /// Attacks of each piece in `pieces`, one at a time.
    #[inline(always)]
    fn visit<S: FeatureSink>(
        &mut self,
        sink: &mut S,
        pieces: Bitboard,
        group: usize,
        attacks_from: impl Fn(Square) -> Bitboard,
    ) {
        let mut all = Bitboard::EMPTY;
        let mut twice = self.attacks.twice;
        let mut zone_attackers = 0;
        for sq in pieces {
            let attacks = attacks_from(sq);
            twice |= (all | self.attacks.by_pieces) & attacks;
            // Mobility counts each attacked square once per piece.
            let mobility = (attacks - self.own).count() as i32;
            if mobility != 0 {
                sink.add(layout::MOBILITY + group, self.sign * mobility);
            }
            all |= attacks;
            zone_attackers += u32::from((attacks & self.enemy_zone).is_nonempty());
        }
        self.attacks.by_pieces |= all;
        self.attacks.by_group[group] = all;
        self.attacks.twice = twice;
        if group <= GOLD_LIKE {
            self.attacks.by_minors |= all;
        }
        self.attacks.zone_attackers += zone_attackers as usize;
    }
}

/// Relative rank for `color` (0 = far rank).
#[inline]
fn rel_rank(sq: Square, color: Color) -> u8 {
    sq.relative_rank(color)
}

/// Reports every feature of `pos` (side to move's view) to `sink`.
pub fn extract<S: FeatureSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    for color in Color::ALL {
        let sign = if color == us { 1 } else { -1 };
        extract_piece_square(pos, color, sign, sink);
    }
    extract_dynamic(pos, sink);
}

/// Reports the piece-square features of `color`'s pieces (material, hand,
/// placement tables, king placement), each counted `sign` times.
pub(crate) fn extract_piece_square<S: FeatureSink>(
    pos: &Position,
    color: Color,
    sign: i32,
    sink: &mut S,
) {
    for kind in MATERIAL_KINDS {
        let n = pos.pieces(color, kind).count() as i32;
        if n != 0 {
            sink.add(material_feature(kind), sign * n);
        }
    }
    let own = KingView::new(color, color, pos.king_square(color));
    let enemy = KingView::new(color, color.flip(), pos.king_square(color.flip()));
    for (pieces, group) in pieces_by_group(pos, color) {
        for sq in pieces {
            sink.add(own.feature(group, sq), sign);
            sink.add(enemy.feature(group, sq), sign);
            sink.add(rank_feature(color, group, sq), sign);
        }
    }
    hand_features(pos, color, sign, sink);
    sink.add(king_place_feature(color, pos.king_square(color)), sign);
}

/// Reports the features that depend on how pieces interact (mobility,
/// king safety, entering king, hanging and threatened pieces) and the tempo.
pub(crate) fn extract_dynamic<S: FeatureSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let occupied = pos.occupied();
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    let zones = [king_attacks(kings[0]), king_attacks(kings[1])];
    let mut side = [SideAttacks::default(); 2];

    for color in Color::ALL {
        let sign = if color == us { 1 } else { -1 };
        let mut walker = PieceWalker {
            sign,
            own: pos.pieces_of(color),
            enemy_zone: zones[color.flip().index()],
            attacks: SideAttacks::default(),
        };
        // Kind by kind, so each attack lookup is a direct call; pawns in
        // bulk, as no two pawns of a side attack the same square.
        let pawns = pos.pieces(color, PieceType::Pawn);
        let pawn_attacks = pawns.shift_forward(color);
        walker.add_attacks(
            sink,
            PAWN,
            pawn_attacks,
            (pawn_attacks & walker.enemy_zone).count(),
        );
        walker.attacks.by_pawns = pawn_attacks;
        walker.attacks.by_minors = pawn_attacks;
        walker.visit(sink, pos.pieces(color, PieceType::Lance), LANCE, |sq| {
            lance_attacks(color, sq, occupied)
        });
        walker.visit(sink, pos.pieces(color, PieceType::Knight), KNIGHT, |sq| {
            knight_attacks(color, sq)
        });
        walker.visit(sink, pos.pieces(color, PieceType::Silver), SILVER, |sq| {
            silver_attacks(color, sq)
        });
        walker.visit(sink, pos.golds(color), GOLD_LIKE, |sq| {
            gold_attacks(color, sq)
        });
        walker.visit(sink, pos.pieces(color, PieceType::Bishop), BISHOP, |sq| {
            bishop_attacks(sq, occupied)
        });
        walker.visit(sink, pos.pieces(color, PieceType::Rook), ROOK, |sq| {
            rook_attacks(sq, occupied)
        });
        walker.visit(sink, pos.pieces(color, PieceType::Horse), HORSE, |sq| {
            horse_attacks(sq, occupied)
        });
        walker.visit(sink, pos.pieces(color, PieceType::Dragon), DRAGON, |sq| {
            dragon_attacks(sq, occupied)
        });
        side[color.index()] = walker.attacks;
    }

    for color in Color::ALL {
        let sign = if color == us { 1 } else { -1 };
        let them = color.flip();
        king_safety(pos, color, sign, &side, &zones, sink);
        king_control(pos, color, sign, &side, sink);
        safe_checks(pos, color, color == us, &side, &zones, sink);
        entering_king(pos, color, sign, sink);
        let defended = side[color.index()].by_pieces | zones[color.index()];
        let attacked = side[them.index()].by_pieces | zones[them.index()];
        let hanging = (pos.pieces_of(color) & attacked) - defended;
        let (hanging_block, threat_block) = if color == us {
            (layout::HANGING_US, layout::THREAT_US)
        } else {
            (layout::HANGING_THEM, layout::THREAT_THEM)
        };
        add_by_group(
            pos,
            hanging.without(kings[color.index()]),
            hanging_block,
            sink,
        );
        // Attacked by a cheaper piece: loses material even when defended.
        let enemy = &side[them.index()];
        let pawns_and_king =
            pos.pieces(color, PieceType::Pawn) | pos.pieces(color, PieceType::King);
        let majors = pos.diagonal_sliders(color) | pos.orthogonal_sliders(color);
        let minors = pos.pieces_of(color) - pawns_and_king - majors;
        let threatened = (minors & enemy.by_pawns) | (majors & enemy.by_minors);
        add_by_group(pos, threatened, threat_block, sink);
    }
    sink.add(layout::TEMPO, 1);
}

/// Counts each of `pieces` (no king) once in `block`, at its group.
#[inline(always)]
fn add_by_group<S: FeatureSink>(pos: &Position, pieces: Bitboard, block: usize, sink: &mut S) {
    for sq in pieces {
        let group = GROUP_OF[pos.piece_on(sq).kind_unchecked().index()];
        sink.add(block + group, 1);
    }
}

/// Hand pieces: the `i`-th piece of each kind is its own feature.
fn hand_features<S: FeatureSink>(pos: &Position, color: Color, sign: i32, sink: &mut S) {
    let hand = pos.hand(color);
    for kind in PieceType::HAND {
        let n = hand.count(kind) as usize;
        if n == 0 {
            continue;
        }
        let buckets = HAND_BUCKETS[kind.index()];
        for nth in 0..n.min(buckets - 1) {
            sink.add(hand_feature(kind, nth), sign);
        }
        if n >= buckets {
            let last = hand_feature(kind, buckets - 1);
            sink.add(last, sign * (n - buckets + 1) as i32);
        }
    }
}

/// Entering-king progress: with the king in the enemy camp, each own piece
/// there brings the declaration (and safety from mate) closer.
fn entering_king<S: FeatureSink>(pos: &Position, color: Color, sign: i32, sink: &mut S) {
    let king = pos.king_square(color);
    if !king.in_promotion_zone(color) {
        return;
    }
    let camp = Bitboard::promotion_zone(color);
    let pieces = (pos.pieces_of(color) & camp).without(king).count() as usize;
    sink.add(layout::ENTERING + pieces.min(MAX_CAMP_PIECES), sign);
}

/// Human-readable name of feature `index`, for weight dumps and reports.
pub fn feature_name(index: usize) -> String {
    use layout::*;
    let kind_name = |i: usize| {
        PieceType::from_u8(i as u8).map_or_else(|| "-".to_string(), |k| format!("{k:?}"))
    };
    let table = |i: usize| {
        let (group, rest) = (i / (FILE_SPAN * RANK_SPAN), i % (FILE_SPAN * RANK_SPAN));
        let (df, dr) = (rest / RANK_SPAN, rest % RANK_SPAN);
        format!("{} df={df} dr={}", GROUP_NAMES[group], dr as i32 - 8)
    };
    match index {
        i if i < HAND => format!("material {}", kind_name(i - MATERIAL)),
        i if i < OWN_KING => {
            let k = (1..8).rev().find(|&k| HAND_START[k] <= i).unwrap_or(1);
            format!("hand {} #{}", kind_name(k), i - HAND_START[k] + 1)
        }
        i if i < ENEMY_KING => format!("own-king {}", table(i - OWN_KING)),
        i if i < RANK => format!("enemy-king {}", table(i - ENEMY_KING)),
        i if i < KING_PLACE => {
            let i = i - RANK;
            format!("rank {} r={}", GROUP_NAMES[i / 9], i % 9)
        }
        i if i < MOBILITY => {
            let i = i - KING_PLACE;
            format!("king-place centre-dist={} r={}", i / 9, i % 9)
        }
        i if i < KING_ATTACKERS => format!("mobility {}", GROUP_NAMES[i - MOBILITY]),
        i if i < ZONE_ATTACKED => format!("king-attackers {}", i - KING_ATTACKERS),
        i if i < WEAK_BY_HAND => format!("zone-attacked {}", i - ZONE_ATTACKED),
        i if i < DROP_TARGETS => {
            let i = i - WEAK_BY_HAND;
            let w = MAX_HAND_VARIETY + 1;
            format!("weak-zone {} hand-kinds {}", i / w, i % w)
        }
        i if i < OPEN_FILES => {
            let i = i - DROP_TARGETS;
            format!("drop-targets {} droppable {}", i / 2, i % 2)
        }
        i if i < ENTERING => {
            let i = i - OPEN_FILES;
            let w = MAX_ROOK_LIKE + 1;
            format!("open-files {} rooks {}", i / w, i % w)
        }
        i if i < HANGING_US => format!("entering camp-pieces {}", i - ENTERING),
        i if i < HANGING_THEM => format!("hanging-us {}", GROUP_NAMES[i - HANGING_US]),
        i if i < THREAT_US => format!("hanging-them {}", GROUP_NAMES[i - HANGING_THEM]),
        i if i < THREAT_THEM => format!("threat-us {}", GROUP_NAMES[i - THREAT_US]),
        i if i < TEMPO => format!("threat-them {}", GROUP_NAMES[i - THREAT_THEM]),
        TEMPO => "tempo".to_string(),
        i if i < SAFE_CHECK_US => {
            let (cell, state) = (
                (i - KING_CONTROL) / CONTROL_STATES,
                (i - KING_CONTROL) % CONTROL_STATES,
            );
            let (df, dr) = (cell / CONTROL_RANKS, cell % CONTROL_RANKS);
            let (attackers, defenders, occupant, droppable) =
                (state / 18, state / 6 % 3, state / 2 % 3, state % 2);
            let occupant = ["empty", "own", "enemy"][occupant];
            format!(
                "king-control df={df} dr={} attackers {attackers} defenders {defenders} {occupant} droppable {droppable}",
                dr as i32 - 2
            )
        }
        i if i < SAFE_CHECK_THEM => format!("safe-check-us {}", GROUP_NAMES[i - SAFE_CHECK_US]),
        i if i < CHECK_DANGER_US => {
            format!("safe-check-them {}", GROUP_NAMES[i - SAFE_CHECK_THEM])
        }
        i => {
            let (block, i) = if i < CHECK_DANGER_THEM {
                ("us", i - CHECK_DANGER_US)
            } else {
                ("them", i - CHECK_DANGER_THEM)
            };
            let w = MAX_CHECK_ATTACKERS + 1;
            format!("check-danger-{block} groups {} attackers {}", i / w, i % w)
        }
    }
}

/// Starting weights before any tuning: classic material values, hand
/// pieces a little above board pieces, and hand-set king safety, so that
/// the first self-play generation already plays sensible shogi.
pub fn initial_weights() -> Vec<i32> {
    use layout::*;
    let mut w = vec![0i32; NUM];
    for kind in PieceType::ALL {
        w[MATERIAL + kind.index()] = super::piece_value(kind);
    }
    for kind in PieceType::HAND {
        let start = HAND_START[kind.index()];
        for i in 0..HAND_BUCKETS[kind.index()] {
            w[start + i] = super::hand_value(kind) * 11 / 10 - 5 * i as i32;
        }
    }
    for (n, v) in [0, -10, -30, -60, -100, -150, -200, -250]
        .iter()
        .enumerate()
    {
        w[KING_ATTACKERS + n] = *v;
    }
    for weak in 0..9 {
        for variety in 0..=MAX_HAND_VARIETY {
            w[WEAK_BY_HAND + weak * (MAX_HAND_VARIETY + 1) + variety] =
                -(weak as i32) * (10 + 10 * variety as i32);
        }
    }
    for group in [1, 5, 6, 7, 8] {
        w[MOBILITY + group] = 3;
    }
    for group in 0..GROUPS {
        let value = super::piece_value(GROUP_KIND[group]);
        w[HANGING_US + group] = -value / 10;
        w[HANGING_THEM + group] = value / 3;
        w[THREAT_US + group] = -value / 20;
        w[THREAT_THEM + group] = value / 6;
    }
    for n in 0..=MAX_CAMP_PIECES {
        w[ENTERING + n] = 20 * n as i32;
    }
    w[TEMPO] = 20;
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Collects feature counts by name.
    #[derive(Default)]
    pub(super) struct Named(pub(super) HashMap<String, i32>);

    impl FeatureSink for Named {
        fn add(&mut self, index: usize, count: i32) {
            *self.0.entry(feature_name(index)).or_default() += count;
        }
    }

    #[test]
    fn king_view_cells_match_the_formula() {
        for owner in Color::ALL {
            for king in Color::ALL {
                let table = if king == owner {
                    layout::OWN_KING
                } else {
                    layout::ENEMY_KING
                };
                for ksq in Square::all() {
                    let view = KingView::new(owner, king, ksq);
                    let (kf, kr) = (ksq.file(), rel_rank(ksq, owner));
                    for sq in Square::all() {
                        for group in 0..GROUPS {
                            let cell = king_cell(group, sq.file(), rel_rank(sq, owner), kf, kr);
                            assert_eq!(view.feature(group, sq), table + cell);
                        }
                    }
                }
            }
        }
    }
}
