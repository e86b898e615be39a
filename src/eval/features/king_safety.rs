//! King-safety features: danger counts around each king's 3×3 zone, the
//! control map of the squares within two files and ranks of it, and the
//! safe checks the enemy has against it.

use super::GROUP_KIND;
use super::{layout, FeatureSink, SideAttacks, CONTROL_RANKS, CONTROL_STATES};
use super::{
    MAX_ATTACKERS, MAX_CHECK_ATTACKERS, MAX_CHECK_GROUPS, MAX_HAND_VARIETY, MAX_ROOK_LIKE,
};
use crate::attacks::attacks_of;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// Squares of each king's control map: the 5×5 block around it, clipped
/// to the board, without the king's own square.
static CONTROL_REGION: [Bitboard; Square::NUM] = {
    let mut regions = [Bitboard::EMPTY; Square::NUM];
    let mut k = 0;
    while k < Square::NUM {
        let king = Square::from_index_unchecked(k);
        let mut s = 0;
        while s < Square::NUM {
            let sq = Square::from_index_unchecked(s);
            if s != k
                && sq.file().abs_diff(king.file()) <= 2
                && sq.rank().abs_diff(king.rank()) <= 2
            {
                regions[k] = regions[k].with(sq);
            }
            s += 1;
        }
        k += 1;
    }
    regions
};

/// Control-map cell of `sq` for `color`'s king on `king` (ranks relative
/// to the owner); 0 outside the map, whose squares are [`CONTROL_REGION`].
const fn control_cell(color: Color, king: Square, sq: Square) -> u8 {
    let df = sq.file().abs_diff(king.file()) as usize;
    let dr = sq.relative_rank(color) as i32 - king.relative_rank(color) as i32;
    if df <= 2 && dr.abs() <= 2 {
        (df * CONTROL_RANKS + (dr + 2) as usize) as u8
    } else {
        0
    }
}

/// [`control_cell`] by owner, king square and square.
static CONTROL_CELLS: [[[u8; Square::NUM]; Square::NUM]; 2] =
    owner_king_square_table!(|color, king, sq| control_cell(color, king, sq));

/// Danger to `color`'s king: attackers of its 3×3 zone, weak squares,
/// drop targets for the enemy's hand, and open files for enemy rooks.
pub(super) fn king_safety<S: FeatureSink>(
    pos: &Position,
    color: Color,
    sign: i32,
    side: &[SideAttacks; 2],
    zones: &[Bitboard; 2],
    sink: &mut S,
) {
    let them = color.flip();
    let zone = zones[color.index()];
    let enemy_attacks = side[them.index()].by_pieces | zones[them.index()];
    let own_defence = side[color.index()].by_pieces;
    let enemy_hand = pos.hand(them);

    let attackers = side[them.index()].zone_attackers.min(MAX_ATTACKERS);
    sink.add(layout::KING_ATTACKERS + attackers, sign);
    let attacked = (zone & enemy_attacks).count() as usize;
    sink.add(layout::ZONE_ATTACKED + attacked, sign);

    let variety = PieceType::HAND
        .iter()
        .filter(|&&k| enemy_hand.count(k) > 0)
        .count()
        .min(MAX_HAND_VARIETY);
    let weak = ((zone & enemy_attacks) - own_defence).count() as usize;
    sink.add(
        layout::WEAK_BY_HAND + weak * (MAX_HAND_VARIETY + 1) + variety,
        sign,
    );

    let has_droppable = enemy_hand.has_non_pawn();
    let empty_undefended = ((zone - pos.occupied()) - own_defence).count() as usize;
    sink.add(
        layout::DROP_TARGETS + empty_undefended * 2 + usize::from(has_droppable),
        sign,
    );

    let king_file = pos.king_square(color).file();
    let own_pawns = pos.pieces(color, PieceType::Pawn);
    let open = (king_file.saturating_sub(1)..=(king_file + 1).min(8))
        .filter(|&f| (own_pawns & Bitboard::file(f)).is_empty())
        .count();
    let rook_like = (pos.pieces(them, PieceType::Rook) | pos.pieces(them, PieceType::Dragon))
        .count() as usize
        + enemy_hand.count(PieceType::Rook) as usize;
    sink.add(
        layout::OPEN_FILES + open * (MAX_ROOK_LIKE + 1) + rook_like.min(MAX_ROOK_LIKE),
        sign,
    );
}

/// The control map around `color`'s king: for each nearby square, how
/// many enemy pieces attack it, how many own pieces defend it, what stands
/// on it, and whether the enemy could drop a piece there. Single-square
/// counts miss what matters most to a castle, which squares of it the
/// enemy already outnumbers.
pub(super) fn king_control<S: FeatureSink>(
    pos: &Position,
    color: Color,
    sign: i32,
    side: &[SideAttacks; 2],
    sink: &mut S,
) {
    let them = color.flip();
    let king = pos.king_square(color);
    let (own, enemy) = (&side[color.index()], &side[them.index()]);
    let (own_pieces, enemy_pieces) = (pos.pieces_of(color), pos.pieces_of(them));
    let droppable = usize::from(pos.hand(them).has_non_pawn());
    let block = layout::KING_CONTROL + droppable;
    // The map spans at most five files, 45 consecutive bits of the
    // file-major bitboards: shifted down to one u64, each square's state
    // is a handful of single-bit extractions.
    let base = u32::from(king.file().saturating_sub(2)) * 9;
    let narrow = |b: Bitboard| (b.0 >> base) as u64;
    let (enemy_once, enemy_twice) = (narrow(enemy.by_pieces), narrow(enemy.twice));
    let (own_once, own_twice) = (narrow(own.by_pieces), narrow(own.twice));
    let (own_on, enemy_on) = (narrow(own_pieces), narrow(enemy_pieces));
    let cells = &CONTROL_CELLS[color.index()][king.index()][base as usize..];
    let mut region = narrow(CONTROL_REGION[king.index()]);
    while region != 0 {
        let j = region.trailing_zeros();
        region &= region - 1;
        let bit = |plane: u64| ((plane >> j) & 1) as usize;
        let attackers = bit(enemy_once) + bit(enemy_twice);
        let defenders = bit(own_once) + bit(own_twice);
        let occupant = bit(own_on) + 2 * bit(enemy_on);
        let state = ((attackers * 3 + defenders) * 3 + occupant) * 2;
        let cell = cells[j as usize] as usize;
        sink.add(block + cell * CONTROL_STATES + state, sign);
    }
}

/// Safe checks against `color`'s king: for each piece group, whether the
/// enemy can give check next move by moving such a piece, or dropping one
/// from hand, onto a square where it cannot simply be taken. Shogi attacks
/// end in checks by drops beside the king, and the count of such checks
/// against the pressure on the king zone says how close a mate is, which
/// the one-square features cannot see. `to_move`: `color` is the side to
/// move, so the checks come a move later.
pub(super) fn safe_checks<S: FeatureSink>(
    pos: &Position,
    color: Color,
    to_move: bool,
    side: &[SideAttacks; 2],
    zones: &[Bitboard; 2],
    sink: &mut S,
) {
    let them = color.flip();
    let king = pos.king_square(color);
    let occupied = pos.occupied();
    let (own, enemy) = (&side[color.index()], &side[them.index()]);
    let zone = zones[color.index()];
    // Beside the king a checker is safe only with support; a moved piece
    // needs a second attacker, as it no longer guards its target itself.
    let unguarded = !own.by_pieces;
    let drop_safe = (!occupied & unguarded) - (zone - enemy.by_pieces);
    let move_safe = (unguarded - pos.pieces_of(them)) - (zone - enemy.twice);
    let hand = pos.hand(them);
    let (check_block, danger_block) = if to_move {
        (layout::SAFE_CHECK_US, layout::CHECK_DANGER_US)
    } else {
        (layout::SAFE_CHECK_THEM, layout::CHECK_DANGER_THEM)
    };
    let mut groups = 0;
    for (group, kind) in GROUP_KIND.into_iter().enumerate() {
        let movers = enemy.by_group[group] & move_safe;
        // Promoted pieces are never in hand.
        let droppable = !kind.is_promoted() && hand.count(kind) > 0;
        if movers.is_empty() && !droppable {
            continue;
        }
        // Squares from which such a piece checks the king: its moves read
        // backwards, i.e. the king's colour moving like that piece.
        let from = attacks_of(color, kind, king, occupied);
        let mut squares = from & movers;
        if droppable {
            let mut drops = from & drop_safe;
            if kind == PieceType::Pawn && drops.is_nonempty() {
                drops = drops - pos.pawn_files(them);
            }
            squares |= drops;
        }
        if squares.is_nonempty() {
            groups += 1;
            sink.add(check_block + group, 1);
        }
    }
    let attackers = enemy.zone_attackers.min(MAX_CHECK_ATTACKERS);
    let cell = groups.min(MAX_CHECK_GROUPS) * (MAX_CHECK_ATTACKERS + 1) + attackers;
    sink.add(danger_block + cell, 1);
}

#[cfg(test)]
mod tests {
    use super::super::extract;
    use super::super::tests::Named;
    use crate::position::Position;

    #[test]
    fn king_control_counts_attackers_defenders_occupant_and_drops() {
        // Black's pawn on 5g: attacked by the rook on 5a, defended by the
        // gold on 4h; White holds a gold to drop.
        let pos = Position::from_sfen("4r3k/9/9/9/9/9/4P4/5G3/4K4 b g 1").unwrap();
        let mut named = Named::default();
        extract(&pos, &mut named);
        let square = "king-control df=0 dr=-2 attackers 1 defenders 1 own droppable 1";
        assert_eq!(named.0.get(square), Some(&1), "{:?}", named.0);
        let black_cells: i32 = named
            .0
            .iter()
            .filter(|(name, &n)| name.starts_with("king-control") && n > 0)
            .map(|(_, &n)| n)
            .sum();
        // 5×5 around 5i, clipped by the board edge, less the king's square.
        assert_eq!(black_cells, 14);
        // White's king in the corner, on its own back rank; no black hand.
        let empty_corner = "king-control df=1 dr=-1 attackers 0 defenders 0 empty droppable 0";
        assert!(named.0.get(empty_corner).is_some_and(|&n| n < 0));
    }

    #[test]
    fn safe_checks_need_an_unguarded_square_and_support_beside_the_king() {
        // White holds a gold; its silver on 4g supports a drop on 5h or 4h
        // beside Black's king, and no black piece guards those squares.
        let open = Position::from_sfen("4k4/9/9/9/9/9/5s3/9/4K4 b g 1").unwrap();
        let mut named = Named::default();
        extract(&open, &mut named);
        assert_eq!(
            named.0.get("safe-check-us goldlike"),
            Some(&1),
            "{:?}",
            named.0
        );
        // The silver itself checks only from a square it alone attacks.
        assert_eq!(named.0.get("safe-check-us silver"), None);
        let danger = "check-danger-us groups 1 attackers 1";
        assert_eq!(named.0.get(danger), Some(&1));
        assert_eq!(
            named.0.get("check-danger-them groups 0 attackers 0"),
            Some(&1)
        );

        // Golds on 6i and 4i guard both squares: no safe check is left.
        let guarded = Position::from_sfen("4k4/9/9/9/9/9/5s3/9/3GKG3 b g 1").unwrap();
        let mut named = Named::default();
        extract(&guarded, &mut named);
        assert!(
            named.0.keys().all(|name| !name.starts_with("safe-check")),
            "{:?}",
            named.0
        );
        assert_eq!(
            named.0.get("check-danger-us groups 0 attackers 1"),
            Some(&1)
        );
    }
}
