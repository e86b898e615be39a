//! Float model -> quantised network, with the factor table folded into the
//! transformer rows, and back (a run that starts from an existing net).
//! The scales are the model's (`ACTIVATION_SCALE` and the rest), which
//! mirror the inference code (see `crate::nnue`), so that the integer
//! net's value / 16 is the float output times `OUTPUT_SCALE`.

use super::model::{
    psqt_to_int, Model, ACTIVATION_SCALE, HIDDEN_BIAS_ROUNDING, HIDDEN_BIAS_SCALE,
    HIDDEN_WEIGHT_SCALE, L2, L3, OUTPUT_BIAS_SCALE, OUTPUT_WEIGHT_SCALE,
};
use crate::nnue::features::FeatureSet;
use crate::nnue::{NetError, Network, NetworkParts};

fn round_i16(x: f32) -> i16 {
    x.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

fn round_i8(x: f32) -> i8 {
    x.round().clamp(-127.0, 127.0) as i8
}

fn round_i32(x: f32) -> i32 {
    x.round() as i32
}

/// A hidden layer's bias, plus half a step: the integer layer shifts its
/// sum right (a floor), and the extra half step makes that a rounding, so
/// the activations are not biased low by half a step each.
fn hidden_bias(b: f32) -> i32 {
    round_i32(HIDDEN_BIAS_SCALE * b) + HIDDEN_BIAS_ROUNDING
}

/// The integer network `model` stands for.
pub fn quantise(model: &Model, set: FeatureSet) -> Result<Network, NetError> {
    let l1 = model.l1;
    let mut ft_weights = vec![0i16; model.inputs * l1];
    for f in 0..model.inputs {
        for j in 0..l1 {
            ft_weights[f * l1 + j] = round_i16(ACTIVATION_SCALE * model.folded_weight(f, j));
        }
    }
    let parts = NetworkParts {
        set,
        l1,
        ft_weights,
        ft_biases: model
            .ft_bias
            .iter()
            .map(|&b| round_i16(ACTIVATION_SCALE * b))
            .collect(),
        hidden1_weights: model
            .w2
            .iter()
            .map(|&w| round_i8(HIDDEN_WEIGHT_SCALE * w))
            .collect(),
        hidden1_biases: model.b2.iter().map(|&b| hidden_bias(b)).collect(),
        hidden2_weights: model
            .w3
            .iter()
            .map(|&w| round_i8(HIDDEN_WEIGHT_SCALE * w))
            .collect(),
        hidden2_biases: model.b3.iter().map(|&b| hidden_bias(b)).collect(),
        output_weights: model
            .wo
            .iter()
            .map(|&w| round_i8(OUTPUT_WEIGHT_SCALE * w))
            .collect(),
        output_bias: round_i32(OUTPUT_BIAS_SCALE * model.bo),
        psqt_weights: if model.has_psqt() {
            (0..model.inputs)
                .map(|f| psqt_to_int(model.folded_psqt(f)))
                .collect()
        } else {
            Vec::new()
        },
        dynamic_terms: model
            .dynamic_terms
            .then(crate::eval::dynamic_terms_fingerprint),
    };
    debug_assert_eq!(parts.hidden1_weights.len(), L2 * 2 * l1);
    debug_assert_eq!(parts.hidden2_weights.len(), L3 * L2);
    Network::from_parts(parts)
}

/// The float model that [`quantise`] turns back into `net` exactly: every
/// integer divided by its scale, the shared factor rows at zero (they are
/// already folded into the real rows), so training can start from a net
/// whose data is gone.
pub fn dequantise(net: &Network) -> Model {
    let parts = net.to_parts();
    let inputs = parts.set.inputs();
    let factor_rows = crate::nnue::features::BONA_PIECE_END;
    let from_hidden_bias = |b: &i32| (b - HIDDEN_BIAS_ROUNDING) as f32 / HIDDEN_BIAS_SCALE;
    let has_psqt = !parts.psqt_weights.is_empty();
    Model {
        inputs,
        factor_rows,
        l1: parts.l1,
        ft_weights: divided(&parts.ft_weights, ACTIVATION_SCALE),
        factor_weights: vec![0.0; factor_rows * parts.l1],
        ft_bias: divided(&parts.ft_biases, ACTIVATION_SCALE),
        w2: divided(&parts.hidden1_weights, HIDDEN_WEIGHT_SCALE),
        b2: parts.hidden1_biases.iter().map(from_hidden_bias).collect(),
        w3: divided(&parts.hidden2_weights, HIDDEN_WEIGHT_SCALE),
        b3: parts.hidden2_biases.iter().map(from_hidden_bias).collect(),
        wo: divided(&parts.output_weights, OUTPUT_WEIGHT_SCALE),
        bo: parts.output_bias as f32 / OUTPUT_BIAS_SCALE,
        psqt: parts
            .psqt_weights
            .iter()
            .map(|&w| w as f32 / OUTPUT_BIAS_SCALE)
            .collect(),
        psqt_factor: if has_psqt {
            vec![0.0; factor_rows]
        } else {
            Vec::new()
        },
        dynamic_terms: parts.dynamic_terms.is_some(),
    }
}

/// Each of `values` over `scale`.
fn divided<T: Copy + Into<f32>>(values: &[T], scale: f32) -> Vec<f32> {
    values.iter().map(|&v| v.into() / scale).collect()
}
