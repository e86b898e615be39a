//! The float network the trainer fits: the same shape as the quantised
//! inference net (`2 x L1 -> 32 -> 32 -> 1`, ClippedReLU between layers),
//! plus a factorised "piece without king" table that every king bucket
//! shares while training and that is folded into the real weights at
//! export, so rare king squares still learn from every position.
//!
//! Units follow the quantisation: a transformer output of 1.0 is the
//! integer 127, hidden activations likewise, and the network's output times
//! [`OUTPUT_SCALE`] is the evaluation in centipawn-like units.

use crate::util::rng::SplitMix64;

/// Hidden layer widths after the feature transformer.
pub const L2: usize = 32;
/// Second hidden layer width.
pub const L3: usize = 32;
/// Evaluation units per unit of the float output.
pub const OUTPUT_SCALE: f32 = 600.0;

// The integer grids of the quantised net (see `crate::nnue`), shared by the
// export, its inverse and the quantisation-aware forward pass.
/// Transformer weights and biases, and the activation of 1.0 (the
/// ClippedReLU ceiling).
pub const ACTIVATION_SCALE: f32 = crate::nnue::net::ACTIVATION_MAX as f32;
/// Hidden-layer weights: the layer shifts its sum right by
/// `WEIGHT_SCALE_BITS`.
pub const HIDDEN_WEIGHT_SCALE: f32 = (1 << crate::nnue::net::WEIGHT_SCALE_BITS) as f32;
/// Hidden-layer biases: they add to weight x activation products.
pub const HIDDEN_BIAS_SCALE: f32 = HIDDEN_WEIGHT_SCALE * ACTIVATION_SCALE;
/// Added to each hidden bias so that the layer's floor shift rounds.
pub const HIDDEN_BIAS_ROUNDING: i32 = 1 << (crate::nnue::net::WEIGHT_SCALE_BITS - 1);
/// The output bias and piece-square weights: `FV_SCALE` per evaluation unit.
pub const OUTPUT_BIAS_SCALE: f32 = crate::nnue::net::FV_SCALE as f32 * OUTPUT_SCALE;
/// Output weights: they multiply activations on the x127 grid.
pub const OUTPUT_WEIGHT_SCALE: f32 = OUTPUT_BIAS_SCALE / ACTIVATION_SCALE;
/// Largest hidden-layer weight an i8 can hold.
pub const HIDDEN_WEIGHT_LIMIT: f32 = 127.0 / HIDDEN_WEIGHT_SCALE;
/// Largest output weight an i8 can hold.
pub const OUTPUT_WEIGHT_LIMIT: f32 = 127.0 / OUTPUT_WEIGHT_SCALE;

/// Starting values of the shared piece-square rows: each BonaPiece's
/// material value (the engine's fixed piece values, in evaluation units),
/// positive for the perspective's own pieces and negative for the
/// opponent's, so a new model starts out counting material.
pub fn material_factor_init() -> Vec<f32> {
    (0..crate::nnue::features::BONA_PIECE_END as u16)
        .map(|b| match crate::nnue::features::bona_piece_kind(b) {
            Some((kind, own)) => {
                let value = crate::eval::piece_value(kind) as f32;
                if own {
                    value
                } else {
                    -value
                }
            }
            None => 0.0,
        })
        .collect()
}

/// Index of the per-input piece-square weights in [`Model::dense_mut`].
pub const PER_INPUT_PSQT_BLOCK: usize = 7;

/// A piece-square weight (output units) as the integer net stores it: in
/// output-sum units, 16 per evaluation unit.
pub fn psqt_to_int(w: f32) -> i32 {
    (OUTPUT_BIAS_SCALE * w).round() as i32
}

/// Features of one position for the trainer: the active inputs of the side
/// to move's half and of the other half, and the factor rows they share.
pub struct SampleFeatures<'a> {
    /// Active inputs seen from the side to move.
    pub us: &'a [u32],
    /// Active inputs seen from the other side.
    pub them: &'a [u32],
}

/// Trainable parameters, all `f32`, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Inputs per perspective.
    pub inputs: usize,
    /// Rows of the factor table (`inputs % factor_rows` is a feature's row).
    pub factor_rows: usize,
    /// Transformer width per perspective.
    pub l1: usize,
    /// `inputs x l1` transformer weights.
    pub ft_weights: Vec<f32>,
    /// `factor_rows x l1` shared weights, folded into `ft_weights` at export.
    pub factor_weights: Vec<f32>,
    /// `l1` transformer biases.
    pub ft_bias: Vec<f32>,
    /// `L2 x 2*l1`.
    pub w2: Vec<f32>,
    /// `L2`.
    pub b2: Vec<f32>,
    /// `L3 x L2`.
    pub w3: Vec<f32>,
    /// `L3`.
    pub b3: Vec<f32>,
    /// `L3`.
    pub wo: Vec<f32>,
    /// Output bias.
    pub bo: f32,
    /// Piece-square weights added straight to the output, one per input
    /// (in output units: evaluation / [`OUTPUT_SCALE`]); empty when the
    /// model has no such path.
    pub psqt: Vec<f32>,
    /// Shared piece-square weights, one per factor row, folded into
    /// `psqt` at export; empty with `psqt`.
    pub psqt_factor: Vec<f32>,
    /// The model's value is completed by the linear evaluation's dynamic
    /// terms (`crate::eval::dynamic_terms`), which the trainer adds to its
    /// output for each position; the network learns the rest.
    pub dynamic_terms: bool,
}

/// What the forward pass keeps for the backward pass.
pub struct Activations {
    acc: [Vec<f32>; 2],
    z2: [f32; L2],
    z3: [f32; L3],
    /// The float output (evaluation / [`OUTPUT_SCALE`]).
    pub out: f32,
}

/// Gradients of the dense part, and of the transformer rows a batch touched.
#[derive(Clone, Debug)]
pub struct Gradients {
    /// `inputs x l1`, non-zero only in touched rows.
    pub ft_weights: Vec<f32>,
    /// `factor_rows x l1`.
    pub factor_weights: Vec<f32>,
    /// Rows of `ft_weights` with a gradient (may repeat).
    pub touched: Vec<u32>,
    /// The remaining parameters, in the order of [`Model::dense_mut`].
    pub dense: Vec<f32>,
}

impl Model {
    /// A model with small random weights from `seed`.
    pub fn new(inputs: usize, factor_rows: usize, l1: usize, seed: u64) -> Model {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |n: usize, scale: f32| -> Vec<f32> {
            (0..n)
                .map(|_| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale)
                .collect()
        };
        Model {
            inputs,
            factor_rows,
            l1,
            ft_weights: vec![0.0; inputs * l1],
            factor_weights: uniform(factor_rows * l1, 0.05),
            ft_bias: vec![0.5; l1],
            w2: uniform(L2 * 2 * l1, (1.0 / (2 * l1) as f32).sqrt()),
            b2: vec![0.2; L2],
            w3: uniform(L3 * L2, (1.0 / L2 as f32).sqrt()),
            b3: vec![0.2; L3],
            wo: uniform(L3, (1.0 / L3 as f32).sqrt()),
            bo: 0.0,
            psqt: Vec::new(),
            psqt_factor: Vec::new(),
            dynamic_terms: false,
        }
    }

    /// Adds the piece-square path, its shared rows starting at
    /// `factor_init` (one value per factor row, in evaluation units: the
    /// pieces' material values, say) and the per-input rows at zero.
    pub fn with_psqt(mut self, factor_init: &[f32]) -> Model {
        assert_eq!(
            factor_init.len(),
            self.factor_rows,
            "one value per factor row"
        );
        self.psqt = vec![0.0; self.inputs];
        self.psqt_factor = factor_init.iter().map(|v| v / OUTPUT_SCALE).collect();
        self
    }

    /// Whether the model has the piece-square path.
    pub fn has_psqt(&self) -> bool {
        !self.psqt.is_empty()
    }

    /// The piece-square weight of input `f` with its shared row folded in
    /// (output units).
    pub fn folded_psqt(&self, f: usize) -> f32 {
        self.psqt[f] + self.psqt_factor[f % self.factor_rows]
    }

    /// Sum of the piece-square weights of `features` (0 without the path).
    fn psqt_sum(&self, features: &[u32]) -> f32 {
        if !self.has_psqt() {
            return 0.0;
        }
        features.iter().map(|&f| self.folded_psqt(f as usize)).sum()
    }

    /// A zeroed gradient buffer for this model.
    pub fn zero_gradients(&self) -> Gradients {
        Gradients {
            ft_weights: vec![0.0; self.ft_weights.len()],
            factor_weights: vec![0.0; self.factor_weights.len()],
            touched: Vec::new(),
            dense: vec![0.0; self.dense_len()],
        }
    }

    fn dense_len(&self) -> usize {
        self.ft_bias.len()
            + self.w2.len()
            + self.b2.len()
            + self.w3.len()
            + self.b3.len()
            + self.wo.len()
            + 1
            + self.psqt.len()
            + self.psqt_factor.len()
    }

    /// The dense parameters as one list of slices, in a fixed order. (The
    /// piece-square rows are few enough to update densely; the per-input
    /// ones are block [`PER_INPUT_PSQT_BLOCK`].)
    pub fn dense_mut(&mut self) -> [&mut [f32]; 9] {
        [
            &mut self.ft_bias,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
            &mut self.wo,
            std::slice::from_mut(&mut self.bo),
            &mut self.psqt,
            &mut self.psqt_factor,
        ]
    }

    /// The transformer sum of one perspective (before clipping).
    fn accumulate(&self, features: &[u32]) -> Vec<f32> {
        let l1 = self.l1;
        let mut acc = self.ft_bias.clone();
        for &f in features {
            let f = f as usize;
            let row = &self.ft_weights[f * l1..(f + 1) * l1];
            let factor = f % self.factor_rows;
            let shared = &self.factor_weights[factor * l1..(factor + 1) * l1];
            for ((a, w), s) in acc.iter_mut().zip(row).zip(shared) {
                *a += w + s;
            }
        }
        acc
    }

    /// Runs the network on one position.
    pub fn forward(&self, x: &SampleFeatures) -> Activations {
        let acc = [self.accumulate(x.us), self.accumulate(x.them)];
        let l1 = self.l1;
        let input: Vec<f32> = acc
            .iter()
            .flat_map(|a| a.iter().map(|v| v.clamp(0.0, 1.0)))
            .collect();
        let mut z2 = [0.0; L2];
        for (i, z) in z2.iter_mut().enumerate() {
            let row = &self.w2[i * 2 * l1..(i + 1) * 2 * l1];
            *z = self.b2[i] + row.iter().zip(&input).map(|(w, v)| w * v).sum::<f32>();
        }
        let mut z3 = [0.0; L3];
        for (i, z) in z3.iter_mut().enumerate() {
            let row = &self.w3[i * L2..(i + 1) * L2];
            *z = self.b3[i]
                + row
                    .iter()
                    .zip(&z2)
                    .map(|(w, v)| w * v.clamp(0.0, 1.0))
                    .sum::<f32>();
        }
        let out = self.bo
            + self
                .wo
                .iter()
                .zip(&z3)
                .map(|(w, v)| w * v.clamp(0.0, 1.0))
                .sum::<f32>()
            + 0.5 * (self.psqt_sum(x.us) - self.psqt_sum(x.them));
        Activations { acc, z2, z3, out }
    }

    /// Adds to `grad` the gradient of the loss given `d_out`, the loss's
    /// derivative by the float output, for the position `x` whose forward
    /// pass gave `act`.
    pub fn backward(
        &self,
        x: &SampleFeatures,
        act: &Activations,
        d_out: f32,
        grad: &mut Gradients,
    ) {
        let l1 = self.l1;
        let clip = |v: f32| v.clamp(0.0, 1.0);
        let passes = |v: f32| v > 0.0 && v < 1.0;
        // Offsets of each block inside `grad.dense`.
        let o_ftb = 0;
        let o_w2 = o_ftb + l1;
        let o_b2 = o_w2 + L2 * 2 * l1;
        let o_w3 = o_b2 + L2;
        let o_b3 = o_w3 + L3 * L2;
        let o_wo = o_b3 + L3;
        let o_bo = o_wo + L3;
        let o_psqt = o_bo + 1;
        let o_psqt_factor = o_psqt + self.psqt.len();
        let dense = &mut grad.dense;
        dense[o_bo] += d_out;
        if self.has_psqt() {
            for (features, sign) in [(x.us, 0.5), (x.them, -0.5)] {
                for &f in features {
                    let f = f as usize;
                    dense[o_psqt + f] += sign * d_out;
                    dense[o_psqt_factor + f % self.factor_rows] += sign * d_out;
                }
            }
        }
        let mut d_z3 = [0.0; L3];
        for i in 0..L3 {
            dense[o_wo + i] += d_out * clip(act.z3[i]);
            if passes(act.z3[i]) {
                d_z3[i] = d_out * self.wo[i];
            }
        }
        let mut d_z2 = [0.0; L2];
        for (i, &d) in d_z3.iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            dense[o_b3 + i] += d;
            for j in 0..L2 {
                dense[o_w3 + i * L2 + j] += d * clip(act.z2[j]);
                d_z2[j] += d * self.w3[i * L2 + j];
            }
        }
        let mut d_input = vec![0.0f32; 2 * l1];
        for (i, &d) in d_z2.iter().enumerate() {
            if d == 0.0 || !passes(act.z2[i]) {
                continue;
            }
            dense[o_b2 + i] += d;
            let row = &self.w2[i * 2 * l1..(i + 1) * 2 * l1];
            let g_row = &mut dense[o_w2 + i * 2 * l1..o_w2 + (i + 1) * 2 * l1];
            for k in 0..2 * l1 {
                let side = k / l1;
                g_row[k] += d * clip(act.acc[side][k % l1]);
                d_input[k] += d * row[k];
            }
        }
        for (side, features) in [x.us, x.them].into_iter().enumerate() {
            let d_acc: Vec<f32> = (0..l1)
                .map(|j| {
                    if passes(act.acc[side][j]) {
                        d_input[side * l1 + j]
                    } else {
                        0.0
                    }
                })
                .collect();
            for (g, d) in dense[o_ftb..o_ftb + l1].iter_mut().zip(&d_acc) {
                *g += d;
            }
            for &f in features {
                let f = f as usize;
                let factor = f % self.factor_rows;
                let row = &mut grad.ft_weights[f * l1..(f + 1) * l1];
                for (g, d) in row.iter_mut().zip(&d_acc) {
                    *g += d;
                }
                let row = &mut grad.factor_weights[factor * l1..(factor + 1) * l1];
                for (g, d) in row.iter_mut().zip(&d_acc) {
                    *g += d;
                }
                grad.touched.push(f as u32);
            }
        }
    }

    /// The value the exported integer network gives for `x` (evaluation
    /// units), computed here with the same rounding: weights on their
    /// integer grids, activations as integers, shifts as floors, the final
    /// division truncating. Used to check the export, and as the output of
    /// quantisation-aware epochs.
    pub fn forward_quantised(&self, x: &SampleFeatures) -> f64 {
        let l1 = self.l1;
        let q = |v: f32, scale: f32, lo: f32, hi: f32| f64::from((v * scale).round().clamp(lo, hi));
        let i16_range = (f32::from(i16::MIN), f32::from(i16::MAX));
        let mut input = Vec::with_capacity(2 * l1);
        for features in [x.us, x.them] {
            for j in 0..l1 {
                let mut acc = q(self.ft_bias[j], ACTIVATION_SCALE, i16_range.0, i16_range.1);
                for &f in features {
                    acc += q(
                        self.folded_weight(f as usize, j),
                        ACTIVATION_SCALE,
                        i16_range.0,
                        i16_range.1,
                    );
                }
                input.push(acc.clamp(0.0, 127.0));
            }
        }
        let hidden = |weights: &[f32], biases: &[f32], input: &[f64]| -> Vec<f64> {
            let n = input.len();
            biases
                .iter()
                .enumerate()
                .map(|(i, &b)| {
                    let bias = f64::from((HIDDEN_BIAS_SCALE * b).round())
                        + f64::from(HIDDEN_BIAS_ROUNDING);
                    let sum: f64 = weights[i * n..(i + 1) * n]
                        .iter()
                        .zip(input)
                        .map(|(&w, &a)| q(w, HIDDEN_WEIGHT_SCALE, -127.0, 127.0) * a)
                        .sum();
                    ((bias + sum) / f64::from(HIDDEN_WEIGHT_SCALE))
                        .floor()
                        .clamp(0.0, 127.0)
                })
                .collect()
        };
        let h2 = hidden(&self.w2, &self.b2, &input);
        let h3 = hidden(&self.w3, &self.b3, &h2);
        let sum: f64 = self
            .wo
            .iter()
            .zip(&h3)
            .map(|(&w, &h)| q(w, OUTPUT_WEIGHT_SCALE, -127.0, 127.0) * h)
            .sum();
        let mut out = sum + f64::from((OUTPUT_BIAS_SCALE * self.bo).round());
        if self.has_psqt() {
            // The integer net sums i32 weights and halves with truncation.
            let psqt = |features: &[u32]| -> f64 {
                features
                    .iter()
                    .map(|&f| f64::from(psqt_to_int(self.folded_psqt(f as usize))))
                    .sum()
            };
            out += ((psqt(x.us) - psqt(x.them)) / 2.0).trunc();
        }
        (out / 16.0).trunc()
    }

    /// Keeps the weights inside what the integer net can hold.
    pub fn clamp_to_quantisable(&mut self) {
        for w in self.w2.iter_mut().chain(self.w3.iter_mut()) {
            *w = w.clamp(-HIDDEN_WEIGHT_LIMIT, HIDDEN_WEIGHT_LIMIT);
        }
        for w in &mut self.wo {
            *w = w.clamp(-OUTPUT_WEIGHT_LIMIT, OUTPUT_WEIGHT_LIMIT);
        }
    }

    /// The transformer weight of input `f`, column `j`, with the factor row
    /// folded in (what the quantised net stores).
    pub fn folded_weight(&self, f: usize, j: usize) -> f32 {
        let factor = f % self.factor_rows;
        self.ft_weights[f * self.l1 + j] + self.factor_weights[factor * self.l1 + j]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loss(model: &Model, x: &SampleFeatures, target: f32) -> f32 {
        let out = model.forward(x).out;
        (out - target) * (out - target)
    }

    /// The analytic gradient matches finite differences for every kind of
    /// parameter (checked on parameters whose units are not at a kink).
    #[test]
    fn gradients_match_finite_differences() {
        gradients_match_finite_differences_for(Model::new(40, 10, 32, 3));
        let factor_init: Vec<f32> = (0..10).map(|i| (i as f32 - 4.5) * 20.0).collect();
        let mut model = Model::new(40, 10, 32, 3).with_psqt(&factor_init);
        for (i, w) in model.psqt.iter_mut().enumerate() {
            *w = (i as f32 - 20.0) / 400.0;
        }
        gradients_match_finite_differences_for(model);
    }

    fn gradients_match_finite_differences_for(mut model: Model) {
        // Random non-zero transformer rows, so every path carries signal.
        let mut rng = SplitMix64::new(9);
        for w in &mut model.ft_weights {
            *w = (rng.below(2001) as f32 - 1000.0) / 20_000.0;
        }
        let us = [1u32, 7, 12, 33];
        let them = [2u32, 7, 20, 39];
        let x = SampleFeatures {
            us: &us,
            them: &them,
        };
        let target = 0.3;
        let act = model.forward(&x);
        let d_out = 2.0 * (act.out - target);
        let mut grad = model.zero_gradients();
        model.backward(&x, &act, d_out, &mut grad);
        let eps = 1e-3;
        let mut checked = 0;
        let check = |analytic: f32, numeric: f32, what: &str| {
            let scale = analytic.abs().max(numeric.abs()).max(1e-3);
            assert!(
                (analytic - numeric).abs() / scale < 0.05,
                "{what}: analytic {analytic} numeric {numeric}"
            );
        };
        for &(f, j) in &[(7usize, 3usize), (12, 0), (20, 31), (39, 5)] {
            let mut plus = model.clone();
            plus.ft_weights[f * 32 + j] += eps;
            let mut minus = model.clone();
            minus.ft_weights[f * 32 + j] -= eps;
            let numeric = (loss(&plus, &x, target) - loss(&minus, &x, target)) / (2.0 * eps);
            check(grad.ft_weights[f * 32 + j], numeric, "ft");
            checked += 1;
        }
        for factor in [7usize, 2] {
            let mut plus = model.clone();
            plus.factor_weights[factor * 32 + 4] += eps;
            let mut minus = model.clone();
            minus.factor_weights[factor * 32 + 4] -= eps;
            let numeric = (loss(&plus, &x, target) - loss(&minus, &x, target)) / (2.0 * eps);
            check(grad.factor_weights[factor * 32 + 4], numeric, "factor");
            checked += 1;
        }
        let dense_len = grad.dense.len();
        // Every 97th, and the last 12 (the piece-square rows when present).
        for k in (0..dense_len).step_by(97).chain(dense_len - 12..dense_len) {
            let mut plus = model.clone();
            let mut minus = model.clone();
            set_dense(&mut plus, k, eps);
            set_dense(&mut minus, k, -eps);
            let numeric = (loss(&plus, &x, target) - loss(&minus, &x, target)) / (2.0 * eps);
            check(grad.dense[k], numeric, &format!("dense {k}"));
            checked += 1;
        }
        assert!(checked > 20);
    }

    #[test]
    fn the_per_input_psqt_block_is_the_psqt_weights() {
        let mut model = Model::new(40, 10, 32, 3).with_psqt(&[1.0; 10]);
        model.psqt[5] = 0.25;
        let blocks = model.dense_mut();
        assert_eq!(blocks[PER_INPUT_PSQT_BLOCK].len(), 40);
        assert_eq!(blocks[PER_INPUT_PSQT_BLOCK][5], 0.25);
    }

    fn set_dense(model: &mut Model, mut k: usize, delta: f32) {
        for block in model.dense_mut() {
            if k < block.len() {
                block[k] += delta;
                return;
            }
            k -= block.len();
        }
        panic!("index beyond the dense parameters");
    }
}
