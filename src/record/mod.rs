//! Game records: KIF, KI2, CSA and the USI `position` string, in and out,
//! with the Japanese move notation of rules.md. (`gyoku convert` and the
//! game analysis, `gyoku analyse`, are tools: `src/tools/records/`.)
//!
//! Layout: `notation.rs` (moves as Japanese text, both ways), `handicap.rs`
//! (the named start positions), `kakinoki.rs` (what KIF and KI2 share:
//! header lines, the board diagram, result lines), `kif.rs`, `ki2.rs`,
//! `csa.rs`, `usi.rs` (one format each), `encoding.rs` (UTF-8 and
//! Shift_JIS) and `error.rs`.
//!
//! Every reader checks each move against the position and reports the line
//! of the first problem; only the main line of a record is read (KIF/KI2
//! variations, `変化：`, are skipped).

pub mod csa;
pub mod encoding;
pub mod error;
pub mod handicap;
pub mod kakinoki;
pub mod ki2;
pub mod kif;
pub mod notation;
pub mod usi;

pub use encoding::Encoding;
pub use error::RecordError;

use crate::moves::Move;
use crate::position::{Position, SfenError, START_SFEN};
use crate::types::Color;
use std::path::Path;

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move, legal in the position before it.
    pub mv: Move,
    /// Time spent on it, in milliseconds, when the record says.
    pub time_ms: Option<u64>,
    /// Comment lines after it (without the `*` or `'` prefix).
    pub comments: Vec<String>,
}

impl RecordMove {
    /// A move with no time and no comment.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            time_ms: None,
            comments: Vec::new(),
        }
    }
}

/// How a game ended, as the formats say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// The side to move resigned (投了, `%TORYO`).
    Resign,
    /// The side to move is checkmated (詰み, `%TSUMI`).
    Mate,
    /// Fourfold repetition, a draw (千日手, `%SENNICHITE`).
    Repetition,
    /// Repetition by perpetual check: the side that just moved loses
    /// (`%OUTE_SENNICHITE`; KIF writes 反則勝ち).
    PerpetualCheck,
    /// Impasse or a move-count limit, a draw (持将棋, `%JISHOGI`).
    Impasse,
    /// The side to move lost on time (切れ負け, `%TIME_UP`).
    Timeout,
    /// The side to move loses by a foul (反則負け, `%ILLEGAL_MOVE`).
    IllegalMove,
    /// The side that just moved loses by a foul (反則勝ち for the side to move).
    IllegalWin,
    /// The side to move declared an entering-king win (入玉勝ち, `%KACHI`).
    DeclareWin,
    /// The game was stopped (中断, `%CHUDAN`).
    Abort,
}

impl EndKind {
    /// The winner, given the side to move when the game ended; `None` for
    /// a draw or an unfinished game.
    pub fn winner(&self, to_move: Color) -> Option<Color> {
        match self {
            EndKind::Resign | EndKind::Mate | EndKind::Timeout | EndKind::IllegalMove => {
                Some(to_move.flip())
            }
            EndKind::PerpetualCheck | EndKind::IllegalWin | EndKind::DeclareWin => Some(to_move),
            EndKind::Repetition | EndKind::Impasse | EndKind::Abort => None,
        }
    }
}

/// The end of a game: how, and the time and comments that go with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// How the game ended.
    pub kind: EndKind,
    /// Time spent before resigning etc., in milliseconds.
    pub time_ms: Option<u64>,
    /// Comment lines after the end.
    pub comments: Vec<String>,
}

impl GameEnd {
    /// An end with no time and no comment.
    pub fn new(kind: EndKind) -> GameEnd {
        GameEnd {
            kind,
            time_ms: None,
            comments: Vec::new(),
        }
    }
}

/// Header keys that every format knows, by their KIF names.
pub mod keys {
    /// Start date and time (`$START_TIME`).
    pub const START_TIME: &str = "開始日時";
    /// End date and time (`$END_TIME`).
    pub const END_TIME: &str = "終了日時";
    /// Tournament (`$EVENT`).
    pub const EVENT: &str = "棋戦";
    /// Place (`$SITE`).
    pub const SITE: &str = "場所";
    /// Time control (`$TIME_LIMIT`).
    pub const TIME_LIMIT: &str = "持ち時間";
    /// Opening (`$OPENING`).
    pub const OPENING: &str = "戦型";
}

/// A game: where it started, who played, the moves, how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// SFEN of the start position (normalised by [`Position::to_sfen`]).
    pub start_sfen: String,
    /// Black's (先手, 下手 in handicap games) name.
    pub black: Option<String>,
    /// White's (後手, 上手 in handicap games) name.
    pub white: Option<String>,
    /// Other header fields in file order, keyed by their KIF names (see
    /// [`keys`]); CSA `$` keys without a KIF name keep their CSA name.
    pub headers: Vec<(String, String)>,
    /// Comment lines before the first move.
    pub comments: Vec<String>,
    /// The moves, each legal after the ones before.
    pub moves: Vec<RecordMove>,
    /// How the game ended, if the record says.
    pub end: Option<GameEnd>,
}

impl Default for Record {
    fn default() -> Self {
        Record::new(&Position::startpos())
    }
}

impl Record {
    /// An empty record starting at `start`.
    pub fn new(start: &Position) -> Record {
        Record {
            start_sfen: start.to_sfen(),
            black: None,
            white: None,
            headers: Vec::new(),
            comments: Vec::new(),
            moves: Vec::new(),
            end: None,
        }
    }

    /// A record of `moves` (legal, in order) from `start`.
    pub fn from_moves(start: &Position, moves: &[Move]) -> Record {
        let mut record = Record::new(start);
        record.moves = moves.iter().map(|&m| RecordMove::new(m)).collect();
        record
    }

    /// The start position.
    pub fn start_position(&self) -> Result<Position, SfenError> {
        position_from_sfen(&self.start_sfen)
    }

    /// The handicap name (平手 for the even start) when the start is one.
    pub fn handicap(&self) -> Option<&'static str> {
        handicap::name_of(&self.start_sfen)
    }

    /// The value of header `key`, if present.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets header `key` (replacing an earlier value).
    pub fn set_header(&mut self, key: &str, value: &str) {
        match self.headers.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.headers.push((key.to_string(), value.to_string())),
        }
    }

    /// The moves alone.
    pub fn move_list(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// Replays the record: the position before each move, then the final
    /// one (`moves.len() + 1` positions). Fails on the first illegal move
    /// (index from 0).
    pub fn positions(&self) -> Result<Vec<Position>, RecordError> {
        let mut pos = self
            .start_position()
            .map_err(|e| RecordError::BadRecord(format!("bad start position: {e}")))?;
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        for (i, m) in self.moves.iter().enumerate() {
            if !pos.is_legal(m.mv) {
                return Err(RecordError::BadRecord(format!(
                    "move {} ({}) is illegal",
                    i + 1,
                    m.mv
                )));
            }
            out.push(pos.clone());
            pos.do_move(m.mv);
        }
        out.push(pos);
        Ok(out)
    }

    /// The winner, if the game ended with one.
    pub fn winner(&self) -> Option<Color> {
        let end = self.end.as_ref()?;
        let to_move = self.side_to_move_at(self.moves.len())?;
        end.kind.winner(to_move)
    }

    /// The side to move after `plies` moves.
    pub fn side_to_move_at(&self, plies: usize) -> Option<Color> {
        let first = self.start_position().ok()?.side_to_move();
        Some(if plies.is_multiple_of(2) {
            first
        } else {
            first.flip()
        })
    }
}

/// Parses an SFEN, allowing one missing king (tsume records).
pub fn position_from_sfen(sfen: &str) -> Result<Position, SfenError> {
    match Position::from_sfen(sfen) {
        Err(SfenError::MissingKing(_)) => Position::from_tsume_sfen(sfen),
        other => other,
    }
}

/// Whether `sfen` is the even-game start.
pub fn is_startpos(sfen: &str) -> bool {
    position_from_sfen(sfen).is_ok_and(|p| p.to_sfen() == START_SFEN)
}

/// The record formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// KIF (Kakinoki): move lines with origins and times.
    Kif,
    /// KI2: notation only (`▲７六歩`).
    Ki2,
    /// CSA V2.2 (floodgate, the CSA server).
    Csa,
    /// The USI `position` command.
    Usi,
}

/// A format with the encoding its files use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FileFormat {
    /// The format.
    pub format: Format,
    /// The text encoding.
    pub encoding: Encoding,
}

impl FileFormat {
    /// By name: `kif` (Shift_JIS), `kifu` (UTF-8), `ki2`, `ki2u`, `csa`,
    /// `usi` (also `sfen`). Case does not matter.
    pub fn from_name(name: &str) -> Option<FileFormat> {
        let (format, encoding) = match name.to_ascii_lowercase().as_str() {
            "kif" => (Format::Kif, Encoding::ShiftJis),
            "kifu" => (Format::Kif, Encoding::Utf8),
            "ki2" => (Format::Ki2, Encoding::ShiftJis),
            "ki2u" => (Format::Ki2, Encoding::Utf8),
            "csa" => (Format::Csa, Encoding::Utf8),
            "usi" | "sfen" => (Format::Usi, Encoding::Utf8),
            _ => return None,
        };
        Some(FileFormat { format, encoding })
    }

    /// By the file's extension.
    pub fn from_path(path: &Path) -> Option<FileFormat> {
        FileFormat::from_name(path.extension()?.to_str()?)
    }
}

/// Reads a record in `format` from the bytes of a file. KIF and KI2 named
/// Shift_JIS are also read as UTF-8 when the bytes are valid UTF-8 (many
/// tools write `.kif` in UTF-8); CSA may be either.
pub fn read(bytes: &[u8], format: FileFormat) -> Result<Record, RecordError> {
    let text = match format.format {
        Format::Kif | Format::Ki2 if format.encoding == Encoding::ShiftJis => {
            encoding::decode_auto(bytes)?
        }
        Format::Csa => encoding::decode_auto(bytes)?,
        _ => encoding::decode(bytes, format.encoding)?,
    };
    read_str(&text, format.format)
}

/// Reads a record in `format` from text.
pub fn read_str(text: &str, format: Format) -> Result<Record, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match format {
        Format::Kif => kif::read(text),
        Format::Ki2 => ki2::read(text),
        Format::Csa => csa::read(text),
        Format::Usi => usi::read(text),
    }
}

/// Writes `record` as text in `format` (lines end with `\n`).
pub fn write_str(record: &Record, format: Format) -> Result<String, RecordError> {
    match format {
        Format::Kif => kif::write(record),
        Format::Ki2 => ki2::write(record),
        Format::Csa => csa::write(record),
        Format::Usi => usi::write(record),
    }
}

/// Writes `record` as the bytes of a file in `format`: Shift_JIS files get
/// CRLF line ends, as the Windows tools that read them expect.
pub fn write(record: &Record, format: FileFormat) -> Result<Vec<u8>, RecordError> {
    let text = write_str(record, format.format)?;
    match format.encoding {
        Encoding::Utf8 => Ok(text.into_bytes()),
        Encoding::ShiftJis => encoding::encode_shift_jis(&text.replace('\n', "\r\n")),
    }
}

#[cfg(test)]
mod tests;
