//! Internal score scale and its conversions: centipawns from the
//! evaluation, mate scores near ±MATE, and how mate scores are made
//! independent of the ply when stored in the hash table.

use super::report::Score;

/// Plies the search may reach from the root.
pub const MAX_PLY: usize = 128;
/// Score of mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Above every real score.
pub const INFINITE: i32 = MATE + 1;
/// Scores at or beyond this are mates (or rule wins/losses) within MAX_PLY.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Score for the side to move mating in `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Score for the side to move being mated at `ply`.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Converts a score at `ply` into the form stored in the table: mates
/// counted from the stored node rather than from the root.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`to_tt`] for a node at `ply`.
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The score as reported to the USI layer.
pub fn to_report(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate(MATE - score)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score))
    } else {
        Score::Cp(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0, 3, 17] {
            for s in [mate_in(ply + 5), mated_in(ply + 4), 123, -45] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        assert_eq!(to_tt(mate_in(7), 4), mate_in(3));
    }

    #[test]
    fn reported_mates_count_plies_with_the_right_sign() {
        assert_eq!(to_report(mate_in(1)), Score::Mate(1));
        assert_eq!(to_report(mated_in(2)), Score::Mate(-2));
        assert_eq!(to_report(-250), Score::Cp(-250));
    }
}
