//! Our network file: a fixed header, the weights little-endian, and an
//! FNV-1a checksum, read without trusting a single byte (see the table in
//! the module docs of [`crate::nnue`]).

use std::fmt;

use super::features::FeatureSet;
use super::net::{is_valid_l1, Affine, Network, HIDDEN};

/// The first eight bytes of every network file.
pub const MAGIC: [u8; 8] = *b"GYOKUNN\0";
/// The format version this code writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Architecture id: features -> L1 x 2 -> 32 -> 32 -> 1, ClippedReLU.
pub const ARCHITECTURE: u32 = 1;
/// Architecture id: as [`ARCHITECTURE`], plus one i32 piece-square weight
/// per input added straight to the output (after the transformer weights).
pub const ARCHITECTURE_PSQT: u32 = 2;
/// Architecture id: as [`ARCHITECTURE`], with the linear evaluation's
/// dynamic terms added to the value; the payload starts with the u64
/// fingerprint of the weights they were trained with.
pub const ARCHITECTURE_DYNAMIC: u32 = 3;
/// Architecture id: piece-square weights and dynamic terms both.
pub const ARCHITECTURE_PSQT_DYNAMIC: u32 = 4;

/// The architecture id of a net with or without each optional part.
fn architecture_id(psqt: bool, dynamic: bool) -> u32 {
    ARCHITECTURE + u32::from(psqt) + 2 * u32::from(dynamic)
}
/// Bytes before the payload.
pub const HEADER_LEN: usize = 48;
/// Bytes of the checksum after the payload.
const CHECKSUM_LEN: usize = 8;

/// Why a network file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file starts neither with `GYOKUNN\0` nor with a YaneuraOu
    /// `nn.bin`'s version word.
    BadMagic,
    /// A format version this build cannot read.
    UnsupportedVersion(u32),
    /// An architecture id this build does not know.
    UnknownArchitecture(u32),
    /// A feature-set id this build does not know.
    UnknownFeatureSet(u32),
    /// A feature-transformer width that is not a multiple of 32 in 32..=512.
    UnsupportedWidth(u32),
    /// A size field disagrees with the architecture, or the file is longer
    /// than its header says.
    SizeMismatch {
        /// Which size.
        what: &'static str,
        /// The value the architecture implies.
        expected: u64,
        /// The value in the file.
        found: u64,
    },
    /// The file ends early.
    Truncated {
        /// Bytes the header promises.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// The stored checksum does not match the contents.
    ChecksumMismatch {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the bytes read.
        computed: u64,
    },
    /// A YaneuraOu `nn.bin` must start with version `0x7AF32F16`.
    YaneuraOuVersion(u32),
    /// An `nn.bin` of an architecture other than HalfKP 256x2-32-32 (its
    /// architecture string, shortened).
    YaneuraOuArchitecture(String),
    /// An `nn.bin` hash word that is not HalfKP 256x2-32-32's.
    YaneuraOuHash {
        /// Which hash: the file's, the feature transformer's or the network's.
        what: &'static str,
        /// The value for HalfKP 256x2-32-32.
        expected: u32,
        /// The value in the file.
        found: u32,
    },
    /// Only HalfKP nets with L1 256 can be written as an `nn.bin`.
    NotYaneuraOuShape {
        /// The net's feature set.
        set: FeatureSet,
        /// The net's transformer width.
        l1: usize,
    },
    /// An `nn.bin` has no piece-square path to the output, nor dynamic
    /// terms.
    YaneuraOuHasNoPsqt,
    /// A network completed by the linear evaluation's dynamic terms, trained
    /// with other linear weights than this build's.
    DynamicTermsMismatch {
        /// The fingerprint the network was trained with.
        net: u64,
        /// This build's.
        engine: u64,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => write!(
                f,
                "not a network file: neither gyoku's nor a YaneuraOu nn.bin (bad magic)"
            ),
            NetError::UnsupportedVersion(v) => write!(
                f,
                "network file format version {v} is not supported (this build reads version {FORMAT_VERSION})"
            ),
            NetError::UnknownArchitecture(a) => {
                write!(f, "unknown network architecture id {a}")
            }
            NetError::UnknownFeatureSet(id) => write!(f, "unknown network feature set id {id}"),
            NetError::UnsupportedWidth(l1) => write!(
                f,
                "network feature transformer width {l1} is not a multiple of 32 in 32..=512"
            ),
            NetError::SizeMismatch {
                what,
                expected,
                found,
            } => write!(f, "network file size mismatch: {what} is {found}, expected {expected}"),
            NetError::Truncated { expected, found } => write!(
                f,
                "network file is truncated: {found} bytes, expected {expected}"
            ),
            NetError::ChecksumMismatch { stored, computed } => write!(
                f,
                "network file checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt"
            ),
            NetError::YaneuraOuVersion(v) => write!(
                f,
                "not a YaneuraOu nn.bin: version {v:#010x}, expected {:#010x}",
                super::yaneuraou::VERSION
            ),
            NetError::YaneuraOuArchitecture(arch) => write!(
                f,
                "YaneuraOu nn.bin architecture \"{arch}\" is not supported (gyoku reads HalfKP 256x2-32-32 only)"
            ),
            NetError::YaneuraOuHash {
                what,
                expected,
                found,
            } => write!(
                f,
                "YaneuraOu nn.bin {what} hash is {found:#010x}, expected {expected:#010x} for HalfKP 256x2-32-32"
            ),
            NetError::NotYaneuraOuShape { set, l1 } => write!(
                f,
                "a YaneuraOu nn.bin holds HalfKP nets with L1 256 only; this net is {} with L1 {l1}",
                set.name()
            ),
            NetError::YaneuraOuHasNoPsqt => write!(
                f,
                "a YaneuraOu nn.bin has no piece-square weights or dynamic terms; this net has them"
            ),
            NetError::DynamicTermsMismatch { net, engine } => write!(
                f,
                "the network adds the linear evaluation's dynamic terms as trained with weights {net:016x}, but this build's are {engine:016x}: retrain it with this build"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// 64-bit FNV-1a. Each step is a bijection of the running state, so any
/// change to one byte changes the result.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xCBF2_9CE4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(PRIME)
    })
}

/// Payload bytes for a network of this shape.
fn payload_len(set: FeatureSet, l1: usize, psqt: bool, dynamic: bool) -> u64 {
    let ft = (l1 + set.inputs() * l1) * 2 + if dynamic { 8 } else { 0 };
    let psqt = if psqt { set.inputs() * 4 } else { 0 };
    let affine = |inputs: usize, outputs: usize| outputs * 4 + inputs * outputs;
    (ft + psqt + affine(2 * l1, HIDDEN) + affine(HIDDEN, HIDDEN) + affine(HIDDEN, 1)) as u64
}

/// Reads little-endian values from a slice the caller has sized.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes, or as many as are left.
    fn take(&mut self, n: usize) -> &'a [u8] {
        let end = self.at.saturating_add(n).min(self.bytes.len());
        let taken = &self.bytes[self.at..end];
        self.at = end;
        taken
    }

    /// Missing bytes read as zero (callers check lengths first).
    fn u32(&mut self) -> u32 {
        let mut le = [0; 4];
        let bytes = self.take(4);
        le[..bytes.len()].copy_from_slice(bytes);
        u32::from_le_bytes(le)
    }

    /// Missing bytes read as zero (callers check lengths first).
    fn u64(&mut self) -> u64 {
        let mut le = [0; 8];
        let bytes = self.take(8);
        le[..bytes.len()].copy_from_slice(bytes);
        u64::from_le_bytes(le)
    }

    fn i16s(&mut self, out: &mut [i16]) {
        let bytes = self.take(out.len() * 2);
        for (value, le) in out.iter_mut().zip(bytes.chunks_exact(2)) {
            *value = i16::from_le_bytes([le[0], le[1]]);
        }
    }

    fn i32s(&mut self, out: &mut [i32]) {
        let bytes = self.take(out.len() * 4);
        for (value, le) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            *value = i32::from_le_bytes([le[0], le[1], le[2], le[3]]);
        }
    }

    fn i8s(&mut self, out: &mut [i8]) {
        let bytes = self.take(out.len());
        for (value, &byte) in out.iter_mut().zip(bytes) {
            *value = byte as i8;
        }
    }

    fn affine(&mut self, layer: &mut Affine) {
        self.i32s(&mut layer.biases);
        self.i8s(&mut layer.weights);
    }
}

/// The header fields after the magic, in file order.
struct Header {
    version: u32,
    architecture: u32,
    feature_set: u32,
    inputs: u32,
    l1: u32,
    l2: u32,
    l3: u32,
    outputs: u32,
    payload_len: u64,
}

impl Header {
    fn read(bytes: &[u8]) -> Header {
        let mut r = Reader {
            bytes,
            at: MAGIC.len(),
        };
        Header {
            version: r.u32(),
            architecture: r.u32(),
            feature_set: r.u32(),
            inputs: r.u32(),
            l1: r.u32(),
            l2: r.u32(),
            l3: r.u32(),
            outputs: r.u32(),
            payload_len: r.u64(),
        }
    }

    /// The network shape the header describes (feature set, L1, whether
    /// it has piece-square weights, whether dynamic terms complete it),
    /// once every field checks.
    fn validate(&self) -> Result<(FeatureSet, usize, bool, bool), NetError> {
        if self.version != FORMAT_VERSION {
            return Err(NetError::UnsupportedVersion(self.version));
        }
        let (psqt, dynamic) = match self.architecture {
            ARCHITECTURE => (false, false),
            ARCHITECTURE_PSQT => (true, false),
            ARCHITECTURE_DYNAMIC => (false, true),
            ARCHITECTURE_PSQT_DYNAMIC => (true, true),
            other => return Err(NetError::UnknownArchitecture(other)),
        };
        let set = FeatureSet::from_id(self.feature_set)
            .ok_or(NetError::UnknownFeatureSet(self.feature_set))?;
        let l1 = self.l1 as usize;
        if !is_valid_l1(l1) {
            return Err(NetError::UnsupportedWidth(self.l1));
        }
        let sizes = [
            ("input count", set.inputs() as u64, u64::from(self.inputs)),
            ("layer 2 width", HIDDEN as u64, u64::from(self.l2)),
            ("layer 3 width", HIDDEN as u64, u64::from(self.l3)),
            ("output count", 1, u64::from(self.outputs)),
            (
                "payload length",
                payload_len(set, l1, psqt, dynamic),
                self.payload_len,
            ),
        ];
        for (what, expected, found) in sizes {
            if expected != found {
                return Err(NetError::SizeMismatch {
                    what,
                    expected,
                    found,
                });
            }
        }
        Ok((set, l1, psqt, dynamic))
    }
}

impl Network {
    /// Reads a network file: ours (starting `GYOKUNN\0`) or a YaneuraOu
    /// `nn.bin` (starting with its version word; see
    /// [`super::yaneuraou`]). Any bytes give either a network or an error,
    /// never a panic; the size fields are checked against the architecture
    /// and the file's length before anything is allocated.
    pub fn read(bytes: &[u8]) -> Result<Network, NetError> {
        if super::yaneuraou::is_yaneuraou(bytes) {
            return super::yaneuraou::read_yaneuraou(bytes);
        }
        let magic_seen = bytes.len().min(MAGIC.len());
        if bytes[..magic_seen] != MAGIC[..magic_seen] {
            return Err(NetError::BadMagic);
        }
        if bytes.len() < HEADER_LEN {
            return Err(NetError::Truncated {
                expected: HEADER_LEN as u64,
                found: bytes.len() as u64,
            });
        }
        let header = Header::read(bytes);
        let (set, l1, psqt, dynamic) = header.validate()?;
        // Bounded: payload_len matched the shape, and the shape is bounded.
        let body_len = HEADER_LEN + header.payload_len as usize;
        let expected = (body_len + CHECKSUM_LEN) as u64;
        let found = bytes.len() as u64;
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
        let (body, stored) = bytes.split_at(body_len);
        let stored = Reader {
            bytes: stored,
            at: 0,
        }
        .u64();
        let computed = fnv1a64(body);
        if stored != computed {
            return Err(NetError::ChecksumMismatch { stored, computed });
        }
        let mut net = Network::zeroed(set, l1).ok_or(NetError::UnsupportedWidth(header.l1))?;
        let mut r = Reader {
            bytes: body,
            at: HEADER_LEN,
        };
        if dynamic {
            net.dynamic_terms = Some(r.u64());
        }
        r.i16s(&mut net.ft_biases);
        r.i16s(&mut net.ft_weights);
        if psqt {
            net.psqt = vec![0; set.inputs()];
            r.i32s(&mut net.psqt);
        }
        r.affine(&mut net.hidden1);
        r.affine(&mut net.hidden2);
        r.affine(&mut net.output);
        debug_assert_eq!(r.at, body_len);
        Ok(net)
    }

    /// The network as a file that [`Network::read`] reads back.
    pub fn write(&self) -> Vec<u8> {
        let dynamic = self.dynamic_terms.is_some();
        let payload = payload_len(self.set, self.l1, self.has_psqt(), dynamic);
        let mut out = Vec::with_capacity(HEADER_LEN + payload as usize + CHECKSUM_LEN);
        out.extend_from_slice(&MAGIC);
        for field in [
            FORMAT_VERSION,
            architecture_id(self.has_psqt(), dynamic),
            self.set.id(),
            self.set.inputs() as u32,
            self.l1 as u32,
            HIDDEN as u32,
            HIDDEN as u32,
            1,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&payload.to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_LEN);
        if let Some(fingerprint) = self.dynamic_terms {
            out.extend_from_slice(&fingerprint.to_le_bytes());
        }
        let i16s = self.ft_biases.iter().chain(&self.ft_weights);
        out.extend(i16s.flat_map(|v| v.to_le_bytes()));
        out.extend(self.psqt.iter().flat_map(|v| v.to_le_bytes()));
        for layer in [&self.hidden1, &self.hidden2, &self.output] {
            out.extend(layer.biases.iter().flat_map(|v| v.to_le_bytes()));
            out.extend(layer.weights.iter().map(|&v| v as u8));
        }
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Network, Vec<u8>) {
        let net = Network::random(11, FeatureSet::HalfKpMirror, 32);
        let bytes = net.write();
        (net, bytes)
    }

    /// Overwrites a u32 header field and fixes the checksum, so the field's
    /// own check is the one that fires.
    fn with_field(bytes: &[u8], offset: usize, value: u32) -> Vec<u8> {
        let mut bytes = bytes.to_vec();
        bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
        let body = bytes.len() - CHECKSUM_LEN;
        let checksum = fnv1a64(&bytes[..body]);
        bytes[body..].copy_from_slice(&checksum.to_le_bytes());
        bytes
    }

    #[test]
    fn round_trip_keeps_every_weight() {
        let (net, bytes) = sample();
        assert_eq!(
            bytes.len() as u64,
            HEADER_LEN as u64 + payload_len(net.set, net.l1, false, false) + 8
        );
        assert_eq!(&bytes[..8], b"GYOKUNN\0");
        assert_eq!(Network::read(&bytes), Ok(net));
    }

    #[test]
    fn round_trip_keeps_piece_square_weights_and_dynamic_terms() {
        let plain = Network::random(12, FeatureSet::HalfKpMirror, 32);
        for (psqt, dynamic, id) in [
            (true, false, ARCHITECTURE_PSQT),
            (false, true, ARCHITECTURE_DYNAMIC),
            (true, true, ARCHITECTURE_PSQT_DYNAMIC),
        ] {
            let mut net = plain.clone();
            if psqt {
                net = net.with_random_psqt(3);
            }
            if dynamic {
                net = net.with_dynamic_terms(0x0123_4567_89ab_cdef);
            }
            let bytes = net.write();
            assert_eq!(
                bytes.len() as u64,
                HEADER_LEN as u64 + payload_len(net.set, net.l1, psqt, dynamic) + 8
            );
            assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), id);
            let read = Network::read(&bytes).expect("reads back");
            let parts = (read.has_psqt(), read.dynamic_terms().is_some());
            assert_eq!(parts, (psqt, dynamic));
            assert_eq!(read, net);
            // Cut short, the file is refused like any other.
            assert!(Network::read(&bytes[..bytes.len() - 9]).is_err());
        }
    }

    #[test]
    fn fnv1a_known_values() {
        assert_eq!(fnv1a64(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xAF63_DC4C_8601_EC8C);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_F739_67E8);
    }

    #[test]
    fn each_header_check_names_its_problem() {
        let (_, bytes) = sample();
        let cases: [(Vec<u8>, NetError, &str); 10] = [
            (b"NOTANNET".to_vec(), NetError::BadMagic, "bad magic"),
            (
                with_field(&bytes, 8, 2),
                NetError::UnsupportedVersion(2),
                "version 2",
            ),
            (
                with_field(&bytes, 12, 9),
                NetError::UnknownArchitecture(9),
                "architecture id 9",
            ),
            (
                with_field(&bytes, 16, 77),
                NetError::UnknownFeatureSet(77),
                "feature set id 77",
            ),
            (
                with_field(&bytes, 24, 48),
                NetError::UnsupportedWidth(48),
                "width 48",
            ),
            (
                with_field(&bytes, 20, 5),
                NetError::SizeMismatch {
                    what: "input count",
                    expected: 69_660,
                    found: 5,
                },
                "input count is 5, expected 69660",
            ),
            (
                with_field(&bytes, 28, 16),
                NetError::SizeMismatch {
                    what: "layer 2 width",
                    expected: 32,
                    found: 16,
                },
                "layer 2 width",
            ),
            (
                bytes[..100].to_vec(),
                NetError::Truncated {
                    expected: bytes.len() as u64,
                    found: 100,
                },
                "truncated",
            ),
            (
                [bytes.as_slice(), &[0]].concat(),
                NetError::SizeMismatch {
                    what: "file length",
                    expected: bytes.len() as u64,
                    found: bytes.len() as u64 + 1,
                },
                "file length",
            ),
            (
                b"GYOK".to_vec(),
                NetError::Truncated {
                    expected: 48,
                    found: 4,
                },
                "truncated",
            ),
        ];
        for (input, expected, text) in cases {
            let err = Network::read(&input).unwrap_err();
            assert_eq!(err, expected);
            assert!(err.to_string().contains(text), "{err}");
        }
        let mut flipped = bytes.clone();
        flipped[HEADER_LEN + 5] ^= 1;
        let err = Network::read(&flipped).unwrap_err();
        assert!(matches!(err, NetError::ChecksumMismatch { .. }), "{err}");
        assert!(err.to_string().contains("checksum mismatch"));
        assert_eq!(
            Network::read(&[]),
            Err(NetError::Truncated {
                expected: 48,
                found: 0
            })
        );
    }

    /// Cutting a valid file anywhere, or flipping any one bit, gives an
    /// error and never a panic or a network.
    #[test]
    fn truncated_and_bit_flipped_files_only_give_errors() {
        let (_, bytes) = sample();
        let len = bytes.len();
        // Every offset in the header and around the section boundaries,
        // then a stride through the weights.
        let mut offsets: Vec<usize> = (0..HEADER_LEN + 80).collect();
        offsets.extend((HEADER_LEN..len).step_by(len / 97));
        offsets.extend(len - 200..len);
        for &at in &offsets {
            assert!(Network::read(&bytes[..at]).is_err(), "cut at {at}");
            for bit in [0, 3, 7] {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                assert!(Network::read(&bad).is_err(), "bit {bit} at {at}");
            }
        }
    }

    /// A valid header with random bytes changed, followed by a short
    /// random tail, never panics.
    #[test]
    fn random_headers_never_panic() {
        let (_, bytes) = sample();
        let mut state = 0x0123_4567_89AB_CDEF_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..3000 {
            let mut file = bytes[..HEADER_LEN].to_vec();
            for _ in 0..1 + round % 3 {
                let at = MAGIC.len() + (next() as usize) % (HEADER_LEN - MAGIC.len());
                file[at] = next() as u8;
            }
            file.extend((0..round % 300).map(|_| next() as u8));
            assert!(Network::read(&file).is_err());
        }
    }
}
