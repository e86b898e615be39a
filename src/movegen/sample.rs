//! Positions along seeded random games, for benchmarks and tests that want
//! opening-to-endgame shapes without shipping a data file.

use crate::position::Position;
use crate::util::rng::SplitMix64;

/// `count` positions along random games from the start position (seeded),
/// every seventh ply, each rebuilt from its SFEN (so no history).
pub fn sample_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::startpos();
        for ply in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[rng.below(moves.len())]);
            if ply % 7 == 6 && out.len() < count {
                out.push(Position::from_sfen(&pos.to_sfen()).expect("own sfen parses"));
            }
        }
    }
    out
}
