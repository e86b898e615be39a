//! `gyoku evalbench`: nanoseconds per evaluation, median of several timed
//! passes: from scratch over a fixed set of positions, and incrementally
//! (an [`EvalStack`] following random games, as the search uses it), for
//! the linear evaluation and, with `--evalfile`, a network (both kernels).

use crate::eval::{evaluate, EvalStack};
use crate::movegen::sample::sample_positions;
use crate::moves::Move;
use crate::nnue::{Kernel, Network};
use crate::position::Position;
use crate::util::rng::SplitMix64;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

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

/// Median nanoseconds per push-and-evaluate of an [`EvalStack`] that
/// follows `games` (each a start position and its moves) and takes them
/// back, over `passes` passes.
pub fn measure_incremental(
    games: &[Vec<Move>],
    network: Option<Arc<Network>>,
    passes: usize,
) -> f64 {
    let mut per_call: Vec<f64> = (0..passes.max(1))
        .map(|_| {
            let mut calls = 0u64;
            let mut sum = 0i64;
            let start = Instant::now();
            for game in games {
                let mut pos = Position::startpos();
                let mut stack = EvalStack::with_network(network.clone());
                stack.reset(&pos);
                for &m in game {
                    pos.do_move(m);
                    stack.push(&pos);
                    sum += i64::from(stack.evaluate(black_box(&pos)));
                    calls += 1;
                }
            }
            black_box(sum);
            start.elapsed().as_nanos() as f64 / calls.max(1) as f64
        })
        .collect();
    per_call.sort_by(f64::total_cmp);
    per_call[per_call.len() / 2]
}

/// Seeded random games (their moves), up to 160 plies each.
fn random_games(count: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..160 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                pos.do_move(m);
                moves.push(m);
            }
            moves
        })
        .collect()
}

/// Runs the benchmark (`gyoku evalbench [positions] [passes] [--evalfile
/// NET]`); returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let mut numbers = Vec::new();
    let mut network = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--evalfile" {
            match iter.next().map(|f| crate::eval::load_network(f)) {
                Some(Ok(net)) => network = Some(Arc::new(net)),
                Some(Err(e)) => {
                    eprintln!("EvalFile {e}");
                    return 2;
                }
                None => {
                    eprintln!("--evalfile needs a file");
                    return 2;
                }
            }
        } else {
            numbers.push(arg.parse::<usize>().ok());
        }
    }
    let count = numbers.first().copied().flatten().unwrap_or(10_000);
    let passes = numbers.get(1).copied().flatten().unwrap_or(21);
    let positions = sample_positions(count, 1);
    let ns = measure(&positions, passes);
    println!(
        "linear evaluate from scratch: {ns:.0} ns/call (median of {passes} passes over {} positions)",
        positions.len()
    );
    let games = random_games(count / 100 + 1, 2);
    let plies: usize = games.iter().map(Vec::len).sum();
    let ns = measure_incremental(&games, None, passes);
    println!("linear incremental (EvalStack): {ns:.0} ns/move+eval ({plies} plies)");
    if let Some(net) = network {
        let mut kernels = vec![Kernel::SCALAR];
        kernels.extend(Kernel::avx2());
        for kernel in kernels {
            let mut per_call: Vec<f64> = (0..passes.max(1))
                .map(|_| {
                    let start = Instant::now();
                    let mut sum = 0i64;
                    for pos in &positions {
                        sum += i64::from(net.evaluate_from_scratch(black_box(pos), kernel));
                    }
                    black_box(sum);
                    start.elapsed().as_nanos() as f64 / positions.len().max(1) as f64
                })
                .collect();
            per_call.sort_by(f64::total_cmp);
            println!(
                "NNUE ({}, L1 {}) from scratch, {} kernel: {:.0} ns/call",
                net.feature_set().name(),
                net.l1(),
                kernel.name(),
                per_call[per_call.len() / 2]
            );
        }
        let ns = measure_incremental(&games, Some(net), passes);
        println!("NNUE incremental (EvalStack, best kernel): {ns:.0} ns/move+eval ({plies} plies)");
    }
    0
}
