//! Static evaluation: how good a position is for the side to move, in
//! centipawn-like units (a pawn on the board is about 90).
//!
//! Contract for the search: [`evaluate`] is pure and symmetric (`evaluate`
//! of a colour-flipped position is the same number). The search evaluates
//! through an [`EvalStack`], which it keeps in step with the moves it plays
//! and which gives the same numbers faster; the board never calls in here.
//!
//! The evaluation is a weighted sum of features (see [`features`]): the
//! weights live in [`weights`], a file written by the Texel tuner in
//! `src/tools/tune` (`gyoku tune gen` makes self-play data, `gyoku tune
//! fit` fits the weights to game results).

pub mod features;
pub(crate) mod psq;
mod stack;
pub mod weights;

pub use features::{extract, FeatureSink, NUM_FEATURES};
pub use stack::EvalStack;

use crate::position::Position;
use crate::types::PieceType;

/// Evaluations are clamped to this magnitude, far below the search's mate
/// scores, so that no static score can be mistaken for a mate.
pub const EVAL_LIMIT: i32 = 20_000;

/// Material value of a piece of `kind` on the board (for move ordering and
/// exchange evaluation; fixed, not tuned, so search behaviour does not move
/// when the evaluation is retuned).
pub const fn piece_value(kind: PieceType) -> i32 {
    use PieceType::*;
    match kind {
        Pawn => 90,
        Lance => 315,
        Knight => 405,
        Silver => 495,
        Gold => 540,
        Bishop => 855,
        Rook => 990,
        King => 0,
        ProPawn | ProLance | ProKnight | ProSilver => 540,
        Horse => 945,
        Dragon => 1395,
    }
}

/// Material value of a piece of `kind` in hand (unpromoted kinds only).
pub const fn hand_value(kind: PieceType) -> i32 {
    piece_value(kind)
}

/// Sums weights of the features it receives.
struct WeightedSum<'a> {
    weights: &'a [i16; NUM_FEATURES],
    total: i32,
}

impl FeatureSink for WeightedSum<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.total += i32::from(self.weights[index]) * count;
    }
}

/// Evaluates `pos` from the side to move's point of view with the
/// production weights, from scratch; the same value as
/// `evaluate_with(pos, &WEIGHTS)` and as an [`EvalStack`] that followed
/// the moves to `pos`.
pub fn evaluate(pos: &Position) -> i32 {
    let piece_square = psq::PsqScore::compute(pos).relative(pos.side_to_move());
    evaluate_from(pos, piece_square, &weights::WEIGHTS)
}

/// Evaluates `pos` given its piece-square score under `weights` (side to
/// move's view), extracting only the dynamic features.
#[inline]
fn evaluate_from(pos: &Position, piece_square: i32, weights: &[i16; NUM_FEATURES]) -> i32 {
    let mut sum = WeightedSum {
        weights,
        total: piece_square,
    };
    features::extract_dynamic(pos, &mut sum);
    sum.total.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The dynamic part of the linear evaluation alone (attacks, king safety
/// and the control map around each king, hanging pieces, tempo), from the
/// side to move's view, unclamped: what a network with dynamic terms (see
/// [`crate::nnue`]) adds to its own value.
pub fn dynamic_terms(pos: &Position) -> i32 {
    let mut sum = WeightedSum {
        weights: &weights::WEIGHTS,
        total: 0,
    };
    features::extract_dynamic(pos, &mut sum);
    sum.total
}

/// A fingerprint of the weights [`dynamic_terms`] uses. A network trained
/// to add those terms records it, and is refused by a build whose weights
/// differ (its values would not mean what it learned).
pub fn dynamic_terms_fingerprint() -> u64 {
    let bytes: Vec<u8> = weights::WEIGHTS
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    crate::nnue::fnv1a64(&bytes)
}

/// `default.nn`: trained by `gyoku nnue train` on gensfen self-play.
static DEFAULT_NETWORK_BYTES: &[u8] = include_bytes!("default.nn");

static DEFAULT_NETWORK: once_cell::sync::Lazy<std::sync::Arc<crate::nnue::Network>> =
    once_cell::sync::Lazy::new(|| {
        // The file is part of the build; a test reads it and checks its
        // fingerprint, so this cannot fail in a tested build.
        let net = crate::nnue::Network::read(DEFAULT_NETWORK_BYTES)
            .expect("the built-in network is a valid file (tested)");
        std::sync::Arc::new(net)
    });

/// The network built into the binary, which the engine evaluates with by
/// default (`EvalFile` `<empty>`): a small network (HalfKP mirror, L1 32,
/// piece-square weights) completed by this evaluation's dynamic terms. The
/// README gives the commands that made it.
pub fn default_network() -> std::sync::Arc<crate::nnue::Network> {
    DEFAULT_NETWORK.clone()
}

/// What an evaluation setting names: the `EvalFile` option, `gyoku
/// bench --evalfile`, `analyse --evalfile` and `gensfen --eval` all read
/// it the same way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// The built-in network: empty, `<empty>`, `builtin` or `<builtin>`.
    BuiltIn,
    /// The linear evaluation alone: `linear` or `<linear>`.
    Linear,
    /// A network file (gyoku's format or a YaneuraOu `nn.bin`).
    File(String),
}

impl EvalChoice {
    /// Reads a setting; the keywords ignore case and surrounding spaces.
    pub fn parse(value: &str) -> EvalChoice {
        let word = value.trim();
        let bare = word
            .strip_prefix('<')
            .and_then(|w| w.strip_suffix('>'))
            .unwrap_or(word);
        if crate::nnue::load::is_empty_value(word) || bare.eq_ignore_ascii_case("builtin") {
            EvalChoice::BuiltIn
        } else if bare.eq_ignore_ascii_case("linear") {
            EvalChoice::Linear
        } else {
            EvalChoice::File(value.to_string())
        }
    }

    /// The network to evaluate with (`None`: the linear evaluation),
    /// loading a file with [`load_network`].
    pub fn network(
        &self,
    ) -> Result<Option<std::sync::Arc<crate::nnue::Network>>, crate::nnue::load::LoadError> {
        Ok(match self {
            EvalChoice::BuiltIn => Some(default_network()),
            EvalChoice::Linear => None,
            EvalChoice::File(file) => Some(std::sync::Arc::new(load_network(file)?)),
        })
    }
}

/// Loads the network an `EvalFile` value names (see
/// [`crate::nnue::load`]) and checks that this build can evaluate with it:
/// a network with dynamic terms must have been trained with this build's
/// linear weights.
pub fn load_network(value: &str) -> Result<crate::nnue::Network, crate::nnue::load::LoadError> {
    use crate::nnue::load::LoadError;
    let (net, path) = crate::nnue::load::load_with_path(value)?;
    let engine = dynamic_terms_fingerprint();
    match net.dynamic_terms() {
        Some(fingerprint) if fingerprint != engine => Err(LoadError::Format(
            path,
            crate::nnue::NetError::DynamicTermsMismatch {
                net: fingerprint,
                engine,
            },
        )),
        _ => Ok(net),
    }
}

/// Evaluates `pos` with `weights` (the tuner and tests compare weight sets).
pub fn evaluate_with(pos: &Position, weights: &[i16; NUM_FEATURES]) -> i32 {
    let mut sum = WeightedSum { weights, total: 0 };
    extract(pos, &mut sum);
    sum.total.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
pub(crate) mod tests;
