//! The tuner against the evaluation it tunes: the features it sees add up
//! to [`evaluate`], its gradient is the loss's derivative, and the weights
//! file it writes has the evaluation's layout.

use super::dataset::Sample;
use super::texel::{features_of, FeatureSet};
use crate::eval::features::{self, initial_weights, NUM_FEATURES};
use crate::eval::tests::{all_test_positions, POSITIONS};
use crate::eval::{evaluate, weights, EVAL_LIMIT};
use crate::position::Position;

#[test]
fn evaluate_is_the_weighted_sum_of_features() {
    for pos in all_test_positions() {
        let sum: i32 = features_of(&pos)
            .iter()
            .map(|&(i, c)| i32::from(weights::WEIGHTS[i as usize]) * i32::from(c))
            .sum();
        assert_eq!(evaluate(&pos), sum.clamp(-EVAL_LIMIT, EVAL_LIMIT));
        assert!(features_of(&pos)
            .iter()
            .all(|&(i, _)| (i as usize) < NUM_FEATURES));
    }
}

#[test]
fn tuner_gradient_matches_numerical_derivative() {
    let samples: Vec<Sample> = POSITIONS
        .iter()
        .enumerate()
        .map(|(i, s)| Sample {
            game: i as u32,
            result: [0.0, 0.5, 1.0][i % 3],
            score: None,
            sfen: s.to_string(),
        })
        .collect();
    let set = FeatureSet::new(&samples).unwrap();
    let prior: Vec<f64> = initial_weights().iter().map(|&w| f64::from(w)).collect();
    // Move away from the prior so the L2 term has a gradient too.
    let weights: Vec<f64> = prior
        .iter()
        .enumerate()
        .map(|(i, w)| w + ((i * 37) % 11) as f64 - 5.0)
        .collect();
    let batch: Vec<usize> = (0..set.len()).collect();
    let (k, l2) = (0.002, 1e-6);
    let mut grad = vec![0.0; NUM_FEATURES];
    set.loss_and_gradient(&batch, &weights, &prior, k, l2, &mut grad);
    let touched: Vec<usize> = (0..NUM_FEATURES)
        .filter(|&i| grad[i].abs() > 1e-9)
        .collect();
    assert!(touched.len() > 50);
    for &i in touched.iter().step_by(7) {
        let h = 1e-3;
        let loss_at = |delta: f64| {
            let mut w = weights.clone();
            w[i] += delta;
            let mut scratch = vec![0.0; NUM_FEATURES];
            set.loss_and_gradient(&batch, &w, &prior, k, l2, &mut scratch)
        };
        let numerical = (loss_at(h) - loss_at(-h)) / (2.0 * h);
        let tolerance = 1e-6 * grad[i].abs().max(1e-6) + 1e-9;
        assert!(
            (numerical - grad[i]).abs() <= tolerance.max(1e-3 * grad[i].abs()),
            "feature {i} ({}): analytic {} numerical {numerical}",
            features::feature_name(i),
            grad[i]
        );
    }
}

#[test]
fn hand_pieces_have_diminishing_buckets() {
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 10P 1").unwrap();
    let pawn_buckets: i32 = features_of(&pos)
        .iter()
        .filter(|&&(i, _)| {
            (features::layout::HAND..features::layout::HAND + 8).contains(&(i as usize))
        })
        .map(|&(_, c)| i32::from(c))
        .sum();
    assert_eq!(pawn_buckets, 10, "each of the ten pawns counts once");
}

#[test]
fn weights_source_round_trips_the_layout() {
    let text = super::source::weights_source(&initial_weights(), "test");
    let numbers = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//") && l.trim_end().ends_with(','))
        .flat_map(|l| {
            l.split(',')
                .filter(|t| !t.trim().is_empty())
                .map(|t| t.trim().to_string())
        })
        .filter_map(|t| t.parse::<i32>().ok())
        .count();
    assert_eq!(numbers, NUM_FEATURES);
}
