//! YaneuraOu's 40-byte training record, `PackedSfenValue`, and the 256-bit
//! Huffman-coded position inside it, `PackedSfen`.
//!
//! Written from a reading of YaneuraOu's `source/extra/sfen_packer.cpp`
//! (the `SfenPacker` class) and the `PackedSfenValue` struct of its old
//! `source/learn/learn.h`; see the module docs of [`crate::tools::datagen`] for the
//! record table and how the format was checked against cshogi.
//!
//! # The packed position (32 bytes, 256 bits)
//!
//! Bits are written least significant bit first: bit `i` of the stream is
//! bit `i % 8` of byte `i / 8`, and an `n`-bit field is written from its
//! lowest bit up. In order:
//!
//! 1. side to move, 1 bit (0 Black, 1 White);
//! 2. Black's king square, 7 bits, then White's (square = file * 9 + rank,
//!    file 0 = USI file 1, rank 0 = rank a: the same numbering as ours);
//! 3. the 81 squares in index order (1a, 1b, ..., 9i), kings skipped, each
//!    with its board code below; a piece's code is followed by a promoted
//!    bit (not for golds) and a colour bit (1 White);
//! 4. Black's hand then White's, each in the order P L N S G B R (cshogi's
//!    and YaneuraOu's current order), one hand code per piece, followed by
//!    a promoted bit that is 0 (not for golds) and the colour bit;
//! 5. the "piece box": pieces of the 40 that are neither on the board nor
//!    in a hand (handicap games), in the same kind order, as a hand code
//!    with the promoted bit set and colour 0; a boxed gold is written as
//!    White's boxed silver (hand silver code, promoted 1, colour 1).
//!
//! | kind   | board code (bits, first bit first) | hand code |
//! |--------|------------------|-----------|
//! | empty  | `0`              | (none)    |
//! | pawn   | `10`             | `0`       |
//! | lance  | `1100`           | `100`     |
//! | knight | `1101`           | `101`     |
//! | silver | `1110`           | `110`     |
//! | gold   | `11110`          | `1110`    |
//! | bishop | `111110`         | `11110`   |
//! | rook   | `111111`         | `11111`   |
//!
//! Moving a piece from the board to a hand frees one bit of the board and
//! costs one less in the hand, so every position with all 40 pieces takes
//! exactly 256 bits. A king-less (tsume) position cannot be packed here.

use crate::hand::{Hand, MAX_IN_HAND};
use crate::moves::Move;
use crate::position::{board_field, hands_field, Position, SfenError};
use crate::types::{Color, Piece, PieceType, Square};
use std::fmt;

/// Bytes of a [`PackedSfen`].
pub const PACKED_SFEN_BYTES: usize = 32;
/// Bytes of a [`PackedSfenValue`] record.
pub const RECORD_BYTES: usize = 40;
const TOTAL_BITS: usize = PACKED_SFEN_BYTES * 8;

/// The order hand and piece-box pieces are written in (cshogi's order).
const HAND_ORDER: [PieceType; 7] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::Silver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
];

/// Board code `(code, length)` of an unpromoted non-king kind, or of an
/// empty square for `None`; the code's lowest bit is written first.
const fn board_code(kind: Option<PieceType>) -> (u32, u32) {
    match kind {
        None => (0x00, 1),
        Some(PieceType::Pawn) => (0x01, 2),
        Some(PieceType::Lance) => (0x03, 4),
        Some(PieceType::Knight) => (0x0b, 4),
        Some(PieceType::Silver) => (0x07, 4),
        Some(PieceType::Bishop) => (0x1f, 6),
        Some(PieceType::Rook) => (0x3f, 6),
        // Gold; kings and promoted kinds never get here.
        Some(_) => (0x0f, 5),
    }
}

/// Hand code: the board code without its first (always 1) bit.
const fn hand_code(kind: PieceType) -> (u32, u32) {
    let (code, len) = board_code(Some(kind));
    (code >> 1, len - 1)
}

/// Why a position could not be packed, or bytes could not be unpacked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// Packing: the colour has no king (a tsume position).
    MissingKing(Color),
    /// Packing: more pieces of a kind than a game has (cannot happen for a
    /// valid position).
    TooManyPieces(PieceType),
    /// The codes do not fill exactly 256 bits.
    BitCount,
    /// Unpacking: a king square of 81 or more (YaneuraOu writes 81 for a
    /// missing king; we do not accept king-less records).
    BadKingSquare(Color, u32),
    /// Unpacking: both kings on one square.
    KingsOnOneSquare,
    /// Unpacking: board, hands and piece box do not hold this kind's full
    /// complement (found this many instead).
    PieceCount(PieceType, u32),
    /// Unpacking: the decoded position is not a legal SFEN.
    Sfen(SfenError),
    /// The record's move is not legal in its position.
    IllegalMove(u16),
    /// The record's game result is not -1, 0 or 1.
    BadResult(i8),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::MissingKing(c) => write!(f, "no {c:?} king: cannot pack"),
            PackError::TooManyPieces(k) => write!(f, "too many pieces of kind {k:?}"),
            PackError::BitCount => write!(f, "codes do not fill exactly 256 bits"),
            PackError::BadKingSquare(c, sq) => write!(f, "bad {c:?} king square {sq}"),
            PackError::KingsOnOneSquare => write!(f, "both kings on one square"),
            PackError::PieceCount(k, n) => {
                write!(f, "{n} pieces of kind {k:?}, expected {}", full_count(*k))
            }
            PackError::Sfen(e) => write!(f, "bad position: {e}"),
            PackError::IllegalMove(m) => write!(f, "move {m:#06x} is not legal here"),
            PackError::BadResult(r) => write!(f, "game result {r} is not -1, 0 or 1"),
        }
    }
}

impl std::error::Error for PackError {}

/// How many pieces of an unpromoted hand kind a game has.
fn full_count(kind: PieceType) -> u32 {
    MAX_IN_HAND[kind as usize]
}

/// A position packed into 256 bits (YaneuraOu's `PackedSfen`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackedSfen(pub [u8; PACKED_SFEN_BYTES]);

struct BitWriter {
    data: [u8; PACKED_SFEN_BYTES],
    cursor: usize,
}

impl BitWriter {
    fn write(&mut self, value: u32, bits: u32) -> Result<(), PackError> {
        for i in 0..bits {
            if self.cursor >= TOTAL_BITS {
                return Err(PackError::BitCount);
            }
            if (value >> i) & 1 != 0 {
                self.data[self.cursor / 8] |= 1 << (self.cursor % 8);
            }
            self.cursor += 1;
        }
        Ok(())
    }
}

struct BitReader<'a> {
    data: &'a [u8; PACKED_SFEN_BYTES],
    cursor: usize,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Result<u32, PackError> {
        if self.cursor >= TOTAL_BITS {
            return Err(PackError::BitCount);
        }
        let b = (self.data[self.cursor / 8] >> (self.cursor % 8)) & 1;
        self.cursor += 1;
        Ok(u32::from(b))
    }

    fn bits(&mut self, n: u32) -> Result<u32, PackError> {
        let mut value = 0;
        for i in 0..n {
            value |= self.bit()? << i;
        }
        Ok(value)
    }

    /// Reads a board code: `None` for an empty square.
    fn board_kind(&mut self) -> Result<Option<PieceType>, PackError> {
        let (mut code, mut len) = (0, 0);
        while len < 6 {
            code |= self.bit()? << len;
            len += 1;
            if board_code(None) == (code, len) {
                return Ok(None);
            }
            if let Some(&k) = HAND_ORDER
                .iter()
                .find(|&&k| board_code(Some(k)) == (code, len))
            {
                return Ok(Some(k));
            }
        }
        Err(PackError::BitCount)
    }

    /// Reads a hand code.
    fn hand_kind(&mut self) -> Result<PieceType, PackError> {
        let (mut code, mut len) = (0, 0);
        while len < 5 {
            code |= self.bit()? << len;
            len += 1;
            if let Some(&k) = HAND_ORDER.iter().find(|&&k| hand_code(k) == (code, len)) {
                return Ok(k);
            }
        }
        Err(PackError::BitCount)
    }
}

/// A decoded position without any derived state: what the 256 bits say,
/// for readers (a trainer) that do not need a full [`Position`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawPosition {
    /// The piece on each square (index = file * 9 + rank).
    pub board: [Piece; 81],
    /// Black's and White's hands.
    pub hands: [Hand; 2],
    /// The side to move.
    pub side: Color,
}

impl RawPosition {
    /// The SFEN of this position with move number `game_ply` (at least 1).
    pub fn to_sfen(&self, game_ply: u32) -> String {
        let side = if self.side == Color::Black { 'b' } else { 'w' };
        format!(
            "{} {side} {} {}",
            board_field(&self.board),
            hands_field(&self.hands),
            game_ply.max(1)
        )
    }

    /// The position, validated as an SFEN is (kings, nifu, dead pieces,
    /// the side not to move in check), with move number `game_ply`.
    pub fn to_position(&self, game_ply: u32) -> Result<Position, PackError> {
        Position::from_sfen(&self.to_sfen(game_ply.clamp(1, 999_999))).map_err(PackError::Sfen)
    }
}

impl PackedSfen {
    /// Packs `pos`. Fails for a position without both kings.
    pub fn pack(pos: &Position) -> Result<PackedSfen, PackError> {
        for color in Color::ALL {
            if !pos.has_king(color) {
                return Err(PackError::MissingKing(color));
            }
        }
        let mut out = BitWriter {
            data: [0; PACKED_SFEN_BYTES],
            cursor: 0,
        };
        out.write(pos.side_to_move().index() as u32, 1)?;
        for color in Color::ALL {
            out.write(pos.king_square(color).index() as u32, 7)?;
        }
        // Pieces of each unpromoted kind not yet written: what is left at
        // the end goes to the piece box.
        let mut left = [0i32; PieceType::NUM];
        for kind in HAND_ORDER {
            left[kind.index()] = full_count(kind) as i32;
        }
        for sq in Square::all() {
            let piece = pos.piece_on(sq);
            let Some(kind) = piece.kind() else {
                let (code, len) = board_code(None);
                out.write(code, len)?;
                continue;
            };
            if kind == PieceType::King {
                continue;
            }
            let base = kind.unpromote();
            let (code, len) = board_code(Some(base));
            out.write(code, len)?;
            if base != PieceType::Gold {
                out.write(u32::from(kind.is_promoted()), 1)?;
            }
            out.write(piece.color().index() as u32, 1)?;
            left[base.index()] -= 1;
        }
        for color in Color::ALL {
            for kind in HAND_ORDER {
                let n = pos.hand(color).count(kind);
                for _ in 0..n {
                    let (code, len) = hand_code(kind);
                    out.write(code, len)?;
                    if kind != PieceType::Gold {
                        out.write(0, 1)?;
                    }
                    out.write(color.index() as u32, 1)?;
                }
                left[kind.index()] -= n as i32;
            }
        }
        for kind in HAND_ORDER {
            let n = left[kind.index()];
            if n < 0 {
                return Err(PackError::TooManyPieces(kind));
            }
            for _ in 0..n {
                if kind == PieceType::Gold {
                    // A boxed gold is White's "promoted" silver.
                    let (code, len) = hand_code(PieceType::Silver);
                    out.write(code, len)?;
                    out.write(0b11, 2)?;
                } else {
                    let (code, len) = hand_code(kind);
                    out.write(code, len)?;
                    out.write(0b01, 2)?;
                }
            }
        }
        if out.cursor != TOTAL_BITS {
            return Err(PackError::BitCount);
        }
        Ok(PackedSfen(out.data))
    }

    /// Decodes the bits, checking that they fill exactly 256 bits, that
    /// both kings are on the board and that every kind has its full
    /// complement on the board, in hands and in the piece box. The
    /// position itself is not validated: see [`RawPosition::to_position`].
    pub fn unpack_raw(&self) -> Result<RawPosition, PackError> {
        let mut input = BitReader {
            data: &self.0,
            cursor: 0,
        };
        let side = if input.bit()? == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut board = [Piece::NONE; 81];
        let mut kings = [0usize; 2];
        for color in Color::ALL {
            let sq = input.bits(7)?;
            if sq as usize >= Square::NUM {
                return Err(PackError::BadKingSquare(color, sq));
            }
            kings[color.index()] = sq as usize;
        }
        if kings[0] == kings[1] {
            return Err(PackError::KingsOnOneSquare);
        }
        for color in Color::ALL {
            board[kings[color.index()]] = Piece::new(color, PieceType::King);
        }
        let mut count = [0u32; PieceType::NUM];
        for (sq, square) in board.iter_mut().enumerate() {
            if kings.contains(&sq) {
                continue;
            }
            let Some(base) = input.board_kind()? else {
                continue;
            };
            let promoted = base != PieceType::Gold && input.bit()? == 1;
            let color = if input.bit()? == 0 {
                Color::Black
            } else {
                Color::White
            };
            let kind = if promoted { base.promote() } else { base };
            *square = Piece::new(color, kind);
            count[base.index()] += 1;
        }
        let mut hand_counts = [[0u32; PieceType::NUM]; 2];
        while input.cursor < TOTAL_BITS {
            let kind = input.hand_kind()?;
            let boxed = kind != PieceType::Gold && input.bit()? == 1;
            let white = input.bit()? == 1;
            if boxed {
                // A boxed "White silver" is a boxed gold.
                let real = if kind == PieceType::Silver && white {
                    PieceType::Gold
                } else {
                    kind
                };
                count[real.index()] += 1;
            } else {
                hand_counts[usize::from(white)][kind.index()] += 1;
                count[kind.index()] += 1;
            }
        }
        for kind in HAND_ORDER {
            if count[kind.index()] != full_count(kind) {
                return Err(PackError::PieceCount(kind, count[kind.index()]));
            }
        }
        let mut hands = [Hand::EMPTY; 2];
        for (hand, counts) in hands.iter_mut().zip(hand_counts) {
            for kind in HAND_ORDER {
                if !hand.set(kind, counts[kind.index()]) {
                    return Err(PackError::PieceCount(kind, counts[kind.index()]));
                }
            }
        }
        Ok(RawPosition { board, hands, side })
    }

    /// Decodes and validates the position, with move number `game_ply`.
    pub fn unpack(&self, game_ply: u32) -> Result<Position, PackError> {
        self.unpack_raw()?.to_position(game_ply)
    }
}

/// One training record (YaneuraOu's `PackedSfenValue`, 40 bytes, stored
/// little-endian): a position, its search score and best move, its move
/// number, and how the game ended for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PackedSfenValue {
    /// The position.
    pub sfen: PackedSfen,
    /// Search score from the side to move's point of view (centipawns;
    /// mates near +-32000).
    pub score: i16,
    /// The search's best move, in YaneuraOu's 16-bit encoding, which is
    /// ours: see [`Move::bits`].
    pub mv: u16,
    /// The move number (1 at the start position).
    pub game_ply: u16,
    /// 1 if the side to move went on to win the game, -1 if it lost, 0 for
    /// a draw.
    pub game_result: i8,
    /// Unused; written as 0.
    pub padding: u8,
}

impl PackedSfenValue {
    /// The 40 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[..32].copy_from_slice(&self.sfen.0);
        out[32..34].copy_from_slice(&self.score.to_le_bytes());
        out[34..36].copy_from_slice(&self.mv.to_le_bytes());
        out[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        out[38] = self.game_result as u8;
        out[39] = self.padding;
        out
    }

    /// Reads a record from its 40 bytes (any bytes are a record; see
    /// [`PackedSfenValue::validate`]).
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> PackedSfenValue {
        let mut sfen = [0u8; PACKED_SFEN_BYTES];
        sfen.copy_from_slice(&bytes[..32]);
        PackedSfenValue {
            sfen: PackedSfen(sfen),
            score: i16::from_le_bytes([bytes[32], bytes[33]]),
            mv: u16::from_le_bytes([bytes[34], bytes[35]]),
            game_ply: u16::from_le_bytes([bytes[36], bytes[37]]),
            game_result: bytes[38] as i8,
            padding: bytes[39],
        }
    }

    /// The record's position.
    pub fn position(&self) -> Result<Position, PackError> {
        self.sfen.unpack(u32::from(self.game_ply))
    }

    /// The record's move, if not the all-zero "no move".
    pub fn best_move(&self) -> Option<Move> {
        Move::from_bits(self.mv)
    }

    /// Checks the whole record: the position unpacks and is valid, the
    /// move is legal in it and the result is -1, 0 or 1. Returns the
    /// position and move.
    pub fn validate(&self) -> Result<(Position, Move), PackError> {
        let pos = self.position()?;
        let mv = self
            .best_move()
            .filter(|&m| pos.is_legal(m))
            .ok_or(PackError::IllegalMove(self.mv))?;
        if !(-1..=1).contains(&self.game_result) {
            return Err(PackError::BadResult(self.game_result));
        }
        Ok((pos, mv))
    }
}

#[cfg(test)]
#[path = "packed_tests.rs"]
mod tests;
