//! YaneuraOu's `nn.bin` for HalfKP 256x2-32-32 (`halfkp_256x2-32-32.h`,
//! the shape of most shogi NNUE nets), read into and written from our
//! [`Network`].
//!
//! # Layout
//!
//! All integers little-endian; this is what YaneuraOu's `ReadParameters`
//! (`eval/nnue/evaluate_nnue.cpp`) reads:
//!
//! | size | field |
//! |---|---|
//! | 4 | version, u32 `0x7AF32F16` (`kVersion`) |
//! | 4 | file hash, u32 [`FILE_HASH`] = transformer hash ^ network hash |
//! | 4 | architecture string length `n`, u32 |
//! | n | architecture string ([`ARCHITECTURE`]; informational) |
//! | 4 | feature transformer hash, u32 [`TRANSFORMER_HASH`] |
//! | 2 x 256 | transformer biases, i16 |
//! | 2 x 125,388 x 256 | transformer weights, i16, one row of 256 per feature |
//! | 4 | network hash, u32 [`NETWORK_HASH`] |
//! | 4 x 32 + 32 x 512 | layer 2: biases i32, then weights i8 `[output][input]` |
//! | 4 x 32 + 32 x 32 | layer 3: likewise |
//! | 4 + 32 | output: bias i32, weights i8 |
//!
//! A dense layer stores each output's row padded to a multiple of 32
//! inputs (`kPaddedInputDimensions`); every input width here (512, 32, 32)
//! already is one, so there is no padding. Nothing follows the last layer.
//!
//! # Arithmetic
//!
//! YaneuraOu's forward pass for this shape is the one in [`crate::nnue`]:
//! the side to move's 256 transformer outputs first, `clamp(acc, 0, 127)`
//! (scalar code; its AVX2 `packs` + `max 0` is the same), hidden sums
//! `clamp(sum >> 6, 0, 127)` (its AVX2 path saturates the i32 sum to i16
//! before the shift, which gives the same byte), and `output / FV_SCALE`
//! with C++'s truncating division, `FV_SCALE` = 16 unless its `FV_SCALE`
//! option is changed. White's view turns the board 180 degrees, its king
//! square included. So a net read from an `nn.bin` runs on our code
//! unchanged: no flag on [`Network`] is needed. YaneuraOu then clamps the
//! value to its `VALUE_MAX_EVAL` (31,753); our search clamps to
//! `eval::EVAL_LIMIT` instead.

use super::features::FeatureSet;
use super::format::NetError;
use super::net::{Affine, Network, HIDDEN};

/// The first four bytes of every `nn.bin` (`kVersion`).
pub const VERSION: u32 = 0x7AF3_2F16;
/// The transformer width this format holds (per perspective).
pub const L1: usize = 256;
/// `HalfKP<Side::kFriend>::kHashValue`.
const HALF_KP_HASH: u32 = 0x5D69_D5B9 ^ 1;
/// Dense layers' rows are padded to a multiple of this many inputs.
const PAD: usize = 32;

/// `AffineTransform<Previous, outputs>::GetHashValue()`.
const fn affine_hash(previous: u32, outputs: u32) -> u32 {
    0xCC03_DAE4u32.wrapping_add(outputs) ^ (previous >> 1) ^ (previous << 31)
}

/// `ClippedReLU<Previous>::GetHashValue()`.
const fn clipped_relu_hash(previous: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(previous)
}

/// `FeatureTransformer::GetHashValue()`: the feature set's hash xor the
/// transformer's output width (both halves).
pub const TRANSFORMER_HASH: u32 = HALF_KP_HASH ^ (2 * L1) as u32;

/// `Network::GetHashValue()` for `InputSlice[512] -> Affine 32 -> ClippedReLU
/// -> Affine 32 -> ClippedReLU -> Affine 1`.
pub const NETWORK_HASH: u32 = {
    let input_slice = 0xEC42_E90Du32 ^ (2 * L1) as u32;
    let hidden1 = clipped_relu_hash(affine_hash(input_slice, HIDDEN as u32));
    let hidden2 = clipped_relu_hash(affine_hash(hidden1, HIDDEN as u32));
    affine_hash(hidden2, 1)
};

/// The hash in the file header (`kHashValue`).
pub const FILE_HASH: u32 = TRANSFORMER_HASH ^ NETWORK_HASH;

/// The architecture string we write: the spelling of YaneuraOu before its
/// sparse-input first layer (2024) and of the nnue-pytorch trainers.
pub const ARCHITECTURE: &str = "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))";

/// The spelling of current YaneuraOu, which names its first layer
/// `AffineTransformSparseInput`; the file is the same.
const ARCHITECTURE_SPARSE: &str = "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransformSparseInput[32<-512](InputSlice[512(0:512)])))))";

/// Architecture strings we know. Another spelling is read too when the
/// hashes and the exact length fit; otherwise it names the file's shape
/// in the error.
const KNOWN_ARCHITECTURES: [&str; 2] = [ARCHITECTURE, ARCHITECTURE_SPARSE];

/// Version, file hash and string length.
const PREAMBLE: usize = 12;

/// Bytes of a dense layer: biases, then rows padded to [`PAD`] inputs.
const fn affine_bytes(inputs: usize, outputs: usize) -> usize {
    4 * outputs + outputs * inputs.div_ceil(PAD) * PAD
}

/// Bytes after the architecture string: both sections with their hashes.
const BODY: usize = 4
    + 2 * L1
    + 2 * FeatureSet::HalfKp.inputs() * L1
    + 4
    + affine_bytes(2 * L1, HIDDEN)
    + affine_bytes(HIDDEN, HIDDEN)
    + affine_bytes(HIDDEN, 1);

/// The length of an `nn.bin` whose architecture string is `arch_len` bytes.
pub const fn file_len(arch_len: usize) -> usize {
    PREAMBLE + arch_len + BODY
}

/// Whether `bytes` starts like an `nn.bin` (its version word).
pub fn is_yaneuraou(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && bytes[..4] == VERSION.to_le_bytes()
}

/// The little-endian u32 at `at`; the caller has checked the length.
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The architecture string's bytes as text for a message, shortened.
fn describe(bytes: &[u8], claimed_len: u32) -> String {
    const SHOWN: usize = 160;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]);
    if bytes.len() > SHOWN || bytes.len() < claimed_len as usize {
        format!("{text}... ({claimed_len} bytes)")
    } else {
        text.into_owned()
    }
}

/// Reads an `nn.bin` holding a HalfKP 256x2-32-32 net. Anything else, or a
/// damaged file, gives an error naming the problem, never a panic: every
/// header field is checked, and the length against the architecture,
/// before anything is allocated.
pub fn read_yaneuraou(bytes: &[u8]) -> Result<Network, NetError> {
    let found = bytes.len() as u64;
    if bytes.len() < PREAMBLE {
        if bytes.len() >= 4 && !is_yaneuraou(bytes) {
            return Err(NetError::YaneuraOuVersion(u32_at(bytes, 0)));
        }
        return Err(NetError::Truncated {
            expected: PREAMBLE as u64,
            found,
        });
    }
    let version = u32_at(bytes, 0);
    if version != VERSION {
        return Err(NetError::YaneuraOuVersion(version));
    }
    let arch_len = u32_at(bytes, 8);
    let arch = &bytes[PREAMBLE..bytes.len().min(PREAMBLE.saturating_add(arch_len as usize))];
    let known = KNOWN_ARCHITECTURES
        .iter()
        .any(|known| known.len() == arch_len as usize && known.as_bytes().starts_with(arch));
    let hash = u32_at(bytes, 4);
    // YaneuraOu itself ignores the string, and other trainers spell it
    // their own way: an unknown spelling is accepted when the hash (which
    // encodes every layer's shape) and the exact length say HalfKP
    // 256x2-32-32; otherwise the string names what the file is.
    let fits = hash == FILE_HASH && found == file_len(arch_len as usize) as u64;
    if !known && !fits {
        return Err(NetError::YaneuraOuArchitecture(describe(arch, arch_len)));
    }
    if hash != FILE_HASH {
        return Err(NetError::YaneuraOuHash {
            what: "file",
            expected: FILE_HASH,
            found: hash,
        });
    }
    let expected = file_len(arch_len as usize) as u64;
    if found < expected {
        return Err(NetError::Truncated { expected, found });
    }
    if found > expected {
        return Err(NetError::SizeMismatch {
            what: "file length",
            expected,
            found,
        });
    }
    let mut r = Cursor {
        bytes,
        at: PREAMBLE + arch_len as usize,
    };
    r.hash("feature transformer", TRANSFORMER_HASH)?;
    let mut net = Network::zeroed(FeatureSet::HalfKp, L1).ok_or(NetError::UnsupportedWidth(256))?;
    r.i16s(&mut net.ft_biases);
    r.i16s(&mut net.ft_weights);
    r.hash("network", NETWORK_HASH)?;
    for layer in [&mut net.hidden1, &mut net.hidden2, &mut net.output] {
        r.affine(layer);
    }
    debug_assert_eq!(r.at, bytes.len());
    Ok(net)
}

/// Reads values from a slice whose length [`read_yaneuraou`] has checked.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let taken = &self.bytes[self.at..self.at + n];
        self.at += n;
        taken
    }

    fn hash(&mut self, what: &'static str, expected: u32) -> Result<(), NetError> {
        let found = u32_at(self.take(4), 0);
        if found == expected {
            Ok(())
        } else {
            Err(NetError::YaneuraOuHash {
                what,
                expected,
                found,
            })
        }
    }

    fn i16s(&mut self, out: &mut [i16]) {
        let bytes = self.take(2 * out.len());
        for (value, le) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *value = i16::from_le_bytes([le[0], le[1]]);
        }
    }

    /// Biases, then each output's row; the padding is skipped (YaneuraOu
    /// multiplies it by inputs that are always zero).
    fn affine(&mut self, layer: &mut Affine) {
        for (bias, le) in layer
            .biases
            .iter_mut()
            .zip(self.take(4 * layer.outputs).chunks_exact(4))
        {
            *bias = i32::from_le_bytes([le[0], le[1], le[2], le[3]]);
        }
        let padded = layer.inputs.div_ceil(PAD) * PAD;
        for row in layer.weights.chunks_exact_mut(layer.inputs) {
            let stored = self.take(padded);
            for (w, &byte) in row.iter_mut().zip(stored) {
                *w = byte as i8;
            }
        }
    }
}

/// The network as an `nn.bin` that YaneuraOu (and [`read_yaneuraou`])
/// reads; only HalfKP nets with L1 256 fit the format.
pub fn write_yaneuraou(net: &Network) -> Result<Vec<u8>, NetError> {
    if net.set != FeatureSet::HalfKp || net.l1 != L1 {
        return Err(NetError::NotYaneuraOuShape {
            set: net.set,
            l1: net.l1,
        });
    }
    if net.has_psqt() || net.dynamic_terms().is_some() {
        return Err(NetError::YaneuraOuHasNoPsqt);
    }
    let mut out = Vec::with_capacity(file_len(ARCHITECTURE.len()));
    for word in [VERSION, FILE_HASH, ARCHITECTURE.len() as u32] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(ARCHITECTURE.as_bytes());
    out.extend_from_slice(&TRANSFORMER_HASH.to_le_bytes());
    let i16s = net.ft_biases.iter().chain(&net.ft_weights);
    out.extend(i16s.flat_map(|v| v.to_le_bytes()));
    out.extend_from_slice(&NETWORK_HASH.to_le_bytes());
    for layer in [&net.hidden1, &net.hidden2, &net.output] {
        out.extend(layer.biases.iter().flat_map(|v| v.to_le_bytes()));
        let padding = layer.inputs.div_ceil(PAD) * PAD - layer.inputs;
        for row in layer.weights.chunks_exact(layer.inputs) {
            out.extend(row.iter().map(|&w| w as u8));
            out.extend(std::iter::repeat_n(0, padding));
        }
    }
    debug_assert_eq!(out.len(), file_len(ARCHITECTURE.len()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Kernel;
    use crate::Position;
    use std::sync::OnceLock;

    /// One random HalfKP/256 net and its `nn.bin`, shared by the tests
    /// (each is 64 MB).
    fn sample() -> &'static (Network, Vec<u8>) {
        static SAMPLE: OnceLock<(Network, Vec<u8>)> = OnceLock::new();
        SAMPLE.get_or_init(|| {
            let net = Network::random(5, FeatureSet::HalfKp, L1);
            let bytes = write_yaneuraou(&net).expect("a HalfKP/256 net");
            (net, bytes)
        })
    }

    /// Where the network section's hash word sits in [`sample`]'s file.
    const NETWORK_AT: usize = PREAMBLE + 178 + 4 + 2 * L1 + 2 * 125_388 * L1;

    /// Positions along a seeded random game: both sides to move, captures
    /// and so pieces in hand.
    fn random_game(seed: u64, plies: usize) -> Vec<Position> {
        let mut rng =
            crate::util::rng::XorShift64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut pos = Position::startpos();
        let mut out = vec![pos.clone()];
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[rng.below(moves.len())]);
            out.push(pos.clone());
        }
        out
    }

    /// `bytes` with another architecture string (and its length).
    fn with_architecture(bytes: &[u8], arch: &str) -> Vec<u8> {
        let mut out = bytes[..8].to_vec();
        out.extend_from_slice(&(arch.len() as u32).to_le_bytes());
        out.extend_from_slice(arch.as_bytes());
        out.extend_from_slice(&bytes[PREAMBLE + ARCHITECTURE.len()..]);
        out
    }

    /// The hash chain worked by hand from `half_kp.h`, `input_slice.h`,
    /// `affine_transform.h` and `clipped_relu.h`; the final three values
    /// head every Stockfish-era HalfKP 256x2-32-32 net.
    #[test]
    fn hashes_are_yaneuraous() {
        assert_eq!(HALF_KP_HASH, 0x5D69_D5B8);
        let input_slice = 0xEC42_E90D ^ 512;
        assert_eq!(input_slice, 0xEC42_EB0D);
        let affine1 = affine_hash(input_slice, 32);
        assert_eq!(affine1, 0x3A22_AE82);
        assert_eq!(clipped_relu_hash(affine1), 0x8DAF_D349);
        assert_eq!(affine_hash(0x8DAF_D349, 32), 0x0AD4_32A0);
        assert_eq!(clipped_relu_hash(0x0AD4_32A0), 0x5E61_5767);
        assert_eq!(affine_hash(0x5E61_5767, 1), 0x6333_7156);
        assert_eq!(TRANSFORMER_HASH, 0x5D69_D7B8);
        assert_eq!(NETWORK_HASH, 0x6333_7156);
        assert_eq!(FILE_HASH, 0x3E5A_A6EE);
    }

    /// `GetArchitectureString()`: "Features=" + the transformer's structure
    /// + ",Network=" + the layers', innermost last.
    #[test]
    fn architecture_strings_are_built_as_yaneuraou_builds_them() {
        let features = format!("HalfKP(Friend)[{}->256x2]", 81 * 1548);
        let network = |first: &str| {
            format!(
                "AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32]({first}[32<-512](InputSlice[512(0:512)])))))"
            )
        };
        let full = |first| format!("Features={features},Network={}", network(first));
        assert_eq!(ARCHITECTURE, full("AffineTransform"));
        assert_eq!(ARCHITECTURE_SPARSE, full("AffineTransformSparseInput"));
        assert_eq!(ARCHITECTURE.len(), 178);
    }

    #[test]
    fn file_length_is_the_sum_of_its_fields() {
        let (_, bytes) = sample();
        let expected = 4 + 4 + 4 + 178 // version, hash, length, string
            + 4 + 2 * 256 + 2 * 125_388 * 256 // transformer
            + 4 // network hash
            + (4 * 32 + 32 * 512) // layer 2
            + (4 * 32 + 32 * 32) // layer 3
            + (4 + 32); // output
        assert_eq!(expected, 64_217_066);
        assert_eq!(bytes.len(), expected);
        assert_eq!(file_len(ARCHITECTURE.len()), expected);
    }

    /// Spot checks of the byte layout against the net's fields: header
    /// words, transformer rows per feature, dense rows `[output][input]`.
    #[test]
    fn fields_sit_where_yaneuraou_reads_them() {
        let (net, b) = sample();
        let i16_at = |at: usize| i16::from_le_bytes([b[at], b[at + 1]]);
        let i32_at = |at: usize| u32_at(b, at) as i32;
        assert_eq!(b[..4], [0x16, 0x2F, 0xF3, 0x7A]);
        assert_eq!(u32_at(b, 4), 0x3E5A_A6EE);
        assert_eq!(u32_at(b, 8), 178);
        assert_eq!(&b[12..190], ARCHITECTURE.as_bytes());
        assert_eq!(u32_at(b, 190), 0x5D69_D7B8);
        assert_eq!(i16_at(194 + 2 * 7), net.ft_biases[7]);
        let weights = 194 + 2 * 256;
        for (feature, j) in [(0, 0), (1, 5), (100_000, 201), (125_387, 255)] {
            let at = weights + 2 * (feature * 256 + j);
            assert_eq!(i16_at(at), net.feature_weights(feature as u32)[j]);
        }
        assert_eq!(NETWORK_AT, weights + 2 * 125_388 * 256);
        assert_eq!(u32_at(b, NETWORK_AT), 0x6333_7156);
        let h1 = NETWORK_AT + 4;
        assert_eq!(i32_at(h1 + 4 * 3), net.hidden1.biases[3]);
        let (o, i) = (5, 300);
        assert_eq!(
            b[h1 + 128 + o * 512 + i] as i8,
            net.hidden1.weights[o * 512 + i]
        );
        let h2 = h1 + 128 + 32 * 512;
        assert_eq!(i32_at(h2 + 4 * 31), net.hidden2.biases[31]);
        assert_eq!(
            b[h2 + 128 + 7 * 32 + 30] as i8,
            net.hidden2.weights[7 * 32 + 30]
        );
        let out = h2 + 128 + 32 * 32;
        assert_eq!(i32_at(out), net.output.biases[0]);
        assert_eq!(b[out + 4 + 31] as i8, net.output.weights[31]);
        assert_eq!(out + 4 + 32, b.len());
    }

    #[test]
    fn round_trip_keeps_every_weight_and_every_value() {
        let (net, bytes) = sample();
        let read = read_yaneuraou(bytes).expect("our own nn.bin");
        assert_eq!(&read, net);
        assert_eq!(Network::read(bytes).as_ref(), Ok(net));
        assert_eq!(write_yaneuraou(&read).as_ref(), Ok(bytes));
        // Current YaneuraOu's spelling of the architecture reads the same.
        let sparse = with_architecture(bytes, ARCHITECTURE_SPARSE);
        assert_eq!(read_yaneuraou(&sparse).as_ref(), Ok(net));
        // And through our own format.
        assert_eq!(Network::read(&read.write()).as_ref(), Ok(net));
        let mut values = std::collections::HashSet::new();
        for seed in 1..=3 {
            for pos in random_game(seed, 150) {
                let ours = net.evaluate_from_scratch(&pos, Kernel::SCALAR);
                assert_eq!(read.evaluate_from_scratch(&pos, Kernel::best()), ours);
                values.insert(ours);
            }
        }
        assert!(values.len() > 50, "{values:?}");
    }

    #[test]
    fn damaged_headers_give_named_errors() {
        let mut b = sample().1.clone();
        let mut check = |at: usize, patch: &[u8], expected: Option<NetError>, text: &str| {
            let saved = b[at..at + patch.len()].to_vec();
            b[at..at + patch.len()].copy_from_slice(patch);
            let err = read_yaneuraou(&b).unwrap_err();
            if let Some(expected) = expected {
                assert_eq!(err, expected);
            }
            assert!(err.to_string().contains(text), "{err}");
            b[at..at + patch.len()].copy_from_slice(&saved);
        };
        check(
            0,
            &1u32.to_le_bytes(),
            Some(NetError::YaneuraOuVersion(1)),
            "version 0x00000001, expected 0x7af32f16",
        );
        check(
            4,
            &0x1234u32.to_le_bytes(),
            Some(NetError::YaneuraOuHash {
                what: "file",
                expected: FILE_HASH,
                found: 0x1234,
            }),
            "file hash is 0x00001234, expected 0x3e5aa6ee",
        );
        // Another width names itself through the architecture string when
        // the hash does not fit either.
        check(4, &0x1234u32.to_le_bytes(), None, "0x00001234");
        check(8, &179u32.to_le_bytes(), None, "(179 bytes)");
        check(8, &u32::MAX.to_le_bytes(), None, "is not supported");
        check(
            190,
            &[0; 4],
            Some(NetError::YaneuraOuHash {
                what: "feature transformer",
                expected: TRANSFORMER_HASH,
                found: 0,
            }),
            "feature transformer hash",
        );
        check(
            NETWORK_AT,
            &[1, 0, 0, 0],
            Some(NetError::YaneuraOuHash {
                what: "network",
                expected: NETWORK_HASH,
                found: 1,
            }),
            "network hash is 0x00000001",
        );
    }

    #[test]
    fn truncated_or_lengthened_files_give_errors() {
        let (_, bytes) = sample();
        let len = bytes.len();
        assert_eq!(
            read_yaneuraou(&bytes[..len - 1]),
            Err(NetError::Truncated {
                expected: len as u64,
                found: len as u64 - 1
            })
        );
        assert_eq!(
            read_yaneuraou(&[]),
            Err(NetError::Truncated {
                expected: 12,
                found: 0
            })
        );
        assert_eq!(
            read_yaneuraou(b"GYOKUNN\0"),
            Err(NetError::YaneuraOuVersion(0x4B4F_5947))
        );
        let mut cuts: Vec<usize> = (0..NETWORK_AT + 8).take(300).collect();
        cuts.extend((0..len).step_by(len / 101));
        cuts.extend(NETWORK_AT - 4..NETWORK_AT + 140);
        cuts.extend(len - 100..len);
        for at in cuts {
            assert!(read_yaneuraou(&bytes[..at]).is_err(), "cut at {at}");
            assert!(Network::read(&bytes[..at]).is_err(), "cut at {at}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        let err = read_yaneuraou(&longer).unwrap_err();
        assert_eq!(
            err,
            NetError::SizeMismatch {
                what: "file length",
                expected: len as u64,
                found: len as u64 + 1,
            }
        );
        assert!(err.to_string().contains("file length"), "{err}");
    }

    /// Every bit of the version, hash, length and both section hashes
    /// matters; none panics. The architecture string's own bytes are read
    /// as YaneuraOu reads them: ignored once the hashes and length fit.
    #[test]
    fn every_bit_flip_in_the_headers_gives_an_error() {
        let mut b = sample().1.clone();
        let good = read_yaneuraou(&b).unwrap();
        for at in PREAMBLE..PREAMBLE + 178 {
            b[at] ^= 0x20;
            assert_eq!(read_yaneuraou(&b).as_ref(), Ok(&good), "string byte {at}");
            b[at] ^= 0x20;
        }
        let header = (0..PREAMBLE)
            .chain(PREAMBLE + 178..PREAMBLE + 178 + 4)
            .chain(NETWORK_AT..NETWORK_AT + 4);
        for at in header {
            for bit in 0..8 {
                b[at] ^= 1 << bit;
                assert!(read_yaneuraou(&b).is_err(), "bit {bit} at {at}");
                assert!(Network::read(&b).is_err(), "bit {bit} at {at}");
                b[at] ^= 1 << bit;
            }
        }
        assert!(read_yaneuraou(&b).is_ok());
    }

    /// A valid preamble with random bytes changed and a short random tail
    /// never panics.
    #[test]
    fn random_headers_never_panic() {
        let header = &sample().1[..PREAMBLE + 178 + 4];
        let mut state = 0x0123_4567_89AB_CDEF_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..3000 {
            let mut file = header.to_vec();
            for _ in 0..1 + round % 3 {
                let at = (next() as usize) % (PREAMBLE + 8);
                file[at] = next() as u8;
            }
            file.truncate(file.len() - round % 50);
            file.extend((0..round % 300).map(|_| next() as u8));
            assert!(read_yaneuraou(&file).is_err());
            assert!(Network::read(&file).is_err());
        }
    }

    #[test]
    fn only_halfkp_256_nets_are_written() {
        for (set, l1) in [(FeatureSet::HalfKpMirror, 256), (FeatureSet::HalfKp, 64)] {
            let net = Network::zeroed(set, l1).expect("a valid width");
            let err = write_yaneuraou(&net).unwrap_err();
            assert_eq!(err, NetError::NotYaneuraOuShape { set, l1 });
            assert!(err.to_string().contains("L1 256 only"), "{err}");
        }
        let net = Network::zeroed(FeatureSet::HalfKp, L1)
            .expect("a valid width")
            .with_random_psqt(1);
        assert_eq!(write_yaneuraou(&net), Err(NetError::YaneuraOuHasNoPsqt));
    }

    /// Writes `$GYOKU_YO_DIR/nn.bin` (a random HalfKP 256 net) and
    /// `$GYOKU_YO_DIR/ours.txt` (`value<TAB>sfen` per line, our static
    /// evaluations) for comparing with YaneuraOu's on the same positions.
    #[test]
    #[ignore = "writes files for a manual comparison with YaneuraOu"]
    fn dump_for_yaneuraou_comparison() {
        let dir = std::env::var("GYOKU_YO_DIR").expect("GYOKU_YO_DIR");
        let dir = std::path::Path::new(&dir);
        let (net, bytes) = sample();
        std::fs::write(dir.join("nn.bin"), bytes).expect("write nn.bin");
        let mut lines = String::new();
        for seed in 1..=4 {
            for pos in random_game(seed, 120).iter().skip(seed as usize).step_by(7) {
                let value = net.evaluate_from_scratch(pos, Kernel::SCALAR);
                lines += &format!("{value}\t{}\n", pos.to_sfen());
            }
        }
        std::fs::write(dir.join("ours.txt"), lines).expect("write ours.txt");
    }
}
