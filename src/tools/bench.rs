//! `gyoku bench`: fixed-depth searches over built-in positions. With one
//! thread the total node count is a deterministic signature of the search
//! (the table and histories are cleared before each position), quoted in
//! commit messages that change the search; the speed is a rough nps figure.

use crate::position::Position;
use crate::search::{BestMove, Limits, SearchControl, SearchOptions, Searcher, SilentReporter};
use std::io::Write;
use std::time::{Duration, Instant};

/// Depth used when none is given (a few seconds in release on one core).
pub const DEFAULT_DEPTH: u32 = 12;

/// Varied positions: openings for both sides, middlegames with pieces in
/// hand, attacks with mates in reach, an endgame, and handicap games with
/// White (the handicap giver) to move.
pub const BENCH_POSITIONS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lns2gsnl/1r2g1kb1/1ppp1ppp1/4p3p/p8/2P1P3P/PP1P1PPP1/1BS1GSKR1/LN1G3NL w - 16",
    "ln4snl/1rsggk1b1/pppp1p1pp/4p1p2/9/P4PPP1/1PPPPS2P/1B3K1R1/LNSG1G1NL w - 14",
    "lnsg1gsnl/1r4kb1/pppp1p1pp/4p1p2/9/4PP3/PPPP2PPP/1B2GR3/LNSGK1SNL b - 9",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "ln3+R1p1/5lg+P1/2pspk3/6pR1/p4p3/1pPPN1P2/PPN1PPN2/5GS2/+b4K2+l b GSbgsl3p 3",
    "l4p2+S/3k1g1+R1/1SnNpSp2/p1p6/3p4p/PPPg2P2/2B1gP2P/2KP5/LN2S2NL b RGL4Pb 1",
    "4k4/9/4p4/9/9/9/4P4/9/4K4 b RGrg 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
];

/// Totals of one bench run.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Nodes per position, in [`BENCH_POSITIONS`] order.
    pub nodes: Vec<u64>,
    /// Wall time of all searches.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes of all positions.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().sum()
    }
}

/// Searches every bench position to `depth` with `threads` and a
/// `hash_mb` table, evaluating with `network` (or the linear evaluation),
/// printing one line per position to `out` when given.
pub fn run(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    network: Option<std::sync::Arc<crate::nnue::Network>>,
    mut out: Option<&mut dyn Write>,
) -> std::io::Result<BenchResult> {
    let mut searcher = Searcher::new(hash_mb, threads);
    searcher.set_network(network);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut nodes = Vec::new();
    let mut elapsed = Duration::ZERO;
    for (i, sfen) in BENCH_POSITIONS.iter().enumerate() {
        let pos = Position::from_sfen(sfen).expect("bench positions are valid");
        searcher.new_game();
        let start = Instant::now();
        let control = SearchControl::new(start, None, false);
        let outcome = searcher.search(
            &pos,
            &limits,
            &SearchOptions::default(),
            &control,
            &SilentReporter,
        );
        let spent = start.elapsed();
        elapsed += spent;
        nodes.push(outcome.nodes);
        if let Some(out) = out.as_deref_mut() {
            writeln!(
                out,
                "position {:>2}: nodes {:>10} best {} score {:?} time {} ms",
                i + 1,
                outcome.nodes,
                match outcome.best {
                    BestMove::Move { best, .. } => best.to_string(),
                    BestMove::Resign => "resign".to_string(),
                    BestMove::DeclareWin => "win".to_string(),
                },
                outcome.score,
                spent.as_millis()
            )?;
        }
    }
    let result = BenchResult { nodes, elapsed };
    if let Some(out) = out {
        let secs = elapsed.as_secs_f64().max(1e-9);
        writeln!(out, "Total time (ms) : {}", elapsed.as_millis())?;
        writeln!(out, "Total nodes: {}", result.total_nodes())?;
        writeln!(
            out,
            "Nodes/second: {}",
            (result.total_nodes() as f64 / secs) as u64
        )?;
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_node_count_is_deterministic_with_one_thread() {
        let a = run(5, 1, 4, None, None).unwrap();
        let b = run(5, 1, 4, None, None).unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert!(a.total_nodes() > 0);
    }
}
