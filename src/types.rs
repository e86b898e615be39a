//! Small vocabulary types: colours, squares, piece types and pieces.
//!
//! Squares are numbered file-major from Black's point of view: `1a` is 0,
//! `1i` is 8, `2a` is 9 and `9i` is 80. A file is then nine contiguous bits
//! of a [`crate::Bitboard`], which makes lance attacks and file masks cheap.

use std::fmt;

/// The two players. Black (sente) moves first in even games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    /// Sente, the first player; upper-case letters in SFEN.
    Black = 0,
    /// Gote, the second player; lower-case letters in SFEN.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: for indexing tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A square of the 9x9 board: `file * 9 + rank`, both counted from 0.
///
/// File 0 is USI file `1` (Black's right-hand edge), rank 0 is USI rank `a`
/// (White's back rank).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const NUM: usize = 81;

    /// The square at `file` (0..9, USI file minus one) and `rank` (0..9, `a` = 0).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 9 && rank < 9);
        Square(file * 9 + rank)
    }

    /// The square with index `i` (0..81), if in range.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < Self::NUM {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with index `i`; the caller guarantees `i < 81`.
    #[inline]
    pub const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < Self::NUM);
        Square(i as u8)
    }

    /// Index 0..81.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (USI file minus one).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9
    }

    /// Rank 0..9 (`a` = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9
    }

    /// The rank as seen by `color`: 0 is the far (last) rank for that side.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// Whether the square is in `color`'s promotion zone (its three far ranks).
    #[inline]
    pub const fn in_promotion_zone(self, color: Color) -> bool {
        self.relative_rank(color) < 3
    }

    /// The same square seen from the other side of the board (180° turn).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f >= 0 && f < 9 && r >= 0 && r < 9 {
            Some(Square::new(f as u8, r as u8))
        } else {
            None
        }
    }

    /// Iterator over all 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::NUM as u8).map(Square)
    }

    /// Parses a USI square such as `7g`.
    pub fn from_usi(text: &[u8]) -> Option<Square> {
        if text.len() != 2 {
            return None;
        }
        let file = text[0].wrapping_sub(b'1');
        let rank = text[1].wrapping_sub(b'a');
        if file < 9 && rank < 9 {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file() + 1, (b'a' + self.rank()) as char)
    }
}

/// Kind of piece, without colour. Promoted kinds are the base kind plus
/// [`PieceType::PROMOTED_BIT`]; the first seven are the kinds a hand can hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// Pawn (歩).
    Pawn = 1,
    /// Lance (香).
    Lance = 2,
    /// Knight (桂).
    Knight = 3,
    /// Silver general (銀).
    Silver = 4,
    /// Bishop (角).
    Bishop = 5,
    /// Rook (飛).
    Rook = 6,
    /// Gold general (金).
    Gold = 7,
    /// King (玉/王).
    King = 8,
    /// Promoted pawn (と).
    ProPawn = 9,
    /// Promoted lance (成香).
    ProLance = 10,
    /// Promoted knight (成桂).
    ProKnight = 11,
    /// Promoted silver (成銀).
    ProSilver = 12,
    /// Horse, promoted bishop (馬).
    Horse = 13,
    /// Dragon, promoted rook (竜).
    Dragon = 14,
}

impl PieceType {
    /// Size of tables indexed by piece type (index 0 unused).
    pub const NUM: usize = 15;
    /// Added to a promotable kind to get its promoted kind.
    pub const PROMOTED_BIT: u8 = 8;
    /// Every kind, in value order.
    pub const ALL: [PieceType; 14] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
        PieceType::King,
        PieceType::ProPawn,
        PieceType::ProLance,
        PieceType::ProKnight,
        PieceType::ProSilver,
        PieceType::Horse,
        PieceType::Dragon,
    ];
    /// The kinds that can be held in hand, in SFEN hand order is R B G S N L P;
    /// this list is in value order.
    pub const HAND: [PieceType; 7] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
    ];

    /// The kind with numeric value `v` (1..=14).
    #[inline]
    pub const fn from_u8(v: u8) -> Option<PieceType> {
        if v >= 1 && v <= 14 {
            Some(Self::ALL[(v - 1) as usize])
        } else {
            None
        }
    }

    /// Table index 1..=14.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this kind can promote (pawn, lance, knight, silver, bishop, rook).
    #[inline]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= PieceType::Rook as u8
    }

    /// Whether this is a promoted kind.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) > PieceType::King as u8
    }

    /// The promoted kind; unchanged if it cannot promote.
    #[inline]
    pub const fn promote(self) -> PieceType {
        if self.can_promote() {
            Self::ALL[(self as u8 + Self::PROMOTED_BIT - 1) as usize]
        } else {
            self
        }
    }

    /// The unpromoted kind (what a captured piece becomes in hand).
    #[inline]
    pub const fn unpromote(self) -> PieceType {
        if self.is_promoted() {
            Self::ALL[(self as u8 - Self::PROMOTED_BIT - 1) as usize]
        } else {
            self
        }
    }

    /// Upper-case SFEN letter of the base kind.
    pub const fn letter(self) -> char {
        match self.unpromote() {
            PieceType::Pawn => 'P',
            PieceType::Lance => 'L',
            PieceType::Knight => 'N',
            PieceType::Silver => 'S',
            PieceType::Bishop => 'B',
            PieceType::Rook => 'R',
            PieceType::Gold => 'G',
            _ => 'K',
        }
    }

    /// The unpromoted kind for an SFEN letter (either case).
    pub const fn from_letter(c: u8) -> Option<PieceType> {
        match c.to_ascii_uppercase() {
            b'P' => Some(PieceType::Pawn),
            b'L' => Some(PieceType::Lance),
            b'N' => Some(PieceType::Knight),
            b'S' => Some(PieceType::Silver),
            b'B' => Some(PieceType::Bishop),
            b'R' => Some(PieceType::Rook),
            b'G' => Some(PieceType::Gold),
            b'K' => Some(PieceType::King),
            _ => None,
        }
    }

    /// Whether the kind moves like a gold (gold and the four small promoted pieces).
    #[inline]
    pub const fn moves_like_gold(self) -> bool {
        matches!(
            self,
            PieceType::Gold
                | PieceType::ProPawn
                | PieceType::ProLance
                | PieceType::ProKnight
                | PieceType::ProSilver
        )
    }
}

/// A coloured piece, or nothing: `kind | color << 4`, 0 for an empty square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    /// An empty square.
    pub const NONE: Piece = Piece(0);
    /// Size of tables indexed by piece value.
    pub const NUM: usize = 32;
    const COLOR_SHIFT: u8 = 4;

    /// A `kind` piece owned by `color`.
    #[inline]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(kind as u8 | (color as u8) << Self::COLOR_SHIFT)
    }

    /// Whether this is an empty square.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Raw value (0..32), for table indexing.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The owner; meaningless for [`Piece::NONE`].
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 >> Self::COLOR_SHIFT == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The kind, or `None` for an empty square.
    #[inline]
    pub const fn kind(self) -> Option<PieceType> {
        PieceType::from_u8(self.0 & 0xF)
    }

    /// The kind of a piece known to be present.
    #[inline]
    pub fn kind_unchecked(self) -> PieceType {
        debug_assert!(!self.is_none());
        match PieceType::from_u8(self.0 & 0xF) {
            Some(k) => k,
            None => PieceType::Pawn,
        }
    }

    /// SFEN text of the piece (`P`, `+p`, ...); empty for no piece.
    pub fn sfen(self) -> String {
        let Some(kind) = self.kind() else {
            return String::new();
        };
        let letter = if self.color() == Color::Black {
            kind.letter()
        } else {
            kind.letter().to_ascii_lowercase()
        };
        if kind.is_promoted() {
            format!("+{letter}")
        } else {
            letter.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates_follow_usi() {
        let sq = Square::from_usi(b"7g").unwrap();
        assert_eq!(sq.file(), 6);
        assert_eq!(sq.rank(), 6);
        assert_eq!(sq.to_string(), "7g");
        assert_eq!(Square::from_usi(b"1a").unwrap().index(), 0);
        assert_eq!(Square::from_usi(b"9i").unwrap().index(), 80);
        assert!(Square::from_usi(b"0a").is_none());
        assert!(Square::from_usi(b"1j").is_none());
    }

    #[test]
    fn promotion_round_trips() {
        for kind in PieceType::ALL {
            assert_eq!(kind.promote().unpromote(), kind.unpromote());
            if kind.can_promote() {
                assert!(kind.promote().is_promoted());
            }
        }
        assert_eq!(PieceType::Rook.promote(), PieceType::Dragon);
        assert_eq!(PieceType::Horse.unpromote(), PieceType::Bishop);
        assert_eq!(PieceType::Gold.promote(), PieceType::Gold);
    }

    #[test]
    fn pieces_pack_colour_and_kind() {
        let p = Piece::new(Color::White, PieceType::Dragon);
        assert_eq!(p.color(), Color::White);
        assert_eq!(p.kind(), Some(PieceType::Dragon));
        assert_eq!(p.sfen(), "+r");
        assert!(Piece::NONE.is_none());
    }
}
