//! NNUE evaluation: inference only (no search wiring, no training).
//!
//! # Architecture
//!
//! ```text
//! features (per perspective) -> L1 (i16) ─┐ side to move's half first
//! features (other side)      -> L1 (i16) ─┴> 2*L1 (u8) -> 32 -> 32 -> 1
//! ```
//!
//! The feature transformer is shared by both perspectives; L1 is a multiple
//! of 32 up to 512. The hidden layers are dense, 32 wide, with ClippedReLU
//! between all layers. This is the shape of YaneuraOu's
//! `halfkp_256x2-32-32` with the width left open.
//!
//! Optionally (architecture 2) each feature also has one i32 piece-square
//! weight; the side to move's sum minus the other side's, halved, is added
//! to the output sum. That part of the value (material, placement) is a
//! plain sum over pieces that never saturates in the clipped layers, as in
//! Stockfish's PSQT path, so a net trained on little data still counts
//! material beyond the point where its transformer clips.
//!
//! A network may also be completed by the linear evaluation's dynamic
//! terms (attacks, king safety, hanging pieces, tempo: architectures 3 and
//! 4): the evaluation (`crate::eval`) adds them to the network's value,
//! and the network, trained with them added, learns the rest. The file
//! records a fingerprint of the linear weights; another build refuses it.
//!
//! # Feature sets ([`FeatureSet`])
//!
//! Each non-king piece, seen from a perspective, is a YaneuraOu BonaPiece
//! (0..1548: 90 hand slots, then 18 board kinds x 81 squares; White sees the
//! board turned 180 degrees with friend and enemy swapped). A feature is
//! `king bucket * 1548 + BonaPiece`:
//!
//! | set | king bucket | inputs |
//! |---|---|---|
//! | `HalfKpMirror` (ours) | own king square in the perspective's view, files 6-9 mirrored onto 4-1 together with every board piece: 45 buckets | 69,660 |
//! | `HalfKp` (YaneuraOu's HalfKP) | own king square in the perspective's view: 81 buckets | 125,388 |
//!
//! A king-less side (tsume positions) uses its back-rank centre square.
//!
//! # Quantisation
//!
//! | stage | values |
//! |---|---|
//! | accumulator | i16: bias + sum of active rows (wrapping) |
//! | transformer output | u8 = clamp(acc, 0, 127) |
//! | hidden layers | i32 = bias + sum(u8 x i8 weight); u8 = clamp(sum >> 6, 0, 127) |
//! | output | i32 = bias + sum(u8 x i8 weight) (+ (psqt ours - psqt theirs) / 2, truncating, with architecture 2); value = sum / 16 ([`FV_SCALE`], truncating) |
//!
//! The value is from the side to move's view, in centipawn-like units (a
//! pawn is about 90).
//!
//! # File layout ([`Network::read`], [`Network::write`])
//!
//! All integers little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `GYOKUNN\0` |
//! | 8 | 4 | format version, u32 (1) |
//! | 12 | 4 | architecture id, u32 (1: features -> L1 x 2 -> 32 -> 32 -> 1; 2: with piece-square weights; 3: with dynamic terms; 4: both) |
//! | 16 | 4 | feature set id, u32 (1 `HalfKpMirror`, 2 `HalfKp`) |
//! | 20 | 4 | inputs per perspective, u32 (must match the set) |
//! | 24 | 4 | L1, u32 |
//! | 28 | 4 | layer 2 width, u32 (32) |
//! | 32 | 4 | layer 3 width, u32 (32) |
//! | 36 | 4 | outputs, u32 (1) |
//! | 40 | 8 | payload length in bytes, u64 |
//! | 48 | | payload, in this order: |
//! | | 8 | architectures 3 and 4 only: fingerprint of the linear weights, u64 |
//! | | 2 L1 | transformer biases, i16 |
//! | | 2 inputs L1 | transformer weights, i16, one row of L1 per feature |
//! | | 4 inputs | architecture 2 only: piece-square weights, i32, one per feature |
//! | | 4 x 32 | layer 2 biases, i32 |
//! | | 32 x 2 L1 | layer 2 weights, i8, one row of 2 L1 per output |
//! | | 4 x 32 | layer 3 biases, i32 |
//! | | 32 x 32 | layer 3 weights, i8, one row per output |
//! | | 4 | output bias, i32 |
//! | | 32 | output weights, i8 |
//! | end - 8 | 8 | FNV-1a 64 of every byte before it, u64 |
//!
//! [`Network::read`] also reads YaneuraOu's `nn.bin` (HalfKP 256x2-32-32,
//! told apart by its first four bytes), and [`write_yaneuraou`] writes one:
//! see [`yaneuraou`]. Such a net runs on this module's arithmetic exactly
//! as in YaneuraOu.
//!
//! # Files
//!
//! `features.rs` (BonaPieces and feature indices), `net.rs` (weights and
//! forward pass), `format.rs` (file reading and writing), `accumulator.rs`
//! (incremental updates along a search path), `simd.rs` (scalar and AVX2
//! kernels), `yaneuraou.rs` (YaneuraOu's `nn.bin`).

pub mod accumulator;
pub mod features;
pub mod format;
pub mod load;
pub mod net;
pub mod simd;
pub mod yaneuraou;

#[cfg(test)]
mod tests;

pub use accumulator::AccumulatorStack;
pub use features::FeatureSet;
pub use format::{fnv1a64, NetError};
pub use net::{is_valid_l1, Network, NetworkParts, FV_SCALE};
pub use simd::Kernel;
pub use yaneuraou::{read_yaneuraou, write_yaneuraou};
