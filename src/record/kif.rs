//! KIF: header lines, then one numbered line per move with its origin and
//! time (`   1 ７六歩(77)   ( 0:01/00:00:01)`), `*` comments under the move
//! they belong to, and the end as a move word (`投了`) and a `まで` line.
//!
//! KIF move lines name the origin, so they carry neither the 左/右/上...
//! words nor 不成 (readers such as cshogi's refuse 不成 there); both are
//! accepted when reading. A `変化：` line ends the main line: variations
//! are not read.

use super::error::syntax;
use super::kakinoki::{self, Preamble};
use super::notation::{self, piece_name};
use super::{GameEnd, Record, RecordError, RecordMove};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Square};

/// The column header of the move section.
pub const MOVES_HEADER: &str = "手数----指手---------消費時間--";

/// The KIF text of legal move `m`: `７六歩(77)`, `同　銀(31)`, `２二角成(88)`,
/// `５五角打`.
pub fn move_body(pos: &Position, m: Move, previous: Option<Square>) -> String {
    let mut out = notation::destination(m.to(), previous);
    if let Some(kind) = m.dropped_kind() {
        out.push_str(piece_name(kind));
        out.push('打');
        return out;
    }
    let from = m.from();
    out.push_str(piece_name(pos.piece_on(from).kind_unchecked()));
    if m.is_promotion() {
        out.push('成');
    }
    out.push_str(&format!("({}{})", from.file() + 1, from.rank() + 1));
    out
}

/// Columns `text` takes in a fixed-width font (full-width characters take two).
pub fn display_width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// `( 0:01/00:00:01)`: this move's time and the mover's total, in seconds.
fn time_text(seconds: u64, total: u64) -> String {
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        seconds / 60,
        seconds % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// One numbered line: number, body padded to a column, time if known.
fn numbered_line(number: usize, body: &str, time: Option<(u64, u64)>) -> String {
    let mut line = format!("{number:>4} {body}");
    if let Some((seconds, total)) = time {
        let pad = 14usize.saturating_sub(display_width(body));
        line.push_str(&" ".repeat(pad));
        line.push_str(&time_text(seconds, total));
    }
    line.push('\n');
    line
}

/// Writes `record` as KIF.
pub fn write(record: &Record) -> Result<String, RecordError> {
    let positions = record.positions()?;
    let mut out = String::from("# KIF形式棋譜ファイル written by gyoku\n");
    out.push_str(&kakinoki::write_preamble(record, &positions[0]));
    out.push_str(MOVES_HEADER);
    out.push('\n');
    let mut totals = [0u64; 2];
    let mut previous = None;
    for (i, rm) in record.moves.iter().enumerate() {
        let pos = &positions[i];
        let body = move_body(pos, rm.mv, previous);
        let time = rm.time_ms.map(|ms| {
            let side = pos.side_to_move().index();
            totals[side] += ms / 1000;
            (ms / 1000, totals[side])
        });
        out.push_str(&numbered_line(i + 1, &body, time));
        write_comments(&mut out, &rm.comments);
        previous = Some(rm.mv.to());
    }
    if let Some(end) = &record.end {
        let n = record.moves.len();
        let side = positions[n].side_to_move().index();
        let time = end.time_ms.map(|ms| (ms / 1000, totals[side] + ms / 1000));
        out.push_str(&numbered_line(n + 1, kakinoki::end_word(&end.kind), time));
        write_comments(&mut out, &end.comments);
        if let Some(line) = kakinoki::result_line(record) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

fn write_comments(out: &mut String, comments: &[String]) {
    for comment in comments {
        for line in comment.lines() {
            out.push('*');
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// Splits a trailing `( 0:01/00:00:01)` (and a `+` branch mark) off a move
/// line's body; returns the body and the move's time in milliseconds.
fn split_time(line_no: usize, text: &str) -> Result<(String, Option<u64>), RecordError> {
    let text = text.trim_end_matches(|c: char| c == '+' || c.is_whitespace() || c == '　');
    let Some(open) = text.rfind('(') else {
        return Ok((text.to_string(), None));
    };
    let inner = text[open + 1..].trim_end_matches(')');
    if !inner.contains(':') {
        return Ok((text.to_string(), None)); // an origin such as (77)
    }
    let this = inner.split('/').next().unwrap_or("").trim();
    let parts: Vec<&str> = this.split(':').map(str::trim).collect();
    let numbers: Option<Vec<u64>> = parts.iter().map(|p| p.parse().ok()).collect();
    let seconds = match numbers.as_deref() {
        Some([m, s]) => m * 60 + s,
        Some([h, m, s]) => h * 3600 + m * 60 + s,
        _ => return Err(syntax(line_no, format!("bad time '({inner})'"))),
    };
    Ok((text[..open].trim_end().to_string(), Some(seconds * 1000)))
}

/// Reader state shared with KI2: the record so far, the position, where
/// comments go.
pub(super) struct Moves {
    pub record: Record,
    pub pos: Position,
    pub previous: Option<Square>,
}

impl Moves {
    pub fn new(preamble: Preamble, line_no: usize) -> Result<Moves, RecordError> {
        let pos = preamble.start(line_no)?;
        let mut record = Record::new(&pos);
        preamble.fill(&mut record);
        Ok(Moves {
            record,
            pos,
            previous: None,
        })
    }

    /// Plays `text` (Japanese notation) as the next move.
    pub fn play(
        &mut self,
        line_no: usize,
        text: &str,
        time_ms: Option<u64>,
    ) -> Result<(), RecordError> {
        if self.record.end.is_some() {
            return Err(syntax(line_no, "a move after the end of the game"));
        }
        let number = self.record.moves.len() + 1;
        let m = notation::parse_move(&self.pos, text, self.previous).map_err(|e| {
            RecordError::Move {
                line: line_no,
                number,
                text: text.to_string(),
                reason: e.to_string(),
            }
        })?;
        self.pos.do_move(m);
        self.previous = Some(m.to());
        let mut rm = RecordMove::new(m);
        rm.time_ms = time_ms;
        self.record.moves.push(rm);
        Ok(())
    }

    /// Attaches a comment line to the last move, the end, or the game.
    pub fn comment(&mut self, text: &str) {
        let text = text.to_string();
        if let Some(end) = &mut self.record.end {
            end.comments.push(text);
        } else if let Some(last) = self.record.moves.last_mut() {
            last.comments.push(text);
        } else {
            self.record.comments.push(text);
        }
    }

    /// The side to move now.
    pub fn to_move(&self) -> Color {
        self.pos.side_to_move()
    }
}

/// Reads a KIF record (main line only).
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut preamble = Preamble::default();
    let mut moves: Option<Moves> = None;
    let mut first_number: Option<usize> = None;
    let mut any = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim_end_matches(['\r', ' ', '　', '\t']);
        if line.trim_start().is_empty() || line.starts_with('#') || line.starts_with('&') {
            continue;
        }
        any = true;
        if let Some(comment) = line.strip_prefix('*') {
            match &mut moves {
                Some(m) => m.comment(comment),
                None => preamble.comments.push(comment.to_string()),
            }
            continue;
        }
        if line.starts_with("変化") {
            break;
        }
        if line.starts_with("手数----") {
            if moves.is_none() {
                moves = Some(Moves::new(std::mem::take(&mut preamble), line_no)?);
            }
            continue;
        }
        if let Some(rest) = numbered(line) {
            if moves.is_none() {
                moves = Some(Moves::new(std::mem::take(&mut preamble), line_no)?);
            }
            let state = moves.as_mut().ok_or(RecordError::Empty)?;
            move_line(state, line_no, rest, &mut first_number)?;
            continue;
        }
        if let Some(state) = &mut moves {
            if line.starts_with("まで") {
                if state.record.end.is_none() {
                    let to_move = state.to_move();
                    let kind = kakinoki::parse_result_line(line, to_move)
                        .ok_or_else(|| syntax(line_no, "unreadable result line"))?;
                    state.record.end = Some(GameEnd::new(kind));
                }
                continue;
            }
            return Err(syntax(
                line_no,
                format!(
                    "not a move, comment or result: '{}'",
                    crate::text::shorten(line)
                ),
            ));
        }
        if !preamble.read_line(line_no, line)? {
            return Err(syntax(
                line_no,
                format!(
                    "not a header line (key：value): '{}'",
                    crate::text::shorten(line)
                ),
            ));
        }
    }
    if !any {
        return Err(RecordError::Empty);
    }
    let moves = match moves {
        Some(m) => m,
        None => Moves::new(preamble, text.lines().count())?,
    };
    Ok(moves.record)
}

/// `(number, rest)` of a move line: leading spaces, digits, a space.
fn numbered(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start();
    let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = &trimmed[digits..];
    if !rest.starts_with([' ', '　', '\t']) {
        return None;
    }
    let number = trimmed[..digits].parse().ok()?;
    Some((number, rest.trim_start_matches([' ', '　', '\t'])))
}

fn move_line(
    state: &mut Moves,
    line_no: usize,
    (number, rest): (usize, &str),
    first_number: &mut Option<usize>,
) -> Result<(), RecordError> {
    let expected = match first_number {
        Some(first) => *first + state.record.moves.len(),
        None => {
            *first_number = Some(number);
            number
        }
    };
    if number != expected {
        return Err(syntax(
            line_no,
            format!("move number {number} where {expected} was expected"),
        ));
    }
    let (body, time_ms) = split_time(line_no, rest)?;
    let word = body.split([' ', '　']).next().unwrap_or("");
    if let Some(kind) = kakinoki::parse_end_word(word) {
        if state.record.end.is_some() {
            return Err(syntax(line_no, "a second end of the game"));
        }
        let mut end = GameEnd::new(kind);
        end.time_ms = time_ms;
        state.record.end = Some(end);
        return Ok(());
    }
    state.play(line_no, &body, time_ms)
}
