//! Reading tsume positions, which often leave out the attacker's king.

use crate::position::{Position, SfenError};

/// Parses a tsume SFEN. When the attacker (side to move) has no king, one is
/// placed on an empty square far from the defender's king that no defending
/// piece attacks, since the position core needs both kings; far from the
/// action it almost never changes the problem.
pub fn tsume_position(sfen: &str) -> Result<Position, SfenError> {
    let error = match Position::from_sfen(sfen) {
        Ok(pos) => return Ok(pos),
        Err(e) => e,
    };
    let SfenError::MissingKing(color) = error else {
        return Err(error);
    };
    let mut fields = sfen.split_whitespace();
    let (Some(board), Some(side)) = (fields.next(), fields.next()) else {
        return Err(error);
    };
    let attacker_is_black = side == "b";
    if (color == crate::types::Color::Black) != attacker_is_black {
        return Err(error);
    }
    let rest: Vec<&str> = fields.collect();
    let Some(cells) = expand_board(board) else {
        return Err(error);
    };
    let defender_king = if attacker_is_black { "k" } else { "K" };
    let Some(defender_at) = cells.iter().position(|c| c == defender_king) else {
        return Err(error);
    };
    let distance = |i: usize| {
        let (r, f) = (i / 9, i % 9);
        let (dr, df) = (defender_at / 9, defender_at % 9);
        r.abs_diff(dr).max(f.abs_diff(df))
    };
    let mut candidates: Vec<usize> = (0..81).filter(|&i| cells[i].is_empty()).collect();
    candidates.sort_by_key(|&i| std::cmp::Reverse(distance(i)));
    for i in candidates {
        let mut with_king = cells.clone();
        with_king[i] = if attacker_is_black { "K" } else { "k" }.to_string();
        let text = format!("{} {side} {}", compress_board(&with_king), rest.join(" "));
        if let Ok(pos) = Position::from_sfen(&text) {
            if !pos.in_check() {
                return Ok(pos);
            }
        }
    }
    Err(error)
}

/// Board field to 81 cells in SFEN order (rank a first, file 9 first).
fn expand_board(board: &str) -> Option<Vec<String>> {
    let mut cells = Vec::with_capacity(81);
    for rank in board.split('/') {
        let mut promoted = false;
        for ch in rank.chars() {
            if let Some(n) = ch.to_digit(10) {
                cells.extend(std::iter::repeat_n(String::new(), n as usize));
            } else if ch == '+' {
                promoted = true;
            } else {
                cells.push(if promoted {
                    format!("+{ch}")
                } else {
                    ch.to_string()
                });
                promoted = false;
            }
        }
    }
    (cells.len() == 81).then_some(cells)
}

fn compress_board(cells: &[String]) -> String {
    let mut out = String::new();
    for (r, rank) in cells.chunks(9).enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for cell in rank {
            if cell.is_empty() {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(cell);
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}
