//! SFEN parsing and formatting, with errors that say what is wrong and where.

use super::{Position, StateInfo};
use crate::bitboard::Bitboard;
use crate::hand::{Hand, MAX_IN_HAND};
use crate::types::{Color, Piece, PieceType, Square};
use crate::zobrist;
use std::fmt;

/// SFEN of the even-game start position.
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why an SFEN string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Fewer than three or more than four space-separated fields.
    FieldCount(usize),
    /// The board does not have nine ranks separated by `/`.
    RankCount(usize),
    /// A rank describes more or fewer than nine squares.
    RankLength {
        /// Rank letter (`a`..`i`).
        rank: char,
        /// Squares it described.
        squares: usize,
    },
    /// A character that is not a piece letter, digit or `+`.
    BadPieceLetter {
        /// Rank letter.
        rank: char,
        /// The offending character.
        letter: char,
    },
    /// `+` before a piece that cannot promote, or at the end of a rank.
    BadPromotion {
        /// Rank letter.
        rank: char,
    },
    /// A colour has no king.
    MissingKing(Color),
    /// A colour has more than one king.
    ExtraKing(Color),
    /// More pieces of a kind (board and hands) than the game has.
    TooManyPieces {
        /// Upper-case letter of the kind.
        kind: char,
        /// Pieces found.
        count: u32,
        /// Pieces in a game.
        max: u32,
    },
    /// A pawn, lance or knight where it could never move again.
    DeadPiece {
        /// The square.
        square: Square,
        /// The piece's SFEN letter.
        piece: String,
    },
    /// Two unpromoted pawns of one colour on a file.
    Nifu {
        /// USI file number 1..9.
        file: u8,
        /// Owner of the pawns.
        color: Color,
    },
    /// The side-to-move field is not `b` or `w`.
    BadSide(String),
    /// The side that just moved is left in check.
    SideNotToMoveInCheck(Color),
    /// The hand field cannot be read.
    BadHand(String),
    /// The move-number field is not a positive integer.
    BadMoveNumber(String),
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::FieldCount(n) => write!(
                f,
                "expected 3 or 4 fields (board side hands [move]), got {n}"
            ),
            SfenError::RankCount(n) => write!(f, "board has {n} ranks, expected 9"),
            SfenError::RankLength { rank, squares } => write!(
                f,
                "rank {rank} is too {} ({squares} squares, expected 9)",
                if *squares > 9 { "long" } else { "short" }
            ),
            SfenError::BadPieceLetter { rank, letter } => {
                write!(f, "bad piece letter '{letter}' in rank {rank}")
            }
            SfenError::BadPromotion { rank } => {
                write!(f, "'+' not followed by a promotable piece in rank {rank}")
            }
            SfenError::MissingKing(c) => write!(f, "missing {} king", color_name(*c)),
            SfenError::ExtraKing(c) => write!(f, "more than one {} king", color_name(*c)),
            SfenError::TooManyPieces { kind, count, max } => {
                write!(f, "too many pieces of kind {kind}: {count} (at most {max})")
            }
            SfenError::DeadPiece { square, piece } => {
                write!(f, "piece {piece} on {square} could never move")
            }
            SfenError::Nifu { file, color } => {
                write!(
                    f,
                    "two unpromoted {} pawns on file {file} (nifu)",
                    color_name(*color)
                )
            }
            SfenError::BadSide(s) => write!(f, "side to move must be 'b' or 'w', got '{s}'"),
            SfenError::SideNotToMoveInCheck(c) => {
                write!(f, "the side not to move ({}) is in check", color_name(*c))
            }
            SfenError::BadHand(s) => write!(f, "bad hand field: {s}"),
            SfenError::BadMoveNumber(s) => write!(f, "bad move number '{s}'"),
        }
    }
}

impl std::error::Error for SfenError {}

const RANK_LETTERS: &[u8; 9] = b"abcdefghi";

fn parse_board(field: &str) -> Result<[Piece; 81], SfenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    let mut board = [Piece::NONE; 81];
    for (r, text) in ranks.iter().enumerate() {
        let rank_letter = RANK_LETTERS[r] as char;
        // Files are written from 9 down to 1; `col` counts squares from the left.
        let mut col = 0usize;
        let mut promoted = false;
        for &c in text.as_bytes() {
            if c.is_ascii_digit() && !promoted {
                let n = (c - b'0') as usize;
                if n == 0 {
                    return Err(SfenError::BadPieceLetter {
                        rank: rank_letter,
                        letter: '0',
                    });
                }
                col += n;
                continue;
            }
            if c == b'+' && !promoted {
                promoted = true;
                continue;
            }
            let Some(kind) = PieceType::from_letter(c).filter(|_| c.is_ascii_alphabetic()) else {
                if promoted {
                    return Err(SfenError::BadPromotion { rank: rank_letter });
                }
                return Err(SfenError::BadPieceLetter {
                    rank: rank_letter,
                    letter: c as char,
                });
            };
            let kind = if promoted {
                if !kind.can_promote() {
                    return Err(SfenError::BadPromotion { rank: rank_letter });
                }
                kind.promote()
            } else {
                kind
            };
            promoted = false;
            let color = if c.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            if col < 9 {
                board[Square::new(8 - col as u8, r as u8).index()] = Piece::new(color, kind);
            }
            col += 1;
        }
        if promoted {
            return Err(SfenError::BadPromotion { rank: rank_letter });
        }
        if col != 9 {
            return Err(SfenError::RankLength {
                rank: rank_letter,
                squares: col,
            });
        }
    }
    Ok(board)
}

fn parse_hands(field: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::EMPTY; 2];
    if field == "-" {
        return Ok(hands);
    }
    let bytes = field.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let mut n: u32 = 0;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            n = n
                .saturating_mul(10)
                .saturating_add((bytes[i] - b'0') as u32);
            i += 1;
        }
        if i == bytes.len() {
            return Err(SfenError::BadHand(format!("'{field}' ends with a count")));
        }
        if i > start && n == 0 {
            return Err(SfenError::BadHand(format!("zero count in '{field}'")));
        }
        let count = if i == start { 1 } else { n };
        let c = bytes[i];
        let kind = match PieceType::from_letter(c) {
            Some(k) if c.is_ascii_alphabetic() && k != PieceType::King => k,
            _ => {
                return Err(SfenError::BadHand(format!(
                    "'{}' is not a hand piece",
                    c as char
                )))
            }
        };
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let hand = &mut hands[color.index()];
        let total = hand.count(kind).saturating_add(count);
        if total > MAX_IN_HAND[kind as usize] {
            return Err(SfenError::TooManyPieces {
                kind: kind.letter(),
                count: total,
                max: MAX_IN_HAND[kind as usize],
            });
        }
        hand.set(kind, total);
        i += 1;
    }
    Ok(hands)
}

/// The board field of an SFEN: rank a first, file 9 first in each rank,
/// runs of empty squares as digits.
pub fn board_field(board: &[Piece; 81]) -> String {
    let mut out = String::with_capacity(96);
    for rank in 0..9u8 {
        if rank > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for file in (0..9u8).rev() {
            let piece = board[Square::new(file, rank).index()];
            if piece.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push_str(&piece.sfen());
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}

/// The hands field of an SFEN (`-` when both are empty), in the usual
/// order: Black's then White's, rook first and pawn last.
pub fn hands_field(hands: &[Hand; 2]) -> String {
    const ORDER: [PieceType; 7] = [
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Gold,
        PieceType::Silver,
        PieceType::Knight,
        PieceType::Lance,
        PieceType::Pawn,
    ];
    let mut out = String::new();
    for color in Color::ALL {
        for kind in ORDER {
            let n = hands[color.index()].count(kind);
            if n == 0 {
                continue;
            }
            if n > 1 {
                out.push_str(&n.to_string());
            }
            let letter = kind.letter();
            out.push(if color == Color::Black {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// Checks the rules that no real position can break; returns each
/// colour's king square, `None` for a missing king (the caller decides
/// whether that is allowed).
fn validate(board: &[Piece; 81], hands: &[Hand; 2]) -> Result<[Option<Square>; 2], SfenError> {
    let mut kings: [Option<Square>; 2] = [None, None];
    let mut totals = [0u32; PieceType::NUM];
    let mut pawn_files = [[false; 9]; 2];
    for sq in Square::all() {
        let piece = board[sq.index()];
        let Some(kind) = piece.kind() else { continue };
        let color = piece.color();
        totals[kind.unpromote().index()] += 1;
        match kind {
            PieceType::King => {
                if kings[color.index()].is_some() {
                    return Err(SfenError::ExtraKing(color));
                }
                kings[color.index()] = Some(sq);
            }
            PieceType::Pawn | PieceType::Lance | PieceType::Knight => {
                let limit = if kind == PieceType::Knight { 2 } else { 1 };
                if sq.relative_rank(color) < limit {
                    return Err(SfenError::DeadPiece {
                        square: sq,
                        piece: piece.sfen(),
                    });
                }
                if kind == PieceType::Pawn {
                    let seen = &mut pawn_files[color.index()][sq.file() as usize];
                    if *seen {
                        return Err(SfenError::Nifu {
                            file: sq.file() + 1,
                            color,
                        });
                    }
                    *seen = true;
                }
            }
            _ => {}
        }
    }
    for kind in PieceType::HAND {
        let count = totals[kind.index()] + hands[0].count(kind) + hands[1].count(kind);
        let max = MAX_IN_HAND[kind as usize];
        if count > max {
            return Err(SfenError::TooManyPieces {
                kind: kind.letter(),
                count,
                max,
            });
        }
    }
    Ok(kings)
}

/// Where a missing king is recorded: a square on its own colour's last
/// rank, so that even an unguarded "square in front of that king" lookup
/// finds nothing. Every rule that needs the king asks
/// [`Position::has_king`] first; this value is never a real king.
fn absent_king_square(color: Color) -> Square {
    match color {
        Color::Black => Square::new(4, 0),
        Color::White => Square::new(4, 8),
    }
}

impl Position {
    /// Parses an SFEN string (`board side hands [move-number]`).
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        Position::parse_sfen(sfen, false)
    }

    /// Parses a tsume SFEN, where one side (the attacker, by convention)
    /// may have no king at all. A king-less side is never in check, has no
    /// pins and no king moves, and can never be mated; the other side's
    /// moves are not restricted by a king that is not there. Both kings
    /// missing is still an error.
    pub fn from_tsume_sfen(sfen: &str) -> Result<Position, SfenError> {
        Position::parse_sfen(sfen, true)
    }

    fn parse_sfen(sfen: &str, allow_one_missing_king: bool) -> Result<Position, SfenError> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(SfenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(SfenError::BadSide(other.chars().take(16).collect())),
        };
        let hands = parse_hands(fields[2])?;
        let game_ply = match fields.get(3) {
            None => 1,
            Some(text) => match text.parse::<u32>() {
                Ok(n) if (1..1_000_000).contains(&n) => n,
                _ => return Err(SfenError::BadMoveNumber(text.chars().take(16).collect())),
            },
        };
        let kings = match validate(&board, &hands)? {
            [Some(black), Some(white)] => [black, white],
            [None, Some(white)] if allow_one_missing_king => {
                [absent_king_square(Color::Black), white]
            }
            [Some(black), None] if allow_one_missing_king => {
                [black, absent_king_square(Color::White)]
            }
            [None, _] => return Err(SfenError::MissingKing(Color::Black)),
            [_, None] => return Err(SfenError::MissingKing(Color::White)),
        };
        let mut pos = Position {
            board: [Piece::NONE; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; PieceType::NUM],
            hands,
            side,
            game_ply,
            kings,
            states: Vec::with_capacity(256),
        };
        let mut board_key = if side == Color::White {
            zobrist::SIDE
        } else {
            0
        };
        for sq in Square::all() {
            let piece = board[sq.index()];
            if !piece.is_none() {
                pos.put_piece(piece, sq);
                board_key ^= zobrist::piece_square(piece, sq);
            }
        }
        let mut hand_key = 0;
        for color in Color::ALL {
            for kind in PieceType::HAND {
                hand_key ^= zobrist::hand(color, kind, hands[color.index()].count(kind));
            }
        }
        let mover = side.flip();
        if pos.has_king(mover) && pos.is_attacked(side, pos.kings[mover.index()], pos.occupied()) {
            return Err(SfenError::SideNotToMoveInCheck(mover));
        }
        let checkers = if pos.has_king(side) {
            pos.attackers_to(mover, pos.kings[side.index()], pos.occupied())
        } else {
            Bitboard::EMPTY
        };
        pos.states.push(StateInfo {
            board_key,
            hand_key,
            checkers,
            pinned: Bitboard::EMPTY,
            captured: Piece::NONE,
            last_move: None,
            continuous_checks: [0; 2],
            plies_since_null: 0,
        });
        let pinned = pos.compute_pinned(side);
        if let Some(st) = pos.states.last_mut() {
            st.pinned = pinned;
        }
        Ok(pos)
    }

    /// The SFEN string of this position.
    pub fn to_sfen(&self) -> String {
        let mut out = board_field(&self.board);
        out.push(' ');
        out.push(if self.side == Color::Black { 'b' } else { 'w' });
        out.push(' ');
        out.push_str(&hands_field(&self.hands));
        out.push(' ');
        out.push_str(&self.game_ply.to_string());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(sfen: &str) -> SfenError {
        Position::from_sfen(sfen).expect_err(sfen)
    }

    #[test]
    fn start_position_round_trips() {
        let pos = Position::startpos();
        assert_eq!(pos.to_sfen(), START_SFEN);
    }

    #[test]
    fn hands_round_trip_in_canonical_order() {
        let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
        assert_eq!(Position::from_sfen(sfen).unwrap().to_sfen(), sfen);
        let messy = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w 5pGRgsn 1";
        assert_eq!(Position::from_sfen(messy).unwrap().to_sfen(), sfen);
    }

    #[test]
    fn move_number_is_optional() {
        let pos =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -")
                .unwrap();
        assert_eq!(pos.game_ply(), 1);
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1"),
            SfenError::BadPieceLetter {
                rank: 'i',
                letter: 'X'
            }
        ));
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1"),
            SfenError::RankLength {
                rank: 'i',
                squares: 10
            }
        ));
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/8/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            SfenError::RankLength {
                rank: 'd',
                squares: 8
            }
        ));
        assert!(matches!(
            err("lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            SfenError::MissingKing(Color::White)
        ));
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/4K4/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            SfenError::ExtraKing(Color::Black)
        ));
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1"),
            SfenError::TooManyPieces { kind: 'P', .. }
        ));
        assert!(matches!(
            err("Pnsgkgsnl/1r5b1/1pppppppp/9/9/9/1PPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            SfenError::DeadPiece { .. }
        ));
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/1PPPPPPPP/1B5R1/LNSGKGSNL b p 1"),
            SfenError::TooManyPieces {
                kind: 'P',
                count: 19,
                max: 18
            }
        ));
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/P8/PPPPPPPP1/1B5R1/LNSGKGSNL b - 1"),
            SfenError::Nifu {
                file: 9,
                color: Color::Black
            }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K3r w - 1"),
            SfenError::SideNotToMoveInCheck(Color::Black)
        ));
        assert!(matches!(
            err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"),
            SfenError::BadSide(_)
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 b 2K 1"),
            SfenError::BadHand(_)
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 b 3 1"),
            SfenError::BadHand(_)
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 b - 0"),
            SfenError::BadMoveNumber(_)
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4 b - x"),
            SfenError::BadMoveNumber(_)
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/+G3K4 b - 1"),
            SfenError::BadPromotion { rank: 'i' }
        ));
        assert!(matches!(
            err("4k4/9/9/9/9/9/9/9/4K4"),
            SfenError::FieldCount(1)
        ));
    }

    #[test]
    fn every_error_message_is_readable() {
        let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1");
        assert_eq!(e.to_string(), "bad piece letter 'X' in rank i");
    }
}
