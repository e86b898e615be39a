//! The piece-square part of the evaluation, kept up to date move by move.
//!
//! Material, hand pieces, the placement tables and the king's placement
//! are sums over single pieces, so a move changes only the terms of the
//! pieces it touches. [`Position::do_move`] stores the updated sums in its
//! state stack, which makes `undo_move` and null moves free, and
//! [`super::evaluate`] adds them to the dynamic features it extracts per
//! call. A king move shifts every piece's cell in that king's tables, so
//! the terms relative to that king are summed afresh; the rest still
//! change only by the pieces the move touches.
//!
//! The position keeps the sums of the production weights; `evaluate_with`
//! and the tuner extract every feature from scratch. The `_with` forms take
//! any weights so the tests can check the updates with every table non-zero.

use super::features::{
    extract_piece_square, group_of, hand_feature, king_place_feature, layout, material_feature,
    pieces_by_group, rank_feature, FeatureSink, KingView,
};
use super::weights::WEIGHTS;
use super::NUM_FEATURES;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square};

type Weights = [i16; NUM_FEATURES];

/// Weighted piece-square sums, each from its owner's point of view (so a
/// null move changes nothing and the side to move's sign is applied only
/// when the score is read). An owner's score is its `base` plus its terms
/// in both kings' tables.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PsqScore {
    /// Material, hand, rank and king-placement terms, by owner.
    base: [i32; 2],
    /// Placement-table terms relative to each king: `by_king[king][owner]`.
    by_king: [[i32; 2]; 2],
}

/// Routes the weighted features of `owner`'s pieces into a [`PsqScore`].
struct Split<'a> {
    weights: &'a Weights,
    owner: Color,
    score: PsqScore,
}

impl FeatureSink for Split<'_> {
    fn add(&mut self, index: usize, count: i32) {
        let value = i32::from(self.weights[index]) * count;
        let owner = self.owner.index();
        if (layout::OWN_KING..layout::ENEMY_KING).contains(&index) {
            self.score.by_king[owner][owner] += value;
        } else if (layout::ENEMY_KING..layout::RANK).contains(&index) {
            self.score.by_king[owner ^ 1][owner] += value;
        } else {
            self.score.base[owner] += value;
        }
    }
}

/// The terms of `owner`'s table cells relative to `king`'s king, summed
/// over all of `owner`'s pieces.
fn king_table_sum(weights: &Weights, pos: &Position, king: Color, owner: Color) -> i32 {
    let view = KingView::new(owner, king, pos.king_square(king));
    let mut sum = 0;
    for (pieces, group) in pieces_by_group(pos, owner) {
        for sq in pieces {
            sum += i32::from(weights[view.feature(group, sq)]);
        }
    }
    sum
}

impl PsqScore {
    /// The sums of `pos`, from scratch.
    #[inline]
    pub(crate) fn compute(pos: &Position) -> PsqScore {
        PsqScore::compute_with(&WEIGHTS, pos)
    }

    /// The sums of `pos` under `weights`, from scratch (the same walk as
    /// the tuner's features).
    pub(crate) fn compute_with(weights: &Weights, pos: &Position) -> PsqScore {
        let mut split = Split {
            weights,
            owner: Color::Black,
            score: PsqScore::default(),
        };
        for owner in Color::ALL {
            split.owner = owner;
            extract_piece_square(pos, owner, 1, &mut split);
        }
        split.score
    }

    /// The piece-square score from `us`'s point of view.
    #[inline]
    pub(crate) fn relative(self, us: Color) -> i32 {
        self.owner_total(us) - self.owner_total(us.flip())
    }

    #[inline]
    fn owner_total(self, owner: Color) -> i32 {
        let o = owner.index();
        self.base[o] + self.by_king[0][o] + self.by_king[1][o]
    }

    /// Adds `sign` times the terms of a `kind` piece (not a king) of the
    /// owner with colour index `OWNER` on `sq`, with the kings on `kings`.
    #[inline(always)]
    fn add_piece<const OWNER: usize>(
        &mut self,
        weights: &Weights,
        kings: [Square; 2],
        kind: PieceType,
        sq: Square,
        sign: i32,
    ) {
        let w = |feature: usize| i32::from(weights[feature]);
        let owner = Color::ALL[OWNER];
        let group = group_of(kind);
        self.base[OWNER] += sign * (w(material_feature(kind)) + w(rank_feature(owner, group, sq)));
        for king in Color::ALL {
            let view = KingView::new(owner, king, kings[king.index()]);
            self.by_king[king.index()][OWNER] += sign * w(view.feature(group, sq));
        }
    }

    /// The sums after `m`, given these sums before it, `pos` the position
    /// after it and `captured` the piece it took ([`Piece::NONE`] if none).
    #[inline]
    pub(crate) fn after_move(self, pos: &Position, m: Move, captured: Piece) -> PsqScore {
        self.after_move_with(&WEIGHTS, pos, m, captured)
    }

    /// [`PsqScore::after_move`] under `weights`.
    #[inline(always)]
    pub(crate) fn after_move_with(
        self,
        weights: &Weights,
        pos: &Position,
        m: Move,
        captured: Piece,
    ) -> PsqScore {
        // One copy per mover, so every index below is a constant and the
        // sums stay in registers (a store at a variable index followed by
        // the wide copy into the state stack stalls store forwarding).
        match pos.side_to_move() {
            Color::White => self.after_move_by::<0, 1>(weights, pos, m, captured),
            Color::Black => self.after_move_by::<1, 0>(weights, pos, m, captured),
        }
    }

    /// [`PsqScore::after_move_with`] for a move by the colour with index `US`.
    #[inline(always)]
    fn after_move_by<const US: usize, const THEM: usize>(
        mut self,
        weights: &Weights,
        pos: &Position,
        m: Move,
        captured: Piece,
    ) -> PsqScore {
        let w = |feature: usize| i32::from(weights[feature]);
        let us = Color::ALL[US];
        let to = m.to();
        let moved = pos.piece_on(to).kind_unchecked();
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        let hand = pos.hand(us);
        if let Some(taken) = captured.kind() {
            // If our king took it, the terms relative to our king are
            // summed afresh below, whatever is subtracted from them here.
            self.add_piece::<THEM>(weights, kings, taken, to, -1);
            // The captured piece is now the hand's last of its kind.
            let kind = taken.unpromote();
            self.base[US] += w(hand_feature(kind, hand.count(kind) as usize - 1));
        }
        if let Some(kind) = m.dropped_kind() {
            // The hand held one more before: the dropped piece was its
            // `count`-th of this kind (0-based), counted after the drop.
            self.base[US] -= w(hand_feature(kind, hand.count(kind) as usize));
        } else if moved == PieceType::King {
            let place = |sq| w(king_place_feature(us, sq));
            self.base[US] += place(to) - place(m.from());
            self.by_king[US] = Color::ALL.map(|owner| king_table_sum(weights, pos, us, owner));
            return self;
        } else {
            let before = if m.is_promotion() {
                moved.unpromote()
            } else {
                moved
            };
            self.add_piece::<US>(weights, kings, before, m.from(), -1);
        }
        self.add_piece::<US>(weights, kings, moved, to, 1);
        self
    }
}
