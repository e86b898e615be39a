//! KI2: the KIF header, then the moves in plain notation, several to a
//! line (`▲７六歩    △３四歩    ▲２六歩`), `*` comments after the move
//! they belong to, and a `まで` line for the result. KI2 has no times.

use super::error::syntax;
use super::kakinoki::{self, Preamble};
use super::kif::{display_width, Moves};
use super::notation;
use super::{EndKind, GameEnd, Record, RecordError};

/// Moves on one line.
const MOVES_PER_LINE: usize = 6;
/// Columns of one move, padded with spaces.
const MOVE_COLUMNS: usize = 12;

/// Writes `record` as KI2.
pub fn write(record: &Record) -> Result<String, RecordError> {
    let positions = record.positions()?;
    let mut out = kakinoki::write_preamble(record, &positions[0]);
    out.push('\n');
    let mut on_line = 0;
    let mut previous = None;
    for (i, rm) in record.moves.iter().enumerate() {
        let text = notation::move_text(&positions[i], rm.mv, previous);
        previous = Some(rm.mv.to());
        let last = i + 1 == record.moves.len();
        let breaks = !rm.comments.is_empty() || last || on_line + 1 == MOVES_PER_LINE;
        out.push_str(&text);
        if breaks {
            out.push('\n');
            on_line = 0;
        } else {
            out.push_str(&" ".repeat(MOVE_COLUMNS.saturating_sub(display_width(&text)).max(1)));
            on_line += 1;
        }
        for comment in &rm.comments {
            for line in comment.lines() {
                out.push_str(&format!("*{line}\n"));
            }
        }
    }
    if let Some(end) = &record.end {
        if let Some(line) = kakinoki::result_line(record) {
            out.push_str(&line);
            out.push('\n');
        }
        for comment in &end.comments {
            for line in comment.lines() {
                out.push_str(&format!("*{line}\n"));
            }
        }
    }
    Ok(out)
}

const MARKS: [char; 5] = ['▲', '△', '▽', '☗', '☖'];

/// Reads a KI2 record (main line only).
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut preamble = Preamble::default();
    let mut moves: Option<Moves> = None;
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
        let body = line.trim_start_matches([' ', '　']);
        if body.starts_with(MARKS) || body.starts_with("まで") {
            if moves.is_none() {
                moves = Some(Moves::new(std::mem::take(&mut preamble), line_no)?);
            }
            let state = moves.as_mut().ok_or(RecordError::Empty)?;
            if body.starts_with("まで") {
                result(state, line_no, body)?;
            } else {
                for token in split_moves(body) {
                    state.play(line_no, token, None)?;
                }
            }
            continue;
        }
        if moves.is_some() {
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

/// The moves of a KI2 line, each starting with its mark.
fn split_moves(line: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = line
        .char_indices()
        .filter(|(_, c)| MARKS.contains(c))
        .map(|(i, _)| i)
        .collect();
    starts.push(line.len());
    starts
        .windows(2)
        .map(|w| line[w[0]..w[1]].trim_end_matches([' ', '　', '\t']))
        .collect()
}

fn result(state: &mut Moves, line_no: usize, line: &str) -> Result<(), RecordError> {
    if state.record.end.is_some() {
        return Err(syntax(line_no, "a second result line"));
    }
    let mut kind = kakinoki::parse_result_line(line, state.to_move())
        .ok_or_else(|| syntax(line_no, "unreadable result line"))?;
    // KI2 says only who won; a final position that is mate was a mate.
    if kind == EndKind::Resign && state.pos.is_checkmate() {
        kind = EndKind::Mate;
    }
    state.record.end = Some(GameEnd::new(kind));
    Ok(())
}
