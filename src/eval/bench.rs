//! `gyoku evalbench`: nanoseconds per [`super::evaluate`] call, median of
//! several timed passes over a fixed set of positions.

use super::evaluate;
use crate::eval::tune::rng::SplitMix64;
use crate::position::Position;
use std::hint::black_box;
use std::time::Instant;

/// Positions for the benchmark: random games from the start position
/// (seeded), sampled every few plies, so opening to endgame shapes appear.
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

/// Median nanoseconds per call over `passes` passes of `positions`.
pub fn measure(positions: &[Position], passes: usize) -> f64 {
    let mut per_call: Vec<f64> = (0..passes.max(1))
        .map(|_| {
            let start = Instant::now();
            let mut sum = 0i64;
            for pos in positions {
                sum += i64::from(evaluate(black_box(pos)));
            }
            black_box(sum);
            start.elapsed().as_nanos() as f64 / positions.len().max(1) as f64
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[per_call.len() / 2]
}

/// Runs the benchmark (`gyoku evalbench [positions] [passes]`); returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let count = args.first().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let passes = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(21);
    let positions = sample_positions(count, 1);
    let ns = measure(&positions, passes);
    println!(
        "evaluate: {ns:.0} ns/call (median of {passes} passes over {} positions)",
        positions.len()
    );
    0
}
