//! The network's weights and its forward pass: the feature transformer
//! (sparse inputs -> L1 per perspective, i16), then two 32-wide hidden
//! layers and one output, i8 weights and i32 biases, ClippedReLU between.

use super::features::{active_features, FeatureList, FeatureSet};
use super::format::NetError;
use super::simd::Kernel;
use crate::position::Position;
use crate::types::Color;

/// Widest feature transformer supported (per perspective).
pub const MAX_L1: usize = 512;
/// The feature transformer's width must be a multiple of this.
pub const L1_STEP: usize = 32;
/// Width of both hidden layers.
pub const HIDDEN: usize = 32;
/// The output sum is divided by this to give centipawn-like units.
pub const FV_SCALE: i32 = 16;
/// Hidden layers' sums are shifted right by this before clamping (their
/// weights are trained as floats times 64).
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// Largest activation after a ClippedReLU.
pub(crate) const ACTIVATION_MAX: i32 = 127;

/// A dense layer with i8 weights (`outputs` rows of `inputs`) and i32
/// biases.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Affine {
    pub(super) inputs: usize,
    pub(super) outputs: usize,
    pub(super) biases: Vec<i32>,
    pub(super) weights: Vec<i8>,
}

impl Affine {
    pub(super) fn zeroed(inputs: usize, outputs: usize) -> Affine {
        Affine {
            inputs,
            outputs,
            biases: vec![0; outputs],
            weights: vec![0; inputs * outputs],
        }
    }

    /// The raw sum for output `o`: bias plus weights times `input`.
    #[inline]
    fn sum(&self, kernel: Kernel, input: &[u8], o: usize) -> i32 {
        let row = &self.weights[o * self.inputs..(o + 1) * self.inputs];
        self.biases[o].wrapping_add(kernel.dot(input, row))
    }

    /// Every output through ClippedReLU: `clamp(sum >> 6, 0, 127)`.
    #[inline]
    fn forward_clipped(&self, kernel: Kernel, input: &[u8], out: &mut [u8]) {
        let mut sums = [0i32; HIDDEN];
        let sums = &mut sums[..self.outputs];
        kernel.affine(input, &self.weights, &self.biases, sums);
        for (value, &sum) in out.iter_mut().zip(sums.iter()) {
            *value = (sum >> WEIGHT_SCALE_BITS).clamp(0, ACTIVATION_MAX) as u8;
        }
    }
}

/// An NNUE network: HalfKP-style features -> L1 x 2 -> 32 -> 32 -> 1.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub(super) set: FeatureSet,
    pub(super) l1: usize,
    /// `set.inputs()` rows of `l1` weights, one row per feature.
    pub(super) ft_weights: Vec<i16>,
    pub(super) ft_biases: Vec<i16>,
    /// 2 * L1 -> 32.
    pub(super) hidden1: Affine,
    /// 32 -> 32.
    pub(super) hidden2: Affine,
    /// 32 -> 1.
    pub(super) output: Affine,
    /// One weight per feature added straight to the output sum (in
    /// output-sum units, FV_SCALE per centipawn), empty when the net has
    /// none: the part of the value that is a plain sum over pieces
    /// (material, placement) bypasses the clipped layers.
    pub(super) psqt: Vec<i32>,
    /// Whether the value includes the linear evaluation's dynamic terms,
    /// with the fingerprint of the weights it was trained with (the
    /// evaluation adds them; this module only carries the flag).
    pub(super) dynamic_terms: Option<u64>,
}

/// The shape only: the weights run to millions of values.
impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("set", &self.set)
            .field("l1", &self.l1)
            .field("hidden", &HIDDEN)
            .field("psqt", &self.has_psqt())
            .field("dynamic_terms", &self.dynamic_terms.is_some())
            .finish_non_exhaustive()
    }
}

/// A network's quantised parameters, as a trainer produces them; weight
/// matrices are row-major, one row of inputs per output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkParts {
    /// The feature set.
    pub set: FeatureSet,
    /// Transformer width per perspective.
    pub l1: usize,
    /// `set.inputs() x l1`.
    pub ft_weights: Vec<i16>,
    /// `l1`.
    pub ft_biases: Vec<i16>,
    /// `32 x 2*l1`.
    pub hidden1_weights: Vec<i8>,
    /// `32`.
    pub hidden1_biases: Vec<i32>,
    /// `32 x 32`.
    pub hidden2_weights: Vec<i8>,
    /// `32`.
    pub hidden2_biases: Vec<i32>,
    /// `32`.
    pub output_weights: Vec<i8>,
    /// The output bias.
    pub output_bias: i32,
    /// `set.inputs()` weights added to the output sum, or empty for a net
    /// without that path.
    pub psqt_weights: Vec<i32>,
    /// Set for a network whose value the linear evaluation's dynamic terms
    /// complete: the fingerprint of the weights it was trained with.
    pub dynamic_terms: Option<u64>,
}

/// Whether `l1` is a feature-transformer width this code supports.
pub fn is_valid_l1(l1: usize) -> bool {
    (L1_STEP..=MAX_L1).contains(&l1) && l1.is_multiple_of(L1_STEP)
}

impl Network {
    /// A network of the given shape with every weight and bias zero; `None`
    /// if `l1` is not a multiple of 32 in 32..=512.
    pub(super) fn zeroed(set: FeatureSet, l1: usize) -> Option<Network> {
        is_valid_l1(l1).then(|| Network {
            set,
            l1,
            ft_weights: vec![0; set.inputs() * l1],
            ft_biases: vec![0; l1],
            hidden1: Affine::zeroed(2 * l1, HIDDEN),
            hidden2: Affine::zeroed(HIDDEN, HIDDEN),
            output: Affine::zeroed(HIDDEN, 1),
            psqt: Vec::new(),
            dynamic_terms: None,
        })
    }

    /// A network from trained parameters; every size must match the shape.
    pub fn from_parts(parts: NetworkParts) -> Result<Network, NetError> {
        let mut net = Network::zeroed(parts.set, parts.l1)
            .ok_or(NetError::UnsupportedWidth(parts.l1 as u32))?;
        let check = |what: &'static str, expected: usize, found: usize| {
            if expected == found {
                Ok(())
            } else {
                Err(NetError::SizeMismatch {
                    what,
                    expected: expected as u64,
                    found: found as u64,
                })
            }
        };
        check(
            "transformer weights",
            net.ft_weights.len(),
            parts.ft_weights.len(),
        )?;
        check(
            "transformer biases",
            net.ft_biases.len(),
            parts.ft_biases.len(),
        )?;
        check(
            "layer 2 weights",
            net.hidden1.weights.len(),
            parts.hidden1_weights.len(),
        )?;
        check(
            "layer 2 biases",
            net.hidden1.biases.len(),
            parts.hidden1_biases.len(),
        )?;
        check(
            "layer 3 weights",
            net.hidden2.weights.len(),
            parts.hidden2_weights.len(),
        )?;
        check(
            "layer 3 biases",
            net.hidden2.biases.len(),
            parts.hidden2_biases.len(),
        )?;
        check(
            "output weights",
            net.output.weights.len(),
            parts.output_weights.len(),
        )?;
        if !parts.psqt_weights.is_empty() {
            check(
                "piece-square weights",
                parts.set.inputs(),
                parts.psqt_weights.len(),
            )?;
        }
        net.ft_weights = parts.ft_weights;
        net.ft_biases = parts.ft_biases;
        net.hidden1.weights = parts.hidden1_weights;
        net.hidden1.biases = parts.hidden1_biases;
        net.hidden2.weights = parts.hidden2_weights;
        net.hidden2.biases = parts.hidden2_biases;
        net.output.weights = parts.output_weights;
        net.output.biases = vec![parts.output_bias];
        net.psqt = parts.psqt_weights;
        net.dynamic_terms = parts.dynamic_terms;
        Ok(net)
    }

    /// The quantised parameters back out, the inverse of
    /// [`Network::from_parts`] (a trainer starting from this net reads them).
    pub fn to_parts(&self) -> NetworkParts {
        NetworkParts {
            set: self.set,
            l1: self.l1,
            ft_weights: self.ft_weights.clone(),
            ft_biases: self.ft_biases.clone(),
            hidden1_weights: self.hidden1.weights.clone(),
            hidden1_biases: self.hidden1.biases.clone(),
            hidden2_weights: self.hidden2.weights.clone(),
            hidden2_biases: self.hidden2.biases.clone(),
            output_weights: self.output.weights.clone(),
            output_bias: self.output.biases[0],
            psqt_weights: self.psqt.clone(),
            dynamic_terms: self.dynamic_terms,
        }
    }

    /// A deterministic network with small random weights, scaled so that
    /// activations mostly stay inside the ClippedReLU range (for tests).
    ///
    /// # Panics
    /// If `l1` is not a multiple of 32 in 32..=512.
    pub fn random(seed: u64, set: FeatureSet, l1: usize) -> Network {
        let mut net = Network::zeroed(set, l1)
            .unwrap_or_else(|| panic!("L1 {l1} is not a multiple of 32 in 32..=512"));
        let mut rng = crate::util::rng::SplitMix64::new(seed);
        // About 38 features per side: +-24 keeps sums near the 0..127 range.
        net.ft_weights.fill_with(|| rng.below(49) as i16 - 24);
        net.ft_biases.fill_with(|| rng.below(97) as i16 - 32);
        for layer in [&mut net.hidden1, &mut net.hidden2] {
            // Weights shrink with fan-in so sums >> 6 land in 0..127.
            let range = (160.0 / (layer.inputs as f64).sqrt()).max(1.0) as usize;
            layer
                .weights
                .fill_with(|| (rng.below(2 * range + 1) as i64 - range as i64) as i8);
            layer.biases.fill_with(|| rng.below(3072) as i32 - 1024);
        }
        net.output.weights.fill_with(|| rng.below(65) as i8 - 32);
        net.output
            .biases
            .fill_with(|| rng.below(2048) as i32 - 1024);
        net
    }

    /// The same network with random piece-square weights added (for tests).
    pub fn with_random_psqt(mut self, seed: u64) -> Network {
        let mut rng = crate::util::rng::SplitMix64::new(seed);
        self.psqt = (0..self.set.inputs())
            .map(|_| rng.below(4001) as i32 - 2000)
            .collect();
        self
    }

    /// For a network whose value the linear evaluation's dynamic terms
    /// complete (`crate::eval::dynamic_terms`), the fingerprint of the
    /// weights it was trained with; `None` for a self-contained one.
    #[inline]
    pub fn dynamic_terms(&self) -> Option<u64> {
        self.dynamic_terms
    }

    /// The same network marked as completed by dynamic terms with weights
    /// `fingerprint` (for tests).
    pub fn with_dynamic_terms(mut self, fingerprint: u64) -> Network {
        self.dynamic_terms = Some(fingerprint);
        self
    }

    /// Whether the network has the piece-square path to the output.
    #[inline]
    pub fn has_psqt(&self) -> bool {
        !self.psqt.is_empty()
    }

    /// The piece-square weight of one feature (0 without that path).
    #[inline]
    pub fn psqt_weight(&self, feature: u32) -> i32 {
        self.psqt.get(feature as usize).copied().unwrap_or(0)
    }

    /// The feature set the network reads.
    pub fn feature_set(&self) -> FeatureSet {
        self.set
    }

    /// The feature transformer's width per perspective.
    pub fn l1(&self) -> usize {
        self.l1
    }

    /// The feature transformer's biases (`l1` values).
    #[inline]
    pub fn feature_biases(&self) -> &[i16] {
        &self.ft_biases
    }

    /// The feature transformer's weights for one feature (`l1` values).
    ///
    /// # Panics
    /// If `feature` is not below `feature_set().inputs()`.
    #[inline]
    pub fn feature_weights(&self, feature: u32) -> &[i16] {
        let start = feature as usize * self.l1;
        &self.ft_weights[start..start + self.l1]
    }

    /// Fills `acc[..l1]` with `perspective`'s accumulator for `pos`, from
    /// scratch: biases plus the rows of every active feature. Returns the
    /// sum of the active features' piece-square weights.
    pub fn refresh(
        &self,
        pos: &Position,
        perspective: Color,
        kernel: Kernel,
        acc: &mut [i16],
    ) -> i32 {
        let acc = &mut acc[..self.l1];
        acc.copy_from_slice(&self.ft_biases);
        let mut features = FeatureList::new();
        active_features(pos, perspective, self.set, &mut features);
        let mut psqt = 0;
        for &feature in &features {
            kernel.add_row(acc, self.feature_weights(feature));
            psqt += self.psqt_weight(feature);
        }
        psqt
    }

    /// The value from two accumulators: the side to move's (`us`) and the
    /// other side's (`them`), each `l1` long, and the difference of their
    /// piece-square sums (`psqt`, ours minus theirs). Centipawn-like units
    /// from the side to move's view.
    pub fn propagate(&self, kernel: Kernel, us: &[i16], them: &[i16], psqt: i32) -> i32 {
        let l1 = self.l1;
        let mut transformed = [0u8; 2 * MAX_L1];
        kernel.clipped_relu(&us[..l1], &mut transformed[..l1]);
        kernel.clipped_relu(&them[..l1], &mut transformed[l1..2 * l1]);
        let mut first = [0u8; HIDDEN];
        self.hidden1
            .forward_clipped(kernel, &transformed[..2 * l1], &mut first);
        let mut second = [0u8; HIDDEN];
        self.hidden2.forward_clipped(kernel, &first, &mut second);
        (self.output.sum(kernel, &second, 0) + psqt / 2) / FV_SCALE
    }

    /// Evaluates `pos` from scratch, from the side to move's view (for
    /// one-off calls and for checking incremental updates).
    pub fn evaluate_from_scratch(&self, pos: &Position, kernel: Kernel) -> i32 {
        let mut us = [0i16; MAX_L1];
        let mut them = [0i16; MAX_L1];
        let side = pos.side_to_move();
        let psqt_us = self.refresh(pos, side, kernel, &mut us);
        let psqt_them = self.refresh(pos, side.flip(), kernel, &mut them);
        self.propagate(kernel, &us, &them, psqt_us - psqt_them)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        assert!(is_valid_l1(32) && is_valid_l1(256) && is_valid_l1(512));
        assert!(!is_valid_l1(0) && !is_valid_l1(48) && !is_valid_l1(544));
        assert!(Network::zeroed(FeatureSet::HalfKpMirror, 100).is_none());
    }

    #[test]
    fn parts_round_trip() {
        let net = Network::random(5, FeatureSet::HalfKpMirror, 32)
            .with_random_psqt(6)
            .with_dynamic_terms(77);
        let back = Network::from_parts(net.to_parts()).unwrap();
        assert!(back == net);
    }

    #[test]
    fn random_is_deterministic_and_seeded() {
        let a = Network::random(7, FeatureSet::HalfKpMirror, 32);
        let b = Network::random(7, FeatureSet::HalfKpMirror, 32);
        let c = Network::random(8, FeatureSet::HalfKpMirror, 32);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.ft_weights.len(), 69_660 * 32);
        assert_eq!(a.hidden1.weights.len(), 64 * 32);
    }

    /// A hand-sized network checks the quantisation arithmetic and that
    /// the side to move's half comes first.
    #[test]
    fn forward_pass_follows_the_quantisation() {
        let mut net = Network::zeroed(FeatureSet::HalfKpMirror, 32).unwrap();
        // us: 200 clamps to 127; them: -5 clamps to 0.
        let us = [200i16; 32];
        let them = [-5i16; 32];
        // hidden1[0] = us[0] * 2 + them[0] * 100 + 66 = 320, >> 6 = 5
        // (with the halves swapped it would be 12,766 >> 6 -> 127).
        net.hidden1.weights[0] = 2;
        net.hidden1.weights[32] = 100;
        net.hidden1.biases[0] = 66;
        // hidden1[1] = 127 * 128 >> 6 = 254, clamped to 127.
        net.hidden1.biases[1] = 127 * 128;
        // hidden2[0] = hidden1[0] * 64 >> 6 = 5; hidden2[1] = 127.
        net.hidden2.weights[0] = 64;
        net.hidden2.weights[HIDDEN + 1] = 64;
        // hidden2[2]: a negative sum clamps to 0.
        net.hidden2.biases[2] = -1000;
        // output = 5 * 10 + 127 * 1 + 0 * 100 + 50 = 227, / 16 = 14.
        net.output.weights[..3].copy_from_slice(&[10, 1, 100]);
        net.output.biases[0] = 50;
        for kernel in [Some(Kernel::SCALAR), Kernel::avx2()].into_iter().flatten() {
            assert_eq!(
                net.propagate(kernel, &us, &them, 0),
                14,
                "{}",
                kernel.name()
            );
        }
        // Negative outputs truncate toward zero like C++ division: -20 / 16.
        net.output.biases[0] = -20 - 177;
        assert_eq!(net.propagate(Kernel::SCALAR, &us, &them, 0), -1);
    }

    /// Random nets give varied values, so equality tests elsewhere compare
    /// something (not a constant or all-clamped output).
    #[test]
    fn random_net_values_vary() {
        let net = Network::random(3, FeatureSet::HalfKp, 64);
        let mut pos = Position::startpos();
        let mut values = std::collections::HashSet::new();
        for _ in 0..40 {
            values.insert(net.evaluate_from_scratch(&pos, Kernel::SCALAR));
            let moves = pos.legal_moves();
            let m = moves[values.len() * 7 % moves.len()];
            pos.do_move(m);
        }
        assert!(values.len() > 10, "{values:?}");
    }
}
