//! What KIF and KI2 (both from Kakinoki's Kifu for Windows) share: the
//! header lines (`開始日時：...`, `手合割：平手`, `先手：...`), the board
//! diagram (BOD) for other starts, the end-of-game words and the
//! `まで120手で先手の勝ち` line.

use super::error::syntax;
use super::notation::{board_char, kanji_number, kind_from_char, parse_kanji_number, RANK_KANJI};
use super::{handicap, position_from_sfen, EndKind, Record, RecordError};
use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square};

/// Header lines and board diagram read before the moves.
#[derive(Default)]
pub(super) struct Preamble {
    pub headers: Vec<(String, String)>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub comments: Vec<String>,
    handicap: Option<&'static str>,
    handicap_other: bool,
    rows: Vec<[Piece; 9]>,
    hands: [Option<String>; 2],
    side: Option<Color>,
    last_line: usize,
}

/// Spaces KIF writers pad values with.
fn is_pad(c: char) -> bool {
    c == ' ' || c == '　' || c == '\t'
}

impl Preamble {
    /// Takes `line` if it is a header or board-diagram line; `Ok(false)`
    /// when it is something else.
    pub fn read_line(&mut self, line_no: usize, line: &str) -> Result<bool, RecordError> {
        self.last_line = line_no;
        if line.starts_with('|') {
            self.board_row(line_no, line)?;
            return Ok(true);
        }
        if line.starts_with('+') || line.trim_start().starts_with('９') {
            return Ok(true); // the diagram's frame and file numbers
        }
        match line.trim_end_matches(is_pad) {
            "先手番" | "下手番" => {
                self.side = Some(Color::Black);
                return Ok(true);
            }
            "後手番" | "上手番" => {
                self.side = Some(Color::White);
                return Ok(true);
            }
            _ => {}
        }
        if line.starts_with("手数＝") {
            return Ok(true); // a diagram's note of the moves before it
        }
        let Some((key, value)) = line.split_once('：') else {
            return Ok(false);
        };
        let key = key.trim_matches(is_pad);
        let value = value.trim_matches(is_pad);
        match key {
            "先手" | "下手" => self.black = Some(value.to_string()),
            "後手" | "上手" => self.white = Some(value.to_string()),
            "先手の持駒" | "下手の持駒" => self.hands[0] = Some(value.to_string()),
            "後手の持駒" | "上手の持駒" => self.hands[1] = Some(value.to_string()),
            "手合割" => {
                if value == "その他" {
                    self.handicap_other = true;
                } else {
                    let sfen = handicap::sfen_of(value).ok_or_else(|| {
                        syntax(line_no, format!("unknown handicap '{value}' in 手合割"))
                    })?;
                    self.handicap = handicap::name_of(sfen);
                }
            }
            "" => return Err(syntax(line_no, "header line with no key before '：'")),
            _ => self.headers.push((key.to_string(), value.to_string())),
        }
        Ok(true)
    }

    fn board_row(&mut self, line_no: usize, line: &str) -> Result<(), RecordError> {
        let chars: Vec<char> = line.chars().collect();
        let bad = |why: &str| syntax(line_no, format!("board diagram row: {why}"));
        if chars.len() < 20 || chars[19] != '|' {
            return Err(bad("expected '|', nine squares of two characters, '|'"));
        }
        let rank = self.rows.len();
        if rank >= 9 {
            return Err(bad("more than nine rows"));
        }
        if let Some(&r) = chars.get(20) {
            if RANK_KANJI.get(rank) != Some(&r) {
                return Err(bad("rank out of order"));
            }
        }
        let mut row = [Piece::NONE; 9];
        for (i, cell) in row.iter_mut().enumerate() {
            let (owner, name) = (chars[1 + 2 * i], chars[2 + 2 * i]);
            if name == '・' || name == '　' {
                continue;
            }
            let kind = kind_from_char(name).ok_or_else(|| bad("unknown piece"))?;
            let color = match owner {
                'v' | 'V' => Color::White,
                ' ' | '^' | '　' => Color::Black,
                _ => return Err(bad("a piece's owner must be ' ' or 'v'")),
            };
            *cell = Piece::new(color, kind);
        }
        self.rows.push(row);
        Ok(())
    }

    /// The start position the header describes; `line_no` is where the
    /// moves begin (for errors).
    pub fn start(&self, line_no: usize) -> Result<Position, RecordError> {
        let at = self.last_line.max(1).min(line_no.max(1));
        if self.rows.is_empty() {
            if self.handicap_other {
                return Err(syntax(at, "手合割：その他 needs a board diagram"));
            }
            let sfen =
                handicap::sfen_of(self.handicap.unwrap_or("平手")).unwrap_or(crate::START_SFEN);
            return position_from_sfen(sfen).map_err(|e| syntax(at, e.to_string()));
        }
        if self.rows.len() != 9 {
            return Err(syntax(
                at,
                format!("board diagram has {} rows, expected 9", self.rows.len()),
            ));
        }
        let mut board = String::new();
        for (r, row) in self.rows.iter().enumerate() {
            if r > 0 {
                board.push('/');
            }
            let mut empty = 0;
            for piece in row {
                if piece.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    board.push_str(&empty.to_string());
                    empty = 0;
                }
                board.push_str(&piece.sfen());
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
        }
        let mut hands = String::new();
        for (i, hand) in self.hands.iter().enumerate() {
            if let Some(text) = hand {
                hands.push_str(&parse_hand(text, i == 1).map_err(|why| syntax(at, why))?);
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let handicapped = self.handicap.is_some_and(|n| n != "平手");
        let side = match self.side {
            Some(Color::White) => 'w',
            Some(Color::Black) => 'b',
            None if handicapped => 'w',
            None => 'b',
        };
        let sfen = format!("{board} {side} {hands} 1");
        position_from_sfen(&sfen).map_err(|e| syntax(at, format!("board diagram: {e}")))
    }

    /// Fills the header part of `record` (names, headers, comments; not the
    /// start position).
    pub fn fill(self, record: &mut Record) {
        record.black = self.black;
        record.white = self.white;
        record.headers = self.headers;
        record.comments = self.comments;
    }
}

/// A diagram hand (`飛　角二　歩十八`, `なし`) as SFEN hand letters.
fn parse_hand(text: &str, white: bool) -> Result<String, String> {
    let mut out = String::new();
    for item in text.split(is_pad).filter(|s| !s.is_empty()) {
        if item == "なし" {
            continue;
        }
        let mut chars = item.chars();
        let name = chars.next().unwrap_or('・');
        let kind = kind_from_char(name)
            .filter(|k| PieceType::HAND.contains(k))
            .ok_or_else(|| format!("bad piece in hand '{item}'"))?;
        let count_text: String = chars.collect();
        let count = if count_text.is_empty() {
            1
        } else {
            parse_kanji_number(&count_text)
                .or_else(|| count_text.parse().ok())
                .ok_or_else(|| format!("bad count in hand '{item}'"))?
        };
        if count > 18 {
            return Err(format!("bad count in hand '{item}'"));
        }
        let letter = if white {
            kind.letter().to_ascii_lowercase()
        } else {
            kind.letter()
        };
        if count > 1 {
            out.push_str(&count.to_string());
        }
        out.push(letter);
    }
    Ok(out)
}

/// The player words: 先手/後手, or 下手/上手 in a handicap game.
pub fn player_word(color: Color, handicapped: bool) -> &'static str {
    match (color, handicapped) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

/// The header lines, the start (手合割 or a diagram) and the names.
pub(super) fn write_preamble(record: &Record, pos: &Position) -> String {
    let mut out = String::new();
    for (key, value) in &record.headers {
        out.push_str(&format!("{key}：{value}\n"));
    }
    let handicapped = handicap::is_handicap(&record.start_sfen);
    match handicap::name_of(&record.start_sfen) {
        Some(name) if name != "歩三兵" => out.push_str(&format!("手合割：{name}\n")),
        _ => out.push_str(&diagram(pos, handicapped)),
    }
    for (color, name) in [(Color::Black, &record.black), (Color::White, &record.white)] {
        if let Some(name) = name {
            out.push_str(&format!("{}：{name}\n", player_word(color, handicapped)));
        }
    }
    for comment in &record.comments {
        out.push_str(&format!("*{comment}\n"));
    }
    out
}

/// The board diagram (BOD) of `pos`.
pub(super) fn diagram(pos: &Position, handicapped: bool) -> String {
    let hand = |color: Color| {
        let hand = pos.hand(color);
        let items: Vec<String> = [
            PieceType::Rook,
            PieceType::Bishop,
            PieceType::Gold,
            PieceType::Silver,
            PieceType::Knight,
            PieceType::Lance,
            PieceType::Pawn,
        ]
        .iter()
        .filter(|&&k| hand.count(k) > 0)
        .map(|&k| {
            let n = hand.count(k);
            let count = if n > 1 {
                kanji_number(n)
            } else {
                String::new()
            };
            format!("{}{count}", board_char(k))
        })
        .collect();
        if items.is_empty() {
            "なし".to_string()
        } else {
            items.join("　")
        }
    };
    let white = player_word(Color::White, handicapped);
    let black = player_word(Color::Black, handicapped);
    let mut out = format!("{white}の持駒：{}\n", hand(Color::White));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 0..9u8 {
        out.push('|');
        for file in (0..9u8).rev() {
            let piece = pos.piece_on(Square::new(file, rank));
            match piece.kind() {
                None => out.push_str(" ・"),
                Some(kind) => {
                    out.push(if piece.color() == Color::White {
                        'v'
                    } else {
                        ' '
                    });
                    out.push(board_char(kind));
                }
            }
        }
        out.push('|');
        out.push(RANK_KANJI[rank as usize]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!("{black}の持駒：{}\n", hand(Color::Black)));
    out.push_str(&format!(
        "{}番\n",
        player_word(pos.side_to_move(), handicapped)
    ));
    out
}

/// The KIF word of a game end.
pub(super) fn end_word(kind: &EndKind) -> &'static str {
    match kind {
        EndKind::Resign => "投了",
        EndKind::Mate => "詰み",
        EndKind::Repetition => "千日手",
        EndKind::PerpetualCheck | EndKind::IllegalWin => "反則勝ち",
        EndKind::Impasse => "持将棋",
        EndKind::Timeout => "切れ負け",
        EndKind::IllegalMove => "反則負け",
        EndKind::DeclareWin => "入玉勝ち",
        EndKind::Abort => "中断",
    }
}

/// The game end a KIF word stands for.
pub(super) fn parse_end_word(word: &str) -> Option<EndKind> {
    Some(match word {
        "投了" => EndKind::Resign,
        "詰み" | "詰" => EndKind::Mate,
        "千日手" => EndKind::Repetition,
        "持将棋" => EndKind::Impasse,
        "切れ負け" | "時間切れ" => EndKind::Timeout,
        "反則負け" => EndKind::IllegalMove,
        "反則勝ち" => EndKind::IllegalWin,
        "入玉勝ち" | "入玉宣言" => EndKind::DeclareWin,
        "中断" => EndKind::Abort,
        _ => return None,
    })
}

/// `まで120手で先手の勝ち` for a record that ended.
pub(super) fn result_line(record: &Record) -> Option<String> {
    let end = record.end.as_ref()?;
    let n = record.moves.len();
    let to_move = record.side_to_move_at(n)?;
    let handicapped = handicap::is_handicap(&record.start_sfen);
    let who = |c: Color| player_word(c, handicapped);
    let tail = match end.kind {
        EndKind::Resign | EndKind::Mate => format!("{}の勝ち", who(to_move.flip())),
        EndKind::Timeout => format!("時間切れにより{}の勝ち", who(to_move.flip())),
        EndKind::IllegalMove => format!("{}の反則負け", who(to_move)),
        EndKind::IllegalWin | EndKind::PerpetualCheck => format!("{}の反則勝ち", who(to_move)),
        EndKind::DeclareWin => format!("{}の入玉勝ち", who(to_move)),
        EndKind::Repetition => "千日手".to_string(),
        EndKind::Impasse => "持将棋".to_string(),
        EndKind::Abort => "中断".to_string(),
    };
    Some(format!("まで{n}手で{tail}"))
}

/// Reads a `まで...` line, given the side to move after the moves.
pub(super) fn parse_result_line(line: &str, to_move: Color) -> Option<EndKind> {
    let rest = line.trim().strip_prefix("まで")?;
    let rest = rest.strip_prefix('、').unwrap_or(rest);
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let rest = rest[digits..]
        .strip_prefix("手で")
        .unwrap_or(&rest[digits..]);
    let rest = rest.trim_matches(is_pad);
    let side_of = |word: &str| match word {
        "先手" | "下手" => Some(Color::Black),
        "後手" | "上手" => Some(Color::White),
        _ => None,
    };
    if let Some(kind) = parse_end_word(rest) {
        return Some(kind);
    }
    let (rest, timeout) = match rest.strip_prefix("時間切れにより") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (who, what) = rest.split_once('の')?;
    let who = side_of(who)?;
    Some(match what {
        "勝ち" if timeout => EndKind::Timeout,
        "勝ち" => EndKind::Resign,
        "反則勝ち" if who == to_move => EndKind::IllegalWin,
        "反則勝ち" => EndKind::IllegalMove,
        "反則負け" if who == to_move => EndKind::IllegalMove,
        "反則負け" => EndKind::IllegalWin,
        "入玉勝ち" => EndKind::DeclareWin,
        _ => return None,
    })
}
