//! CSA V2.2 records (floodgate, the CSA server, `match.py`): `V2.2`,
//! `N+`/`N-` names, `$KEY:value` headers, the start as `PI` (with pieces
//! taken off) or `P1`..`P9` rows plus `P+`/`P-` pieces, the side to move,
//! then `+7776FU` moves with `T` times, `'` comments and a `%TORYO`-style
//! end. Statements may share a line, separated by commas. Only the first
//! game of a file (up to `/`) is read.

use super::error::syntax;
use super::{keys, position_from_sfen, EndKind, GameEnd, Record, RecordError, RecordMove};
use crate::hand::MAX_IN_HAND;
use crate::moves::Move;
use crate::position::{board_field, Position};
use crate::types::{Color, Piece, PieceType, Square};

/// CSA `$` keys and the KIF header names they are kept under.
const HEADER_KEYS: [(&str, &str); 6] = [
    ("START_TIME", keys::START_TIME),
    ("END_TIME", keys::END_TIME),
    ("EVENT", keys::EVENT),
    ("SITE", keys::SITE),
    ("TIME_LIMIT", keys::TIME_LIMIT),
    ("OPENING", keys::OPENING),
];

const PIECE_CODES: [(&str, PieceType); 14] = [
    ("FU", PieceType::Pawn),
    ("KY", PieceType::Lance),
    ("KE", PieceType::Knight),
    ("GI", PieceType::Silver),
    ("KA", PieceType::Bishop),
    ("HI", PieceType::Rook),
    ("KI", PieceType::Gold),
    ("OU", PieceType::King),
    ("TO", PieceType::ProPawn),
    ("NY", PieceType::ProLance),
    ("NK", PieceType::ProKnight),
    ("NG", PieceType::ProSilver),
    ("UM", PieceType::Horse),
    ("RY", PieceType::Dragon),
];

fn code_of(kind: PieceType) -> &'static str {
    PIECE_CODES
        .iter()
        .find(|(_, k)| *k == kind)
        .map_or("FU", |(c, _)| c)
}

fn kind_of(code: &str) -> Option<PieceType> {
    PIECE_CODES
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, k)| *k)
}

fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

fn end_code(kind: &EndKind, to_move: Color) -> String {
    match kind {
        EndKind::Resign => "%TORYO".into(),
        EndKind::Mate => "%TSUMI".into(),
        EndKind::Repetition => "%SENNICHITE".into(),
        EndKind::PerpetualCheck => "%OUTE_SENNICHITE".into(),
        EndKind::Impasse => "%JISHOGI".into(),
        EndKind::Timeout => "%TIME_UP".into(),
        EndKind::IllegalMove => "%ILLEGAL_MOVE".into(),
        // The side that just moved broke the rules.
        EndKind::IllegalWin => format!("%{}ILLEGAL_ACTION", sign(to_move.flip())),
        EndKind::DeclareWin => "%KACHI".into(),
        EndKind::Abort => "%CHUDAN".into(),
    }
}

fn parse_end(code: &str, to_move: Color) -> Option<EndKind> {
    Some(match code {
        "%TORYO" => EndKind::Resign,
        "%TSUMI" => EndKind::Mate,
        "%SENNICHITE" => EndKind::Repetition,
        "%OUTE_SENNICHITE" => EndKind::PerpetualCheck,
        "%JISHOGI" | "%HIKIWAKE" | "%MAX_MOVES" => EndKind::Impasse,
        "%TIME_UP" => EndKind::Timeout,
        "%ILLEGAL_MOVE" => EndKind::IllegalMove,
        "%+ILLEGAL_ACTION" | "%-ILLEGAL_ACTION" => {
            let culprit = if code.as_bytes()[1] == b'+' {
                Color::Black
            } else {
                Color::White
            };
            if culprit == to_move {
                EndKind::IllegalMove
            } else {
                EndKind::IllegalWin
            }
        }
        "%KACHI" => EndKind::DeclareWin,
        "%CHUDAN" => EndKind::Abort,
        _ => return None,
    })
}

/// `+7776FU` for legal move `m` in `pos`.
pub fn move_text(pos: &Position, m: Move) -> String {
    let us = pos.side_to_move();
    let sq = |s: Square| format!("{}{}", s.file() + 1, s.rank() + 1);
    match m.dropped_kind() {
        Some(kind) => format!("{}00{}{}", sign(us), sq(m.to()), code_of(kind)),
        None => {
            let kind = pos.piece_on(m.from()).kind_unchecked();
            let after = if m.is_promotion() {
                kind.promote()
            } else {
                kind
            };
            format!(
                "{}{}{}{}",
                sign(us),
                sq(m.from()),
                sq(m.to()),
                code_of(after)
            )
        }
    }
}

/// The `P1`..`P9` rows, `P+`/`P-` hands and side-to-move line of `pos`.
fn position_lines(pos: &Position) -> String {
    let mut out = String::new();
    for rank in 0..9u8 {
        out.push_str(&format!("P{}", rank + 1));
        for file in (0..9u8).rev() {
            let piece = pos.piece_on(Square::new(file, rank));
            match piece.kind() {
                None => out.push_str(" * "),
                Some(kind) => {
                    out.push(sign(piece.color()));
                    out.push_str(code_of(kind));
                }
            }
        }
        out.push('\n');
    }
    for color in Color::ALL {
        let hand = pos.hand(color);
        if hand.is_empty() {
            continue;
        }
        out.push('P');
        out.push(sign(color));
        for kind in PieceType::HAND.iter().rev() {
            for _ in 0..hand.count(*kind) {
                out.push_str("00");
                out.push_str(code_of(*kind));
            }
        }
        out.push('\n');
    }
    out
}

fn comment_lines(out: &mut String, comments: &[String]) {
    for comment in comments {
        for line in comment.lines() {
            out.push('\'');
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// Writes `record` as CSA V2.2.
pub fn write(record: &Record) -> Result<String, RecordError> {
    let positions = record.positions()?;
    let mut out = String::from("V2.2\n");
    if let Some(name) = &record.black {
        out.push_str(&format!("N+{name}\n"));
    }
    if let Some(name) = &record.white {
        out.push_str(&format!("N-{name}\n"));
    }
    for (key, value) in &record.headers {
        match HEADER_KEYS.iter().find(|(_, k)| k == key) {
            Some((csa, _)) => out.push_str(&format!("${csa}:{value}\n")),
            None if key.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') => {
                out.push_str(&format!("${key}:{value}\n"))
            }
            None => out.push_str(&format!("'{key}：{value}\n")),
        }
    }
    comment_lines(&mut out, &record.comments);
    let start = &positions[0];
    if start.to_sfen() == crate::START_SFEN {
        out.push_str("PI\n");
    } else {
        out.push_str(&position_lines(start));
    }
    out.push(sign(start.side_to_move()));
    out.push('\n');
    for (i, rm) in record.moves.iter().enumerate() {
        out.push_str(&move_text(&positions[i], rm.mv));
        out.push('\n');
        if let Some(ms) = rm.time_ms {
            out.push_str(&format!("T{}\n", ms / 1000));
        }
        comment_lines(&mut out, &rm.comments);
    }
    if let Some(end) = &record.end {
        let to_move = positions[record.moves.len()].side_to_move();
        out.push_str(&end_code(&end.kind, to_move));
        out.push('\n');
        if let Some(ms) = end.time_ms {
            out.push_str(&format!("T{}\n", ms / 1000));
        }
        comment_lines(&mut out, &end.comments);
    }
    Ok(out)
}

/// The start position being built from `PI` / `P1`..`P9` / `P+` lines.
struct Setup {
    board: [Piece; 81],
    hands: [[u32; 8]; 2],
    rows_seen: [bool; 9],
    any: bool,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            board: [Piece::NONE; 81],
            hands: [[0; 8]; 2],
            rows_seen: [false; 9],
            any: false,
        }
    }

    fn standard(&mut self) {
        let pos = Position::startpos();
        for sq in Square::all() {
            self.board[sq.index()] = pos.piece_on(sq);
        }
        self.any = true;
    }

    fn line(&mut self, line_no: usize, stmt: &str) -> Result<(), RecordError> {
        let bad = |why: &str| syntax(line_no, format!("{why}: '{}'", crate::text::shorten(stmt)));
        let bytes = stmt.as_bytes();
        self.any = true;
        match bytes.get(1) {
            Some(b'I') => {
                self.standard();
                for item in chunks(&stmt[2..], 4).ok_or_else(|| bad("bad PI line"))? {
                    let sq = square(&item[..2]).ok_or_else(|| bad("bad square in PI"))?;
                    if kind_of(&item[2..]) != self.board[sq.index()].kind() {
                        return Err(bad("PI removes a piece that is not there"));
                    }
                    self.board[sq.index()] = Piece::NONE;
                }
            }
            Some(b'1'..=b'9') => {
                let rank = (bytes[1] - b'1') as usize;
                if std::mem::replace(&mut self.rows_seen[rank], true) {
                    return Err(bad("board row given twice"));
                }
                let row = format!("{:<27}", &stmt[2..]);
                let cells = chunks(&row, 3)
                    .filter(|c| c.len() == 9)
                    .ok_or_else(|| bad("a board row has nine cells of three characters"))?;
                for (i, cell) in cells.iter().enumerate() {
                    let file = 8 - i as u8;
                    let sq = Square::new(file, rank as u8);
                    self.board[sq.index()] = match cell.trim() {
                        "*" | "" => Piece::NONE,
                        _ => cell_piece(cell).ok_or_else(|| bad("bad piece in board row"))?,
                    };
                }
            }
            Some(b'+' | b'-') => {
                let color = if bytes[1] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                for item in chunks(&stmt[2..], 4).ok_or_else(|| bad("bad P+/P- line"))? {
                    if item == "00AL" {
                        self.rest_to_hand(color);
                        continue;
                    }
                    let kind = kind_of(&item[2..]).ok_or_else(|| bad("bad piece"))?;
                    if &item[..2] == "00" {
                        if !PieceType::HAND.contains(&kind) {
                            return Err(bad("only unpromoted pieces go in hand"));
                        }
                        self.hands[color.index()][kind.index()] += 1;
                    } else {
                        let sq = square(&item[..2]).ok_or_else(|| bad("bad square"))?;
                        self.board[sq.index()] = Piece::new(color, kind);
                    }
                }
            }
            _ => return Err(bad("unknown position line")),
        }
        Ok(())
    }

    /// `00AL`: every piece not on the board or in the other hand.
    fn rest_to_hand(&mut self, color: Color) {
        for kind in PieceType::HAND {
            let on_board = self
                .board
                .iter()
                .filter(|p| p.kind().map(PieceType::unpromote) == Some(kind))
                .count() as u32;
            let held: u32 = self.hands.iter().map(|h| h[kind.index()]).sum();
            let rest = MAX_IN_HAND[kind.index()].saturating_sub(on_board + held);
            self.hands[color.index()][kind.index()] += rest;
        }
    }

    fn sfen(&self, side: Color) -> String {
        let board = board_field(&self.board);
        let mut hands = String::new();
        for color in Color::ALL {
            for kind in PieceType::HAND.iter().rev() {
                let n = self.hands[color.index()][kind.index()];
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    let p = Piece::new(color, *kind).sfen();
                    hands.push_str(&p);
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let side = if side == Color::Black { 'b' } else { 'w' };
        format!("{board} {side} {hands} 1")
    }
}

fn chunks(text: &str, size: usize) -> Option<Vec<&str>> {
    if !text.is_ascii() || !text.len().is_multiple_of(size) {
        return None;
    }
    Some(
        (0..text.len() / size)
            .map(|i| &text[i * size..(i + 1) * size])
            .collect(),
    )
}

/// A CSA square (`77`).
fn square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    let (f, r) = (b.first()?.wrapping_sub(b'1'), b.get(1)?.wrapping_sub(b'1'));
    (f < 9 && r < 9 && b.len() == 2).then(|| Square::new(f, r))
}

fn cell_piece(cell: &str) -> Option<Piece> {
    let color = match cell.as_bytes().first()? {
        b'+' => Color::Black,
        b'-' => Color::White,
        _ => return None,
    };
    Some(Piece::new(color, kind_of(cell.get(1..3)?)?))
}

/// Reads the move statement `stmt` (`+7776FU`) in `pos`.
fn parse_move(pos: &Position, stmt: &str) -> Result<Move, String> {
    let b = stmt.as_bytes();
    if b.len() != 7 || !stmt.is_ascii() {
        return Err("a move is a sign, two squares and a piece code (+7776FU)".into());
    }
    let color = if b[0] == b'+' {
        Color::Black
    } else {
        Color::White
    };
    if color != pos.side_to_move() {
        return Err(format!(
            "it is {}'s turn",
            if color == Color::Black {
                "White"
            } else {
                "Black"
            }
        ));
    }
    let kind = kind_of(&stmt[5..7]).ok_or("unknown piece code")?;
    let to = square(&stmt[3..5]).ok_or("bad destination square")?;
    let m = if &stmt[1..3] == "00" {
        if !PieceType::HAND.contains(&kind) {
            return Err("only unpromoted pieces can be dropped".into());
        }
        Move::drop(kind, to)
    } else {
        let from = square(&stmt[1..3]).ok_or("bad origin square")?;
        let Some(moving) = pos
            .piece_on(from)
            .kind()
            .filter(|_| pos.piece_on(from).color() == color)
        else {
            return Err(format!("no piece of the side to move on {}", &stmt[1..3]));
        };
        if moving == kind {
            Move::normal(from, to, false)
        } else if moving.can_promote() && moving.promote() == kind {
            Move::normal(from, to, true)
        } else {
            return Err(format!(
                "the piece on {} is {}, not {}",
                &stmt[1..3],
                code_of(moving),
                &stmt[5..7]
            ));
        }
    };
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err("illegal in this position".into())
    }
}

/// Reads a CSA record (the first game of the file).
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut record = Record::default();
    let mut setup = Setup::new();
    let mut pos: Option<Position> = None;
    let mut any = false;
    let mut last_line = 0;
    'lines: for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        last_line = line_no;
        let line = raw.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            continue;
        }
        any = true;
        if let Some(comment) = line.strip_prefix('\'') {
            if let Some(end) = &mut record.end {
                end.comments.push(comment.to_string());
            } else if let Some(last) = record.moves.last_mut() {
                last.comments.push(comment.to_string());
            } else {
                record.comments.push(comment.to_string());
            }
            continue;
        }
        // P lines hold ' * ' cells and N/$ values may hold commas: only
        // move lines are split.
        let statements: Vec<&str> = if line.starts_with(['+', '-', 'T', '%']) {
            line.split(',').map(str::trim_end).collect()
        } else {
            vec![line.trim_end()]
        };
        for stmt in statements {
            if stmt == "/" {
                break 'lines;
            }
            statement(&mut record, &mut setup, &mut pos, line_no, stmt)?;
        }
    }
    if !any {
        return Err(RecordError::Empty);
    }
    if pos.is_none() {
        if setup.any {
            return Err(syntax(
                last_line,
                "the position has no side-to-move line ('+' or '-')",
            ));
        }
        return Err(syntax(
            last_line,
            "no start position (PI or P1..P9) and no moves",
        ));
    }
    Ok(record)
}

fn statement(
    record: &mut Record,
    setup: &mut Setup,
    pos: &mut Option<Position>,
    line_no: usize,
    stmt: &str,
) -> Result<(), RecordError> {
    let first = stmt.as_bytes().first().copied().unwrap_or(b' ');
    match (first, pos.as_mut()) {
        (b'V', None) => {}
        (b'N', None) => match stmt.get(..2) {
            Some("N+") => record.black = Some(stmt[2..].to_string()),
            Some("N-") => record.white = Some(stmt[2..].to_string()),
            _ => return Err(syntax(line_no, "a name line is N+name or N-name")),
        },
        (b'$', None) => {
            let (key, value) = stmt[1..]
                .split_once(':')
                .ok_or_else(|| syntax(line_no, "a header is $KEY:value"))?;
            let name = HEADER_KEYS
                .iter()
                .find(|(c, _)| *c == key)
                .map_or(key, |(_, k)| k);
            record.headers.push((name.to_string(), value.to_string()));
        }
        (b'P', None) => setup.line(line_no, stmt)?,
        (b'+' | b'-', None) if stmt.len() == 1 => {
            if !setup.any {
                return Err(syntax(
                    line_no,
                    "side to move before the position (PI or P1..P9)",
                ));
            }
            if setup.rows_seen.iter().any(|&s| s) && !setup.rows_seen.iter().all(|&s| s) {
                return Err(syntax(line_no, "the board needs all nine rows P1..P9"));
            }
            let side = if first == b'+' {
                Color::Black
            } else {
                Color::White
            };
            let start = position_from_sfen(&setup.sfen(side))
                .map_err(|e| syntax(line_no, format!("bad start position: {e}")))?;
            record.start_sfen = start.to_sfen();
            *pos = Some(start);
        }
        (b'+' | b'-', Some(p)) => {
            if record.end.is_some() {
                return Err(syntax(line_no, "a move after the end of the game"));
            }
            let number = record.moves.len() + 1;
            let m = parse_move(p, stmt).map_err(|reason| RecordError::Move {
                line: line_no,
                number,
                text: stmt.to_string(),
                reason,
            })?;
            p.do_move(m);
            record.moves.push(RecordMove::new(m));
        }
        (b'T', Some(_)) => {
            let seconds: f64 = stmt[1..]
                .parse()
                .ok()
                .filter(|s: &f64| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| syntax(line_no, format!("bad time '{stmt}'")))?;
            let ms = Some((seconds * 1000.0).round() as u64);
            match (&mut record.end, record.moves.last_mut()) {
                (Some(end), _) => end.time_ms = ms,
                (None, Some(last)) => last.time_ms = ms,
                (None, None) => return Err(syntax(line_no, "a time before the first move")),
            }
        }
        (b'%', Some(p)) => {
            if record.end.is_some() {
                return Err(syntax(line_no, "a second end of the game"));
            }
            let kind = parse_end(stmt, p.side_to_move()).ok_or_else(|| {
                syntax(
                    line_no,
                    format!("unknown end '{}'", crate::text::shorten(stmt)),
                )
            })?;
            record.end = Some(GameEnd::new(kind));
        }
        (_, None) => {
            return Err(syntax(
                line_no,
                format!(
                    "not a header or position line: '{}'",
                    crate::text::shorten(stmt)
                ),
            ))
        }
        (_, Some(_)) => {
            return Err(syntax(
                line_no,
                format!(
                    "not a move, time, comment or end: '{}'",
                    crate::text::shorten(stmt)
                ),
            ))
        }
    }
    Ok(())
}
