//! Adam with sparse updates for the transformer: a batch touches only the
//! rows of the inputs active in its positions, so only those rows (and
//! their moments) are updated; the dense layers are updated every step.

use super::model::{Gradients, Model, PER_INPUT_PSQT_BLOCK};

/// Adam's settings.
#[derive(Copy, Clone, Debug)]
pub struct AdamConfig {
    /// Step size.
    pub learning_rate: f32,
    /// First-moment decay.
    pub beta1: f32,
    /// Second-moment decay.
    pub beta2: f32,
    /// Added to the root of the second moment.
    pub epsilon: f32,
    /// Step size multiplier for the king-bucket rows of the transformer
    /// (the shared factor rows take the full step): below 1, the net leans
    /// on what all king squares share when data is scarce.
    pub bucket_lr_scale: f32,
    /// Decoupled weight decay (AdamW) of the king-bucket rows and the
    /// per-input piece-square weights, per unit of learning rate: it pulls
    /// what one king square adds back towards zero, so rare king-piece
    /// pairs fall back to the shared factor instead of fitting single
    /// games. Applied to a row when a batch touches it (lazily, as the
    /// sparse moments are).
    pub bucket_decay: f32,
}

impl Default for AdamConfig {
    fn default() -> Self {
        AdamConfig {
            learning_rate: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            bucket_lr_scale: 1.0,
            bucket_decay: 0.0,
        }
    }
}

/// Moments of every parameter, laid out like the model's.
#[derive(Clone, Debug)]
pub struct Adam {
    /// Settings.
    pub config: AdamConfig,
    /// Steps taken (for bias correction).
    pub steps: u64,
    m_ft: Vec<f32>,
    v_ft: Vec<f32>,
    m_factor: Vec<f32>,
    v_factor: Vec<f32>,
    m_dense: Vec<f32>,
    v_dense: Vec<f32>,
    /// Scratch: marks rows already updated this step.
    seen: Vec<bool>,
}

impl Adam {
    /// Zero moments for `model`.
    pub fn new(model: &Model, config: AdamConfig) -> Adam {
        let dense = model.zero_gradients().dense.len();
        Adam {
            config,
            steps: 0,
            m_ft: vec![0.0; model.ft_weights.len()],
            v_ft: vec![0.0; model.ft_weights.len()],
            m_factor: vec![0.0; model.factor_weights.len()],
            v_factor: vec![0.0; model.factor_weights.len()],
            m_dense: vec![0.0; dense],
            v_dense: vec![0.0; dense],
            seen: vec![false; model.inputs],
        }
    }

    /// The moment arrays, in a fixed order (for checkpoints).
    pub fn moments(&self) -> [&[f32]; 6] {
        [
            &self.m_ft,
            &self.v_ft,
            &self.m_factor,
            &self.v_factor,
            &self.m_dense,
            &self.v_dense,
        ]
    }

    /// The moment arrays, mutable, in the order of [`Adam::moments`].
    pub fn moments_mut(&mut self) -> [&mut [f32]; 6] {
        [
            &mut self.m_ft,
            &mut self.v_ft,
            &mut self.m_factor,
            &mut self.v_factor,
            &mut self.m_dense,
            &mut self.v_dense,
        ]
    }

    /// Applies `grad` (already averaged over the batch) to `model` and
    /// clears the touched rows of `grad`'s transformer buffer.
    pub fn step(&mut self, model: &mut Model, grad: &mut Gradients) {
        self.steps += 1;
        let c = self.config;
        let t = self.steps as i32;
        let lr = c.learning_rate * (1.0 - c.beta2.powi(t)).sqrt() / (1.0 - c.beta1.powi(t));
        let step = |lr: f32, w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            *m = c.beta1 * *m + (1.0 - c.beta1) * g;
            *v = c.beta2 * *v + (1.0 - c.beta2) * g * g;
            *w -= lr * *m / (v.sqrt() + c.epsilon);
        };
        // Decay uses the undecorated rate so that it does not depend on
        // the bucket rate or on Adam's bias correction.
        let keep = 1.0 - c.learning_rate * c.bucket_decay;
        let bucket_lr = lr * c.bucket_lr_scale;
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| step(lr, w, g, m, v);
        let l1 = model.l1;
        for &f in &grad.touched {
            let f = f as usize;
            if std::mem::replace(&mut self.seen[f], true) {
                continue;
            }
            let range = f * l1..(f + 1) * l1;
            for k in range {
                model.ft_weights[k] *= keep;
                step(
                    bucket_lr,
                    &mut model.ft_weights[k],
                    grad.ft_weights[k],
                    &mut self.m_ft[k],
                    &mut self.v_ft[k],
                );
                grad.ft_weights[k] = 0.0;
            }
        }
        for &f in &grad.touched {
            self.seen[f as usize] = false;
        }
        grad.touched.clear();
        // The factor table is small and touched by nearly every batch.
        for (k, g) in grad.factor_weights.iter_mut().enumerate() {
            update(
                &mut model.factor_weights[k],
                *g,
                &mut self.m_factor[k],
                &mut self.v_factor[k],
            );
            *g = 0.0;
        }
        let mut k = 0;
        for (b, block) in model.dense_mut().into_iter().enumerate() {
            // Per-input piece-square weights belong to one king bucket
            // each, like the transformer rows, and learn at their rate.
            let (lr, keep) = if b == PER_INPUT_PSQT_BLOCK {
                (bucket_lr, keep)
            } else {
                (lr, 1.0)
            };
            for w in block.iter_mut() {
                *w *= keep;
                step(
                    lr,
                    w,
                    grad.dense[k],
                    &mut self.m_dense[k],
                    &mut self.v_dense[k],
                );
                grad.dense[k] = 0.0;
                k += 1;
            }
        }
        model.clamp_to_quantisable();
    }
}
