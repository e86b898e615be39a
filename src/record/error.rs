//! Why a record could not be read or written. Every reading error names
//! the line (counted from 1) where the problem is.

use super::Encoding;
use std::fmt;

/// A record that cannot be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A line that the format does not allow there.
    Syntax {
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A move that cannot be played in the position reached.
    Move {
        /// Line number, from 1.
        line: usize,
        /// Move number in the game, from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// Bytes that are not text in the encoding the file should have.
    Encoding {
        /// Line number, from 1.
        line: usize,
        /// The encoding that was expected.
        expected: Encoding,
    },
    /// A character that Shift_JIS cannot hold.
    Unencodable {
        /// Line number of the written text, from 1.
        line: usize,
        /// The character.
        character: char,
    },
    /// Nothing that looks like a record.
    Empty,
    /// A record that cannot be written (bad start position, illegal move).
    BadRecord(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax { line, reason } => write!(f, "line {line}: {reason}"),
            RecordError::Move {
                line,
                number,
                text,
                reason,
            } => write!(
                f,
                "line {line}: move {number} '{}' cannot be played: {reason}",
                crate::text::shorten(text)
            ),
            RecordError::Encoding { line, expected } => match expected {
                Encoding::Utf8 => write!(
                    f,
                    "line {line}: not valid UTF-8 (a Shift_JIS file? name it .kif/.ki2 or use --from kif)"
                ),
                Encoding::ShiftJis => write!(
                    f,
                    "line {line}: neither valid Shift_JIS nor UTF-8 (a damaged or binary file?)"
                ),
            },
            RecordError::Unencodable { line, character } => write!(
                f,
                "line {line}: '{character}' (U+{:04X}) cannot be written in Shift_JIS; write UTF-8 (.kifu, .ki2u) instead",
                *character as u32
            ),
            RecordError::Empty => write!(f, "no record found (empty input)"),
            RecordError::BadRecord(reason) => write!(f, "cannot write the record: {reason}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A syntax error at `line`.
pub(crate) fn syntax(line: usize, reason: impl Into<String>) -> RecordError {
    RecordError::Syntax {
        line,
        reason: reason.into(),
    }
}
