//! Texel tuning: fit the weights so that `sigmoid(K · eval)` predicts the
//! game result (optionally blended with a deeper search's score), by
//! minimising the mean squared error. `K` (the scale from
//! centipawns to win probability) is fitted first with the starting
//! weights, then Adam descends on all weights with shuffled mini-batches.

use super::dataset::Sample;
use crate::eval::features::{extract, FeatureSink, NUM_FEATURES};
use crate::position::{Position, SfenError};
use crate::util::rng::SplitMix64;
use rayon::prelude::*;

/// Positions reduced to their sparse feature counts.
pub struct FeatureSet {
    /// `(feature, count)` pairs of all positions, back to back.
    entries: Vec<(u16, i16)>,
    /// Position `p` owns `entries[offsets[p]..offsets[p + 1]]`.
    offsets: Vec<usize>,
    /// Game result per position, side to move's view (1, 0.5, 0).
    results: Vec<f64>,
    /// Self-play search score per position, if recorded.
    scores: Vec<Option<i32>>,
    /// What the evaluation is fitted to: the results, or a blend of
    /// results and scores (see [`FeatureSet::blend_scores`]).
    targets: Vec<f64>,
}

/// Collects features into a sparse list.
struct Recorder<'a>(&'a mut Vec<(u16, i16)>);

impl FeatureSink for Recorder<'_> {
    fn add(&mut self, index: usize, count: i32) {
        self.0.push((index as u16, count as i16));
    }
}

/// The sparse features of one position.
pub fn features_of(pos: &Position) -> Vec<(u16, i16)> {
    let mut list = Vec::with_capacity(128);
    extract(pos, &mut Recorder(&mut list));
    list
}

/// A sample whose SFEN does not parse, so its features cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSample(pub SfenError);

impl std::fmt::Display for BadSample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad sfen in data: {}", self.0)
    }
}

impl std::error::Error for BadSample {}

impl FeatureSet {
    /// Extracts the features of every sample; bad SFENs are an error.
    pub fn new(samples: &[Sample]) -> Result<FeatureSet, BadSample> {
        let per_position: Vec<Vec<(u16, i16)>> = samples
            .par_iter()
            .map(|s| Position::from_sfen(&s.sfen).map(|p| features_of(&p)))
            .collect::<Result<_, _>>()
            .map_err(BadSample)?;
        let results: Vec<f64> = samples.iter().map(|s| f64::from(s.result)).collect();
        let mut set = FeatureSet {
            entries: Vec::new(),
            offsets: vec![0],
            targets: results.clone(),
            results,
            scores: samples.iter().map(|s| s.score).collect(),
        };
        for list in per_position {
            set.entries.extend_from_slice(&list);
            set.offsets.push(set.entries.len());
        }
        Ok(set)
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    fn features(&self, p: usize) -> &[(u16, i16)] {
        &self.entries[self.offsets[p]..self.offsets[p + 1]]
    }

    /// The linear evaluation of position `p` under `weights` (unclamped).
    pub fn eval(&self, p: usize, weights: &[f64]) -> f64 {
        self.features(p)
            .iter()
            .map(|&(i, c)| weights[i as usize] * f64::from(c))
            .sum()
    }

    /// Fits to `lambda · result + (1 - lambda) · sigmoid(k · score)` where
    /// a score was recorded: the deeper search's opinion is a far less
    /// noisy label than the result of one low-level game, while the result
    /// keeps the scale honest. Positions without a score keep the result.
    pub fn blend_scores(&mut self, k: f64, lambda: f64) {
        for p in 0..self.len() {
            if let Some(score) = self.scores[p] {
                self.targets[p] =
                    lambda * self.results[p] + (1.0 - lambda) * sigmoid(k * f64::from(score));
            }
        }
    }

    /// Mean squared error of `sigmoid(k · eval)` against the targets.
    pub fn mse(&self, weights: &[f64], k: f64) -> f64 {
        self.mse_against(&self.targets, weights, k)
    }

    /// Mean squared error of `sigmoid(k · eval)` against the game results
    /// alone, whatever the targets are.
    pub fn result_mse(&self, weights: &[f64], k: f64) -> f64 {
        self.mse_against(&self.results, weights, k)
    }

    fn mse_against(&self, labels: &[f64], weights: &[f64], k: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let total: f64 = (0..self.len())
            .into_par_iter()
            .map(|p| {
                let e = sigmoid(k * self.eval(p, weights)) - labels[p];
                e * e
            })
            .sum();
        total / self.len() as f64
    }

    /// The `k` minimising [`FeatureSet::mse`] for `weights` (golden-section
    /// search; the error is unimodal in `k` in practice).
    pub fn fit_k(&self, weights: &[f64]) -> f64 {
        let (mut lo, mut hi) = (1e-5_f64, 0.02_f64);
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..60 {
            let a = hi - ratio * (hi - lo);
            let b = lo + ratio * (hi - lo);
            if self.mse(weights, a) < self.mse(weights, b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        (lo + hi) / 2.0
    }

    /// Loss over `batch` (mean squared error plus `l2 · Σ (w - prior)²`)
    /// and its gradient with respect to the weights, added into `grad`.
    pub fn loss_and_gradient(
        &self,
        batch: &[usize],
        weights: &[f64],
        prior: &[f64],
        k: f64,
        l2: f64,
        grad: &mut [f64],
    ) -> f64 {
        let n = batch.len().max(1) as f64;
        let mut loss = 0.0;
        for &p in batch {
            let s = sigmoid(k * self.eval(p, weights));
            let err = s - self.targets[p];
            loss += err * err / n;
            // d/dw (s - r)² = 2 (s - r) · s (1 - s) · k · count
            let scale = 2.0 * err * s * (1.0 - s) * k / n;
            for &(i, c) in self.features(p) {
                grad[i as usize] += scale * f64::from(c);
            }
        }
        for i in 0..weights.len() {
            let d = weights[i] - prior[i];
            loss += l2 * d * d;
            grad[i] += 2.0 * l2 * d;
        }
        loss
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Settings of one tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Passes over the training data.
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam step size, in centipawns.
    pub learning_rate: f64,
    /// Pull towards the starting weights (keeps rarely seen table cells sane).
    pub l2: f64,
    /// Seed of the batch shuffling.
    pub seed: u64,
    /// Features that keep their starting weight (`true` = frozen): large
    /// tables need far more data than small blocks.
    pub frozen: Vec<bool>,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            epochs: 60,
            batch: 4096,
            learning_rate: 2.0,
            l2: 1e-8,
            seed: 1,
            frozen: vec![false; NUM_FEATURES],
        }
    }
}

/// Tunes `initial` on `train` with Adam at scale `k` (fitted by the
/// caller with [`FeatureSet::fit_k`]); returns the weights. `progress` is
/// called after each epoch with (epoch, training loss).
pub fn tune(
    train: &FeatureSet,
    initial: &[f64],
    k: f64,
    config: &TuneConfig,
    mut progress: impl FnMut(usize, f64),
) -> Vec<f64> {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-12;
    assert_eq!(initial.len(), NUM_FEATURES);
    let mut weights = initial.to_vec();
    let mut m = vec![0.0; NUM_FEATURES];
    let mut v = vec![0.0; NUM_FEATURES];
    let mut grad = vec![0.0; NUM_FEATURES];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = SplitMix64::new(config.seed);
    let mut step = 0;
    for epoch in 0..config.epochs {
        rng.shuffle(&mut order);
        let mut epoch_loss = 0.0;
        let batches = order.chunks(config.batch.max(1));
        let count = batches.len().max(1) as f64;
        for batch in batches {
            grad.iter_mut().for_each(|g| *g = 0.0);
            epoch_loss +=
                train.loss_and_gradient(batch, &weights, initial, k, config.l2, &mut grad) / count;
            step += 1;
            let correction1 = 1.0 - BETA1.powi(step);
            let correction2 = 1.0 - BETA2.powi(step);
            for i in (0..NUM_FEATURES).filter(|&i| !config.frozen[i]) {
                m[i] = BETA1 * m[i] + (1.0 - BETA1) * grad[i];
                v[i] = BETA2 * v[i] + (1.0 - BETA2) * grad[i] * grad[i];
                let m_hat = m[i] / correction1;
                let v_hat = v[i] / correction2;
                weights[i] -= config.learning_rate * m_hat / (v_hat.sqrt() + EPSILON);
            }
        }
        progress(epoch, epoch_loss);
    }
    weights
}
