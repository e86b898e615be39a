//! The training loop: shuffled mini-batches, the loss, gradients summed
//! over rayon threads, Adam, validation after every epoch and checkpoints.

use super::adam::{Adam, AdamConfig};
use super::data::Samples;
use super::model::{Gradients, Model, SampleFeatures, OUTPUT_SCALE};
use crate::util::rng::SplitMix64;
use rayon::prelude::*;
use std::time::Instant;

/// Settings of one training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Adam's settings (learning rate and decays).
    pub adam: AdamConfig,
    /// Learning rate multiplier applied after every epoch.
    pub lr_decay: f32,
    /// Weight of the search score in the target; the rest is the result.
    pub lambda: f32,
    /// Evaluation units per logistic unit of win probability.
    pub sigmoid_scale: f32,
    /// Seed of the shuffles.
    pub seed: u64,
    /// The last this many epochs compute the loss on the value the integer
    /// net will give (gradients pass straight through the rounding), so
    /// the exported net, not only the float one, is what gets fitted.
    pub quantised_epochs: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 10,
            batch: 16384,
            adam: AdamConfig::default(),
            lr_decay: 0.9,
            lambda: 0.7,
            sigmoid_scale: 600.0,
            seed: 1,
            quantised_epochs: 1,
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of position `i`: a blend of the score's win probability and
/// the game result.
fn target(samples: &Samples, i: usize, config: &TrainConfig) -> f32 {
    let from_score = sigmoid(samples.score[i] / config.sigmoid_scale);
    config.lambda * from_score + (1.0 - config.lambda) * samples.result[i]
}

/// What the engine adds to the model's value for position `i`: the
/// dynamic terms for a model trained with them (evaluation units).
fn added_terms(model: &Model, samples: &Samples, i: usize) -> f32 {
    if model.dynamic_terms {
        samples.dynamic[i]
    } else {
        0.0
    }
}

/// Mean squared error in win probability over `samples`, of the value the
/// exported integer net will give.
pub fn validation_loss(model: &Model, samples: &Samples, config: &TrainConfig) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = (0..samples.len())
        .into_par_iter()
        .map(|i| {
            let (us, them) = samples.features(i);
            let value = model.forward_quantised(&SampleFeatures { us, them }) as f32
                + added_terms(model, samples, i);
            let p = sigmoid(value / config.sigmoid_scale);
            let d = p - target(samples, i, config);
            f64::from(d * d)
        })
        .sum();
    total / samples.len() as f64
}

/// The same loss for the linear evaluation's values: the baseline a net
/// has to beat on these positions.
pub fn linear_loss(samples: &Samples, config: &TrainConfig) -> f64 {
    let total: f64 = (0..samples.len())
        .map(|i| {
            let p = sigmoid(samples.linear[i] / config.sigmoid_scale);
            let d = p - target(samples, i, config);
            f64::from(d * d)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Sums the gradient of one slice of a batch into `grad` and returns its
/// summed loss. `scale` divides the gradient (1 / batch size).
fn batch_gradient(
    model: &Model,
    samples: &Samples,
    indices: &[u32],
    config: &TrainConfig,
    scale: f32,
    quantised: bool,
    grad: &mut Gradients,
) -> f64 {
    let mut loss = 0.0;
    for &i in indices {
        let i = i as usize;
        let (us, them) = samples.features(i);
        let x = SampleFeatures { us, them };
        let act = model.forward(&x);
        let k = OUTPUT_SCALE / config.sigmoid_scale;
        let out = if quantised {
            model.forward_quantised(&x) as f32 / OUTPUT_SCALE
        } else {
            act.out
        } + added_terms(model, samples, i) / OUTPUT_SCALE;
        let p = sigmoid(out * k);
        let d = p - target(samples, i, config);
        loss += f64::from(d * d);
        let d_out = 2.0 * d * p * (1.0 - p) * k * scale;
        model.backward(&x, &act, d_out, grad);
    }
    loss
}

/// Adds every other buffer's gradient into the first and clears them
/// (`l1`: the transformer width, the length of one weight row).
fn merge(grads: &mut [Gradients], l1: usize) {
    let (first, rest) = grads.split_first_mut().expect("one buffer per thread");
    for other in rest {
        for &f in &other.touched {
            let range = f as usize * l1..(f as usize + 1) * l1;
            for k in range {
                first.ft_weights[k] += other.ft_weights[k];
                other.ft_weights[k] = 0.0;
            }
        }
        first.touched.append(&mut other.touched);
        for (a, b) in first
            .factor_weights
            .iter_mut()
            .zip(&mut other.factor_weights)
        {
            *a += *b;
            *b = 0.0;
        }
        for (a, b) in first.dense.iter_mut().zip(&mut other.dense) {
            *a += *b;
            *b = 0.0;
        }
    }
}

/// Progress of a run, reported after every epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// Epochs done in all (a resumed run continues the count).
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Loss on the held-out positions after the epoch.
    pub validation_loss: f64,
    /// Positions per second over the epoch.
    pub positions_per_second: f64,
}

/// Trains `model` on `train` for `config.epochs` epochs after `done`
/// earlier ones, calling `after_epoch` after each (to print and save).
pub fn train(
    model: &mut Model,
    adam: &mut Adam,
    train: &Samples,
    valid: &Samples,
    config: &TrainConfig,
    done: usize,
    mut after_epoch: impl FnMut(&Model, &Adam, &EpochReport),
) {
    let threads = rayon::current_num_threads().max(1);
    let mut grads: Vec<Gradients> = (0..threads).map(|_| model.zero_gradients()).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for epoch in done..done + config.epochs {
        let start = Instant::now();
        let mut rng = SplitMix64::new(config.seed ^ (epoch as u64 + 1).wrapping_mul(0x9E37_79B9));
        rng.shuffle(&mut order);
        let mut total = 0.0;
        let quantised = epoch + config.quantised_epochs >= done + config.epochs;
        for batch in order.chunks(config.batch) {
            let scale = 1.0 / batch.len() as f32;
            let per_thread = batch.len().div_ceil(threads);
            let model_ref = &*model;
            total += batch
                .par_chunks(per_thread)
                .zip(grads.par_iter_mut())
                .map(|(part, grad)| {
                    batch_gradient(model_ref, train, part, config, scale, quantised, grad)
                })
                .sum::<f64>();
            merge(&mut grads, model.l1);
            adam.step(model, &mut grads[0]);
        }
        adam.config.learning_rate *= config.lr_decay;
        let seconds = start.elapsed().as_secs_f64();
        let report = EpochReport {
            epoch: epoch + 1,
            train_loss: total / train.len().max(1) as f64,
            validation_loss: validation_loss(model, valid, config),
            positions_per_second: train.len() as f64 / seconds.max(1e-9),
        };
        after_epoch(model, adam, &report);
    }
}
