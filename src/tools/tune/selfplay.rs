//! Self-play data generation: games from the start position with a few
//! random opening moves (for diversity), then the engine's own search at a
//! low depth; quiet positions are kept and labelled with the game result
//! and the search's score.

use super::dataset::Sample;
use crate::eval::EVAL_LIMIT;
use crate::moves::Move;
use crate::position::{EnteringKingRule, Position, Repetition};
use crate::search::{
    BestMove, Limits, Score, SearchControl, SearchOptions, Searcher, SilentReporter,
};
use crate::types::Color;
use crate::util::rng::SplitMix64;
use rayon::prelude::*;
use std::time::Instant;

/// Settings of one data-generation run.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Number of games.
    pub games: usize,
    /// Index of the first game, so a long run can be split into chunks
    /// that together equal one run.
    pub first_game: usize,
    /// Seed; game `i` uses a generator derived from `seed` and `i`, so the
    /// output does not depend on the number of threads.
    pub seed: u64,
    /// Search depth per move.
    pub depth: u32,
    /// Optional node limit per move.
    pub nodes: Option<u64>,
    /// Random opening plies: uniform in `min..=max`.
    pub random_plies: (usize, usize),
    /// Games still going after this many plies are draws.
    pub max_plies: usize,
    /// A side whose search score stays at or above this (centipawns) for
    /// [`ADJUDICATE_PLIES`] plies is declared the winner, to save time.
    pub adjudicate_cp: i32,
}

/// Consecutive plies a score must stay decisive before adjudication.
pub const ADJUDICATE_PLIES: usize = 8;

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            games: 1000,
            first_game: 0,
            seed: 1,
            depth: 2,
            nodes: None,
            random_plies: (6, 16),
            max_plies: 320,
            adjudicate_cp: 3000,
        }
    }
}

/// Plays `config.games` games (in parallel on the current rayon pool) and
/// returns the kept positions, game by game.
pub fn generate(config: &SelfPlayConfig) -> Vec<Sample> {
    (config.first_game..config.first_game + config.games)
        .into_par_iter()
        .map(|game| play_game(config, game as u32))
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}

/// Whether a position is quiet enough to label: no check to answer, no
/// recapture pending (the last move was not a capture) and the search's
/// choice is not a capture either. The static evaluation is only ever
/// asked about positions where the captures were already tried, so a
/// position whose value hangs on a capture would teach it a tactic it is
/// never asked to see.
fn is_quiet(pos: &Position, best: Move) -> bool {
    !pos.in_check() && pos.captured_piece().is_none() && !pos.is_capture(best)
}

/// Plays game number `game` and returns its labelled quiet positions.
pub fn play_game(config: &SelfPlayConfig, game: u32) -> Vec<Sample> {
    let mut rng =
        SplitMix64::new(config.seed ^ (u64::from(game) + 1).wrapping_mul(0xA076_1D64_78BD_642F));
    let mut pos = Position::startpos();
    let (lo, hi) = config.random_plies;
    let opening = lo + rng.below(hi.saturating_sub(lo) + 1);
    for _ in 0..opening {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.do_move(moves[rng.below(moves.len())]);
    }

    let mut searcher = Searcher::new(1, 1);
    let options = SearchOptions {
        entering_king_rule: EnteringKingRule::Csa27,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(config.depth),
        nodes: config.nodes,
        ..Limits::default()
    };
    let mut kept: Vec<(Color, Option<i32>, String)> = Vec::new();
    let mut decisive_for: Option<(Color, usize)> = None;
    let winner: Option<Color> = loop {
        let us = pos.side_to_move();
        if !pos.has_legal_move() {
            break Some(us.flip());
        }
        match pos.repetition(usize::MAX, 3) {
            Repetition::Draw => break None,
            Repetition::Loss => break Some(us.flip()),
            Repetition::Win => break Some(us),
            _ => {}
        }
        if pos.moves_played() >= config.max_plies {
            break None;
        }
        let control = SearchControl::new(Instant::now(), None, false);
        let outcome = searcher.search(&pos, &limits, &options, &control, &SilentReporter);
        let best = match outcome.best {
            BestMove::Move { best, .. } => best,
            BestMove::Resign => break Some(us.flip()),
            BestMove::DeclareWin => break Some(us),
        };
        if is_quiet(&pos, best) {
            let score = match outcome.score {
                Some(Score::Cp(cp)) => Some(cp.clamp(-EVAL_LIMIT, EVAL_LIMIT)),
                Some(Score::Mate(n)) => Some(if n > 0 { EVAL_LIMIT } else { -EVAL_LIMIT }),
                None => None,
            };
            kept.push((us, score, pos.to_sfen()));
        }
        let leader = match outcome.score {
            Some(Score::Mate(n)) => Some(if n > 0 { us } else { us.flip() }),
            Some(Score::Cp(cp)) if cp.abs() >= config.adjudicate_cp => {
                Some(if cp > 0 { us } else { us.flip() })
            }
            _ => None,
        };
        decisive_for = match (leader, decisive_for) {
            (Some(c), Some((d, n))) if c == d => Some((c, n + 1)),
            (Some(c), _) => Some((c, 1)),
            (None, _) => None,
        };
        if let Some((c, n)) = decisive_for {
            if n >= ADJUDICATE_PLIES {
                break Some(c);
            }
        }
        pos.do_move(best);
    };
    kept.into_iter()
        .map(|(color, score, sfen)| Sample {
            game,
            result: match winner {
                None => 0.5,
                Some(w) if w == color => 1.0,
                Some(_) => 0.0,
            },
            score,
            sfen,
        })
        .collect()
}
