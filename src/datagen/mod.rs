//! Training data for an NNUE evaluation: positions in YaneuraOu's 40-byte
//! `PackedSfenValue` records, so that our data and the shogi NNUE tooling
//! (YaneuraOu's learner, nnue-pytorch's shogi forks, cshogi) can read each
//! other's files.
//!
//! # Record layout (40 bytes, little-endian)
//!
//! | bytes | type | field | meaning |
//! |---|---|---|---|
//! | 0..32 | `u8[32]` | `sfen` | the position, Huffman-coded in 256 bits ([`packed`]) |
//! | 32..34 | `i16` | `score` | search score, side to move's view; mate in n plies = +-(32000 - n) |
//! | 34..36 | `u16` | `move` | best move, YaneuraOu's `Move16` (= our [`crate::Move::bits`]) |
//! | 36..38 | `u16` | `gamePly` | move number of the position (1 = the start position) |
//! | 38 | `i8` | `game_result` | 1 win, 0 draw, -1 loss for the side to move |
//! | 39 | `u8` | `padding` | 0 |
//!
//! `Move16`: bits 0-6 the destination square, bits 7-13 the origin square
//! (or the dropped kind, pawn 1 .. rook 6, gold 7), bit 14 drop, bit 15
//! promotion; squares are `file * 9 + rank` with file 0 = USI file 1 and
//! rank 0 = rank a.
//!
//! # Compatibility
//!
//! The packer follows YaneuraOu's `sfen_packer.cpp` (read, not copied); it
//! reproduces the bytes of cshogi's own packing test and of positions
//! packed by the cshogi Python package (1.1.0).

pub mod packed;
