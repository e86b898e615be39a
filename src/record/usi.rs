//! The USI `position` command as a record: `position startpos moves 7g7f
//! 3c3d` or `position sfen <sfen> moves ...`. Only the moves and the start
//! survive: names, times, comments and the result have no place in it.

use super::error::syntax;
use super::{is_startpos, position_from_sfen, Record, RecordError, RecordMove};

/// Writes `record` as one `position ...` line.
pub fn write(record: &Record) -> Result<String, RecordError> {
    record.positions()?;
    let mut out = if is_startpos(&record.start_sfen) {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", record.start_sfen)
    };
    if !record.moves.is_empty() {
        out.push_str(" moves");
        for m in &record.moves {
            out.push(' ');
            out.push_str(&m.mv.to_string());
        }
    }
    out.push('\n');
    Ok(out)
}

/// Reads the first non-empty line: `[position] startpos|sfen <sfen>|<sfen>
/// [moves ...]`.
pub fn read(text: &str) -> Result<Record, RecordError> {
    let (index, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .ok_or(RecordError::Empty)?;
    let line_no = index + 1;
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let tokens = match tokens.first() {
        Some(&"position") => &tokens[1..],
        _ => &tokens[..],
    };
    let moves_at = tokens
        .iter()
        .position(|&t| t == "moves")
        .unwrap_or(tokens.len());
    let setup = &tokens[..moves_at];
    let sfen = match setup {
        ["startpos"] => crate::START_SFEN.to_string(),
        ["sfen", fields @ ..] => fields.join(" "),
        fields if !fields.is_empty() && fields[0] != "moves" => fields.join(" "),
        _ => return Err(syntax(line_no, "expected 'startpos' or 'sfen <sfen>'")),
    };
    let mut pos =
        position_from_sfen(&sfen).map_err(|e| syntax(line_no, format!("bad sfen: {e}")))?;
    let mut record = Record::new(&pos);
    for (i, text) in tokens.get(moves_at + 1..).unwrap_or(&[]).iter().enumerate() {
        let m = pos.parse_usi_move(text).map_err(|e| RecordError::Move {
            line: line_no,
            number: i + 1,
            text: text.to_string(),
            reason: e.to_string(),
        })?;
        pos.do_move(m);
        record.moves.push(RecordMove::new(m));
    }
    Ok(record)
}
