//! Japanese move notation, both ways (rules.md, "Japanese game-record
//! notation"): `▲７六歩`, `△同　銀`, `▲５八金右上`, `▲２二角成`, `▲５五角打`.
//!
//! Writing: destination first (or `同　` on the previous move's square),
//! the piece by its current name, then the words that tell identical
//! pieces apart, then `成` / `不成` / `打`. Reading accepts the same text
//! and the common variants (`▽`, `☗☖`, `王`, `龍`, `全圭杏`, ASCII digits,
//! a KIF origin such as `(77)`), and refuses text that fits no legal move
//! or more than one, saying why.

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};
use std::fmt;

/// Full-width file digits, file 1 first.
pub const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Rank kanji, rank 一 (USI `a`) first.
pub const RANK_KANJI: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Black's mark (▲).
pub const BLACK_MARK: char = '▲';
/// White's mark (△, the form GUIs write; ▽ is read too).
pub const WHITE_MARK: char = '△';

/// The mark of `color`'s moves.
pub fn mark(color: Color) -> char {
    match color {
        Color::Black => BLACK_MARK,
        Color::White => WHITE_MARK,
    }
}

/// `７六` for USI `7f`.
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(6);
    s.push(FILE_DIGITS[sq.file() as usize]);
    s.push(RANK_KANJI[sq.rank() as usize]);
    s
}

/// The name a move uses for a piece: 歩 香 桂 銀 角 飛 金 玉 と 成香 成桂
/// 成銀 馬 竜.
pub fn piece_name(kind: PieceType) -> &'static str {
    match kind {
        PieceType::Pawn => "歩",
        PieceType::Lance => "香",
        PieceType::Knight => "桂",
        PieceType::Silver => "銀",
        PieceType::Bishop => "角",
        PieceType::Rook => "飛",
        PieceType::Gold => "金",
        PieceType::King => "玉",
        PieceType::ProPawn => "と",
        PieceType::ProLance => "成香",
        PieceType::ProKnight => "成桂",
        PieceType::ProSilver => "成銀",
        PieceType::Horse => "馬",
        PieceType::Dragon => "竜",
    }
}

/// The one-character name a board diagram uses (杏 圭 全 for the promoted
/// lance, knight and silver; 龍 for the dragon).
pub fn board_char(kind: PieceType) -> char {
    match kind {
        PieceType::ProLance => '杏',
        PieceType::ProKnight => '圭',
        PieceType::ProSilver => '全',
        PieceType::Dragon => '龍',
        other => piece_name(other).chars().next().unwrap_or('歩'),
    }
}

/// The piece kind a one-character board-diagram or move name stands for.
pub fn kind_from_char(c: char) -> Option<PieceType> {
    Some(match c {
        '歩' => PieceType::Pawn,
        '香' => PieceType::Lance,
        '桂' => PieceType::Knight,
        '銀' => PieceType::Silver,
        '角' => PieceType::Bishop,
        '飛' => PieceType::Rook,
        '金' => PieceType::Gold,
        '玉' | '王' => PieceType::King,
        'と' => PieceType::ProPawn,
        '杏' => PieceType::ProLance,
        '圭' => PieceType::ProKnight,
        '全' => PieceType::ProSilver,
        '馬' => PieceType::Horse,
        '竜' | '龍' => PieceType::Dragon,
        _ => return None,
    })
}

/// Reads a piece name at the start of `text`: the kind and the bytes used.
pub fn parse_piece_name(text: &str) -> Option<(PieceType, usize)> {
    for (name, kind) in [
        ("成香", PieceType::ProLance),
        ("成桂", PieceType::ProKnight),
        ("成銀", PieceType::ProSilver),
    ] {
        if text.starts_with(name) {
            return Some((kind, name.len()));
        }
    }
    let c = text.chars().next()?;
    kind_from_char(c).map(|k| (k, c.len_utf8()))
}

/// Kanji numerals 1..=18 (hand counts in board diagrams).
pub fn kanji_number(n: u32) -> String {
    const UNITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => UNITS[n as usize].to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", UNITS[(n % 10) as usize]),
    }
}

/// Reads a kanji numeral of 1..=18 (`二`, `十`, `十八`).
pub fn parse_kanji_number(text: &str) -> Option<u32> {
    let digit = |c: char| {
        RANK_KANJI
            .iter()
            .position(|&k| k == c)
            .map(|i| i as u32 + 1)
    };
    let chars: Vec<char> = text.chars().collect();
    match chars.as_slice() {
        ['十'] => Some(10),
        ['十', c] => digit(*c).map(|d| 10 + d),
        [c] => digit(*c),
        _ => None,
    }
}

/// A digit 1..=9 written full width, in ASCII or as a kanji numeral.
fn digit_value(c: char) -> Option<u8> {
    if let Some(i) = FILE_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8 + 1);
    }
    if let Some(i) = RANK_KANJI.iter().position(|&d| d == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// Where a piece comes from, seen by the mover: from its left, from its
/// right, or from the destination's file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Side {
    Left,
    Right,
    Same,
}

/// How a piece moves, seen by the mover: forward (上), sideways (寄) or
/// backward (引).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Motion {
    Up,
    Sideways,
    Back,
}

fn side_and_motion(us: Color, from: Square, to: Square) -> (Side, Motion) {
    let mut df = from.file() as i8 - to.file() as i8;
    let mut dr = from.rank() as i8 - to.rank() as i8;
    if us == Color::White {
        df = -df;
        dr = -dr;
    }
    // Black sees file 9 on its left and moves towards rank 一.
    let side = match df {
        d if d > 0 => Side::Left,
        d if d < 0 => Side::Right,
        _ => Side::Same,
    };
    let motion = match dr {
        d if d > 0 => Motion::Up,
        d if d < 0 => Motion::Back,
        _ => Motion::Sideways,
    };
    (side, motion)
}

fn motion_word(m: Motion) -> char {
    match m {
        Motion::Up => '上',
        Motion::Sideways => '寄',
        Motion::Back => '引',
    }
}

fn is_long_promoted(kind: PieceType) -> bool {
    matches!(kind, PieceType::Dragon | PieceType::Horse)
}

/// Origins of the legal board moves of a `kind` piece to `to`, once each.
fn origins(pos: &Position, kind: PieceType, to: Square) -> Vec<Square> {
    let mut out: Vec<Square> = Vec::new();
    for m in pos.legal_moves() {
        if m.is_drop() || m.to() != to || out.contains(&m.from()) {
            continue;
        }
        if pos.piece_on(m.from()).kind() == Some(kind) {
            out.push(m.from());
        }
    }
    out
}

/// The words (左/右/直 then 上/寄/引) that single out the piece on `from`
/// among the identical pieces that can also move to `to`; empty when no
/// other can.
fn disambiguation(pos: &Position, kind: PieceType, from: Square, to: Square) -> String {
    let us = pos.side_to_move();
    let others: Vec<(Side, Motion)> = origins(pos, kind, to)
        .into_iter()
        .filter(|&sq| sq != from)
        .map(|sq| side_and_motion(us, sq, to))
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let (side, motion) = side_and_motion(us, from, to);
    let same_motion: Vec<Side> = others
        .iter()
        .filter(|o| o.1 == motion)
        .map(|o| o.0)
        .collect();
    let same_side = others.iter().any(|o| o.0 == side);
    let mut out = String::new();
    if let Some(&other_side) = same_motion.first() {
        match side {
            Side::Left => out.push('左'),
            Side::Right => out.push('右'),
            // Dragons and horses never use 直: the one on the destination's
            // file is named against the other (there are only two).
            Side::Same if is_long_promoted(kind) => match other_side {
                Side::Left => out.push('右'),
                Side::Right => out.push('左'),
                Side::Same => {}
            },
            Side::Same => {
                // Only one piece can come straight up, so 直 says it all.
                out.push('直');
                return out;
            }
        }
    }
    if same_motion.is_empty() || same_side {
        out.push(motion_word(motion));
    }
    out
}

/// Whether the board move `m` of `kind` may promote (so that not promoting
/// is written 不成).
fn could_promote(us: Color, kind: PieceType, m: Move) -> bool {
    kind.can_promote() && (m.from().in_promotion_zone(us) || m.to().in_promotion_zone(us))
}

/// The notation of legal move `m` without the side mark: `７六歩`,
/// `同　銀`, `５八金右上`, `２二角成`, `５五角打`. `previous` is the
/// destination of the move before, for 同.
pub fn move_body(pos: &Position, m: Move, previous: Option<Square>) -> String {
    let to = m.to();
    let mut out = destination(to, previous);
    if let Some(kind) = m.dropped_kind() {
        out.push_str(piece_name(kind));
        // 打 only when a piece of that kind on the board could go there too.
        if !origins(pos, kind, to).is_empty() {
            out.push('打');
        }
        return out;
    }
    let kind = pos.piece_on(m.from()).kind_unchecked();
    out.push_str(piece_name(kind));
    out.push_str(&disambiguation(pos, kind, m.from(), to));
    if m.is_promotion() {
        out.push('成');
    } else if could_promote(pos.side_to_move(), kind, m) {
        out.push_str("不成");
    }
    out
}

/// `７六` or, on the previous move's square, `同　`.
pub fn destination(to: Square, previous: Option<Square>) -> String {
    if previous == Some(to) {
        "同　".to_string()
    } else {
        square_name(to)
    }
}

/// The notation of legal move `m` with the mover's mark: `▲７六歩`.
pub fn move_text(pos: &Position, m: Move, previous: Option<Square>) -> String {
    let mut out = String::new();
    out.push(mark(pos.side_to_move()));
    out.push_str(&move_body(pos, m, previous));
    out
}

/// A line of moves from `pos` as one string (`▲７六歩△３四歩`), for
/// reading lines. Stops at the first move that is not legal.
pub fn line_text(pos: &Position, moves: &[Move], previous: Option<Square>) -> String {
    let mut p = pos.clone();
    let mut prev = previous;
    let mut out = String::new();
    for &m in moves {
        if !p.is_legal(m) {
            break;
        }
        out.push_str(&move_text(&p, m, prev));
        p.do_move(m);
        prev = Some(m.to());
    }
    out
}

/// Why a piece of Japanese move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text does not have the shape of a move.
    Syntax {
        /// The text.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The mark says the other side is to move.
    WrongSide {
        /// The side that is to move.
        to_move: Color,
    },
    /// `同` with no previous move.
    NoPreviousMove,
    /// No piece of that kind can reach the square, and none can be dropped there.
    NoPiece {
        /// The piece name.
        piece: &'static str,
        /// The destination.
        to: String,
    },
    /// `打` (or a drop by default) of a piece that cannot be dropped there.
    BadDrop {
        /// The piece name.
        piece: &'static str,
        /// The destination.
        to: String,
    },
    /// The move must promote: write 成.
    MustPromote,
    /// `成` on a move that cannot promote.
    CannotPromote,
    /// The words fit none of the pieces that can go there.
    NoMatch {
        /// The origins that were possible (Japanese squares).
        origins: Vec<String>,
    },
    /// More than one piece fits the text.
    Ambiguous {
        /// The origins that fit (Japanese squares).
        origins: Vec<String>,
    },
    /// A KIF origin such as `(77)` that holds no such piece or cannot move there.
    BadOrigin {
        /// The origin as written.
        origin: String,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax { text, reason } => {
                write!(
                    f,
                    "'{}' is not a move: {reason}",
                    crate::text::shorten(text)
                )
            }
            NotationError::WrongSide { to_move } => write!(
                f,
                "the mark says {} moves, but it is {}'s turn",
                side_word(to_move.flip()),
                side_word(*to_move)
            ),
            NotationError::NoPreviousMove => write!(f, "同 but there is no previous move"),
            NotationError::NoPiece { piece, to } => {
                write!(
                    f,
                    "no {piece} can move to {to} and none can be dropped there"
                )
            }
            NotationError::BadDrop { piece, to } => {
                write!(
                    f,
                    "{piece} cannot be dropped on {to} (none in hand, or an illegal drop)"
                )
            }
            NotationError::MustPromote => write!(f, "the piece must promote here: write 成"),
            NotationError::CannotPromote => write!(f, "成, but this move cannot promote"),
            NotationError::NoMatch { origins } => write!(
                f,
                "the words fit none of the pieces that can go there (from {})",
                origins.join(", ")
            ),
            NotationError::Ambiguous { origins } => write!(
                f,
                "ambiguous: pieces from {} can all go there; add 左/右/直/上/寄/引",
                origins.join(" and ")
            ),
            NotationError::BadOrigin { origin } => {
                write!(
                    f,
                    "origin ({origin}) holds no such piece that can make this move"
                )
            }
        }
    }
}

impl std::error::Error for NotationError {}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::Black => "Black (▲)",
        Color::White => "White (△)",
    }
}

/// What a move text says, before the position is consulted.
#[derive(Debug, Default)]
struct Parsed {
    mark: Option<Color>,
    to: Option<Square>,
    same: bool,
    kind: Option<PieceType>,
    side: Option<char>,
    motion: Option<char>,
    promote: Option<bool>,
    drop: bool,
    origin: Option<(u8, u8)>,
}

fn is_space(c: char) -> bool {
    c == ' ' || c == '　' || c == '\t'
}

fn syntax(text: &str, reason: &'static str) -> NotationError {
    NotationError::Syntax {
        text: text.to_string(),
        reason,
    }
}

fn parse_text(text: &str) -> Result<Parsed, NotationError> {
    let mut p = Parsed::default();
    let mut rest = text.trim_matches(is_space);
    if let Some(c) = rest.chars().next() {
        p.mark = match c {
            '▲' | '☗' => Some(Color::Black),
            '△' | '▽' | '☖' => Some(Color::White),
            _ => None,
        };
        if p.mark.is_some() {
            rest = &rest[c.len_utf8()..];
        }
    }
    if let Some(after) = rest.strip_prefix('同') {
        p.same = true;
        rest = after.trim_start_matches(is_space);
    } else {
        let mut chars = rest.chars();
        let (Some(f), Some(r)) = (chars.next(), chars.next()) else {
            return Err(syntax(text, "no destination square"));
        };
        let (Some(file), Some(rank)) = (digit_value(f), digit_value(r)) else {
            return Err(syntax(text, "no destination square"));
        };
        p.to = Some(Square::new(file - 1, rank - 1));
        rest = &rest[f.len_utf8() + r.len_utf8()..];
        // `▲２四同歩` style: a square followed by 同.
        if let Some(after) = rest.strip_prefix('同') {
            p.same = true;
            rest = after;
        }
        rest = rest.trim_start_matches(is_space);
    }
    let Some((kind, used)) = parse_piece_name(rest) else {
        return Err(syntax(text, "no piece name after the square"));
    };
    p.kind = Some(kind);
    rest = &rest[used..];
    while let Some(c) = rest.chars().next() {
        let len = c.len_utf8();
        match c {
            '左' | '右' | '直' if p.side.is_none() => p.side = Some(c),
            '上' | '行' | '入' | '寄' | '引' if p.motion.is_none() => {
                p.motion = Some(if c == '上' || c == '寄' || c == '引' {
                    c
                } else {
                    '上'
                })
            }
            '成' if p.promote.is_none() && !p.drop => p.promote = Some(true),
            '不' | '生' if p.promote.is_none() && !p.drop => {
                if c == '不' {
                    let Some(after) = rest[len..].strip_prefix('成') else {
                        return Err(syntax(text, "不 without 成"));
                    };
                    rest = after;
                    p.promote = Some(false);
                    continue;
                }
                p.promote = Some(false);
            }
            '打' if !p.drop && p.promote.is_none() => p.drop = true,
            '(' | '（' => {
                let (origin, used) = parse_origin(&rest[len..])
                    .ok_or_else(|| syntax(text, "bad origin in parentheses"))?;
                p.origin = Some(origin);
                rest = &rest[len + used..];
                continue;
            }
            c if is_space(c) => {}
            _ => return Err(syntax(text, "unexpected character after the piece")),
        }
        rest = &rest[len..];
    }
    if p.drop && (p.side.is_some() || p.motion.is_some() || p.origin.is_some()) {
        return Err(syntax(text, "打 with words that describe a board move"));
    }
    Ok(p)
}

/// `77)` after the opening parenthesis: (file, rank) and the bytes used.
fn parse_origin(text: &str) -> Option<((u8, u8), usize)> {
    let mut chars = text.char_indices();
    let (_, f) = chars.next()?;
    let (_, r) = chars.next()?;
    let (end, close) = chars.next()?;
    if close != ')' && close != '）' {
        return None;
    }
    let file = digit_value(f).or(if f == '0' { Some(0) } else { None })?;
    let rank = digit_value(r).or(if r == '0' { Some(0) } else { None })?;
    Some(((file, rank), end + close.len_utf8()))
}

/// Reads one move in Japanese notation (with or without mark, KIF origin
/// or KI2 words) in `pos`; `previous` is the destination of the move
/// before, for 同.
pub fn parse_move(
    pos: &Position,
    text: &str,
    previous: Option<Square>,
) -> Result<Move, NotationError> {
    let p = parse_text(text)?;
    let us = pos.side_to_move();
    if let Some(c) = p.mark {
        if c != us {
            return Err(NotationError::WrongSide { to_move: us });
        }
    }
    let to = match (p.to, p.same) {
        (Some(sq), _) => sq,
        (None, _) => previous.ok_or(NotationError::NoPreviousMove)?,
    };
    let kind = p.kind.unwrap_or(PieceType::Pawn);
    let to_name = square_name(to);
    if let Some((file, rank)) = p.origin {
        if file == 0 && rank == 0 {
            return resolve_drop(pos, kind, to, &to_name);
        }
        return resolve_origin(pos, kind, to, (file, rank), p.promote);
    }
    let from_board = origins(pos, kind, to);
    if p.drop {
        return resolve_drop(pos, kind, to, &to_name);
    }
    if from_board.is_empty() {
        // No piece on the board can go there: a drop, written without 打.
        let plain = p.side.is_none() && p.motion.is_none() && p.promote.is_none();
        let in_hand = can_drop_kind(kind) && pos.hand(us).has(kind);
        if !plain || !in_hand {
            return Err(NotationError::NoPiece {
                piece: piece_name(kind),
                to: to_name,
            });
        }
        return resolve_drop(pos, kind, to, &to_name);
    }
    let mut candidates: Vec<Square> = from_board
        .iter()
        .copied()
        .filter(|&from| fits_words(us, kind, from, to, p.side, p.motion))
        .collect();
    if is_long_promoted(kind) && candidates.len() == 2 && matches!(p.side, Some('左' | '右')) {
        // 竜左 / 馬右: the one on the destination's file was named
        // against the other; when both fit, the word meant the other one.
        candidates.retain(|&from| side_and_motion(us, from, to).0 != Side::Same);
    }
    let names = |v: &[Square]| v.iter().map(|&s| square_name(s)).collect::<Vec<_>>();
    let from = match candidates.as_slice() {
        [one] => *one,
        [] => {
            return Err(NotationError::NoMatch {
                origins: names(&from_board),
            })
        }
        many => {
            return Err(NotationError::Ambiguous {
                origins: names(many),
            })
        }
    };
    promotion_choice(pos, from, to, p.promote)
}

fn can_drop_kind(kind: PieceType) -> bool {
    PieceType::HAND.contains(&kind)
}

fn resolve_drop(
    pos: &Position,
    kind: PieceType,
    to: Square,
    to_name: &str,
) -> Result<Move, NotationError> {
    if can_drop_kind(kind) {
        let m = Move::drop(kind, to);
        if pos.is_legal(m) {
            return Ok(m);
        }
    }
    Err(NotationError::BadDrop {
        piece: piece_name(kind),
        to: to_name.to_string(),
    })
}

fn resolve_origin(
    pos: &Position,
    kind: PieceType,
    to: Square,
    (file, rank): (u8, u8),
    promote: Option<bool>,
) -> Result<Move, NotationError> {
    let bad = || NotationError::BadOrigin {
        origin: format!("{file}{rank}"),
    };
    if !(1..=9).contains(&file) || !(1..=9).contains(&rank) {
        return Err(bad());
    }
    let from = Square::new(file - 1, rank - 1);
    if from == to || pos.piece_on(from).kind() != Some(kind) {
        return Err(bad());
    }
    promotion_choice(pos, from, to, promote).map_err(|e| match e {
        NotationError::NoPiece { .. } => bad(),
        other => other,
    })
}

/// The legal move from `from` to `to` with the promotion the text asked for
/// (`None`: not written, which means no promotion).
fn promotion_choice(
    pos: &Position,
    from: Square,
    to: Square,
    promote: Option<bool>,
) -> Result<Move, NotationError> {
    let plain = Move::normal(from, to, false);
    let promoted = Move::normal(from, to, true);
    let (plain_ok, promoted_ok) = (pos.is_legal(plain), pos.is_legal(promoted));
    match promote {
        Some(true) if promoted_ok => Ok(promoted),
        Some(true) => Err(NotationError::CannotPromote),
        _ if plain_ok => Ok(plain),
        _ if promoted_ok => Err(NotationError::MustPromote),
        _ => Err(NotationError::NoPiece {
            piece: piece_name(pos.piece_on(from).kind_unchecked()),
            to: square_name(to),
        }),
    }
}

fn fits_words(
    us: Color,
    kind: PieceType,
    from: Square,
    to: Square,
    side_word: Option<char>,
    motion: Option<char>,
) -> bool {
    let (side, mot) = side_and_motion(us, from, to);
    let side_ok = match side_word {
        None => true,
        Some('直') => side == Side::Same && mot == Motion::Up,
        // A dragon or horse on the destination's file may be either.
        Some('左') if is_long_promoted(kind) => side != Side::Right,
        Some('右') if is_long_promoted(kind) => side != Side::Left,
        Some('左') => side == Side::Left,
        Some(_) => side == Side::Right,
    };
    side_ok && motion.is_none_or(|w| motion_word(mot) == w)
}

#[cfg(test)]
#[path = "notation_tests.rs"]
mod tests;
