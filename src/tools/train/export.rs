//! Float model -> quantised network, with the factor table folded into the
//! transformer rows, and back (a run that starts from an existing net).
//! The scales mirror the inference code (see `crate::nnue`): transformer x127, hidden weights x64 with biases
//! x(64 * 127), output weights x(16 * OUTPUT_SCALE / 127) with the bias
//! x(16 * OUTPUT_SCALE), so that the integer net's value / 16 is the float
//! output times [`OUTPUT_SCALE`].

use super::model::{psqt_to_int, Model, L2, L3, OUTPUT_SCALE};
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
/// sum right (a floor), and the extra 32 makes that a rounding, so the
/// activations are not biased low by half a step each.
fn hidden_bias(b: f32) -> i32 {
    round_i32(64.0 * 127.0 * b) + 32
}

/// The integer network `model` stands for.
pub fn quantise(model: &Model, set: FeatureSet) -> Result<Network, NetError> {
    let l1 = model.l1;
    let mut ft_weights = vec![0i16; model.inputs * l1];
    for f in 0..model.inputs {
        for j in 0..l1 {
            ft_weights[f * l1 + j] = round_i16(127.0 * model.folded_weight(f, j));
        }
    }
    let output_weight_scale = 16.0 * OUTPUT_SCALE / 127.0;
    let parts = NetworkParts {
        set,
        l1,
        ft_weights,
        ft_biases: model
            .ft_bias
            .iter()
            .map(|&b| round_i16(127.0 * b))
            .collect(),
        hidden1_weights: model.w2.iter().map(|&w| round_i8(64.0 * w)).collect(),
        hidden1_biases: model.b2.iter().map(|&b| hidden_bias(b)).collect(),
        hidden2_weights: model.w3.iter().map(|&w| round_i8(64.0 * w)).collect(),
        hidden2_biases: model.b3.iter().map(|&b| hidden_bias(b)).collect(),
        output_weights: model
            .wo
            .iter()
            .map(|&w| round_i8(output_weight_scale * w))
            .collect(),
        output_bias: round_i32(16.0 * OUTPUT_SCALE * model.bo),
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
    let output_weight_scale = 16.0 * OUTPUT_SCALE / 127.0;
    let from_hidden_bias = |b: &i32| (b - 32) as f32 / (64.0 * 127.0);
    let has_psqt = !parts.psqt_weights.is_empty();
    Model {
        inputs,
        factor_rows,
        l1: parts.l1,
        ft_weights: divided(&parts.ft_weights, 127.0),
        factor_weights: vec![0.0; factor_rows * parts.l1],
        ft_bias: divided(&parts.ft_biases, 127.0),
        w2: divided(&parts.hidden1_weights, 64.0),
        b2: parts.hidden1_biases.iter().map(from_hidden_bias).collect(),
        w3: divided(&parts.hidden2_weights, 64.0),
        b3: parts.hidden2_biases.iter().map(from_hidden_bias).collect(),
        wo: divided(&parts.output_weights, output_weight_scale),
        bo: parts.output_bias as f32 / (16.0 * OUTPUT_SCALE),
        psqt: parts
            .psqt_weights
            .iter()
            .map(|&w| w as f32 / (16.0 * OUTPUT_SCALE))
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
