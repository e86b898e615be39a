//! Opening book in YaneuraOu's text format (`#YANEURAOU-DB2016 1.00`):
//!
//! ```text
//! #YANEURAOU-DB2016 1.00
//! sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
//! 7g7f 3c3d 40 16 12
//! 2g2f none 35 16 8
//! ```
//!
//! A `sfen` line (its move number is ignored) is followed by one line per
//! book move: `move ponder value depth count`, where `ponder` may be
//! `none` and the last three fields may be left out (0). Lines starting
//! with `#` (after the first) or `//` are comments. Positions are matched
//! by board, hands and side to move.
//!
//! Loading never fails on a bad line: it is skipped and reported with its
//! line number ([`BookError`]); the good entries are kept.

use crate::movegen::UsiMoveError;
use crate::moves::Move;
use crate::position::{Position, SfenError};
use std::collections::HashMap;

/// The book built into the binary (`BookFile` `<internal>`), made by
/// `gyoku makebook` (see the README for the command).
pub const INTERNAL: &str = include_str!("standard.db");

/// The first line of a book file.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// One book move of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The expected reply, if the book gives one.
    pub ponder: Option<Move>,
    /// Score for the side to move (cp).
    pub value: i32,
    /// Depth the score was found at.
    pub depth: i32,
    /// How often the move was played (weight of a random pick).
    pub count: u64,
}

/// A line of a book file that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: BookLineError,
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for BookError {}

/// What is wrong with a line of a book file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookLineError {
    /// The first line is not the [`HEADER`].
    Header,
    /// A `sfen` line whose position does not parse.
    BadSfen(SfenError),
    /// A move line before any valid `sfen` line.
    MoveBeforeSfen,
    /// The book move is not a legal USI move in the position.
    BookMove(UsiMoveError),
    /// The ponder move is not a legal USI move after the book move.
    PonderMove(UsiMoveError),
    /// The value, depth or count field is not a number.
    NotANumber {
        /// Which field: `value`, `depth` or `count`.
        field: &'static str,
        /// The field (at most 60 characters of it, as quoted).
        text: String,
    },
    /// More fields than the five of a move line (how many).
    TooManyFields(usize),
}

impl std::fmt::Display for BookLineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookLineError::Header => write!(f, "expected the header '{HEADER}'"),
            BookLineError::BadSfen(e) => write!(f, "bad sfen: {e}"),
            BookLineError::MoveBeforeSfen => write!(f, "a move line before any valid sfen line"),
            BookLineError::BookMove(e) => write!(f, "book move: {e}"),
            BookLineError::PonderMove(e) => write!(f, "ponder move: {e}"),
            BookLineError::NotANumber { field, text } => {
                write!(f, "{field} '{text}' is not a number")
            }
            BookLineError::TooManyFields(n) => write!(f, "{n} fields, expected at most 5"),
        }
    }
}

impl std::error::Error for BookLineError {}

/// How a move is chosen among a position's book moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BookPolicy {
    /// The best-valued move (ties: the most played).
    Best,
    /// A random move, weighted by count (every move at least weight 1).
    Weighted,
}

/// An opening book: book moves by position key.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u64, Vec<BookMove>>,
}

impl Book {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reads a book from its text; returns it with every line it skipped.
    pub fn parse(text: &str) -> (Book, Vec<BookError>) {
        let mut book = Book::default();
        let mut errors = Vec::new();
        let mut current: Option<Position> = None;
        let mut error =
            |line: usize, reason: BookLineError| errors.push(BookError { line, reason });
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if n == 1 && !line.starts_with("#YANEURAOU-DB2016") {
                error(n, BookLineError::Header);
            }
            if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
                continue;
            }
            if let Some(sfen) = line.strip_prefix("sfen ") {
                current = match Position::from_sfen(sfen.trim()) {
                    Ok(pos) => Some(pos),
                    Err(e) => {
                        error(n, BookLineError::BadSfen(e));
                        None
                    }
                };
                continue;
            }
            let Some(pos) = &current else {
                error(n, BookLineError::MoveBeforeSfen);
                continue;
            };
            match parse_move_line(pos, line) {
                Ok(entry) => {
                    let moves = book.entries.entry(pos.key()).or_default();
                    if !moves.iter().any(|m| m.mv == entry.mv) {
                        moves.push(entry);
                    }
                }
                Err(reason) => error(n, reason),
            }
        }
        (book, errors)
    }

    /// The book moves of `pos` (legal there), best-valued first.
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let mut moves: Vec<BookMove> = self
            .entries
            .get(&pos.key())
            .map(|m| m.iter().copied().filter(|m| pos.is_legal(m.mv)).collect())
            .unwrap_or_default();
        moves.sort_by_key(|m| (std::cmp::Reverse(m.value), std::cmp::Reverse(m.count)));
        moves
    }

    /// Chooses a book move for `pos` under `policy`; `random` is a uniform
    /// random number (any u64) for the weighted pick.
    pub fn pick(&self, pos: &Position, policy: BookPolicy, random: u64) -> Option<BookMove> {
        let moves = self.moves(pos);
        match policy {
            BookPolicy::Best => moves.first().copied(),
            BookPolicy::Weighted => {
                let total: u64 = moves.iter().map(|m| m.count.max(1)).sum();
                if total == 0 {
                    return None;
                }
                let mut target = random % total;
                for m in &moves {
                    let weight = m.count.max(1);
                    if target < weight {
                        return Some(*m);
                    }
                    target -= weight;
                }
                None
            }
        }
    }

    /// Adds (or replaces) the book moves of `pos`.
    pub fn insert(&mut self, pos: &Position, moves: Vec<BookMove>) {
        self.entries.insert(pos.key(), moves);
    }

    /// Writes the book in YaneuraOu's format; `positions` gives the SFEN of
    /// each key (positions whose SFEN is unknown are left out).
    pub fn write(&self, positions: &[Position]) -> String {
        let mut out = format!("{HEADER}\n");
        for pos in positions {
            let Some(moves) = self.entries.get(&pos.key()) else {
                continue;
            };
            out.push_str(&format!("sfen {}\n", pos.to_sfen()));
            for m in moves {
                let ponder = m.ponder.map_or("none".to_string(), |p| p.to_string());
                out.push_str(&format!(
                    "{} {ponder} {} {} {}\n",
                    m.mv, m.value, m.depth, m.count
                ));
            }
        }
        out
    }
}

/// `move ponder value depth count` after the position `pos`.
fn parse_move_line(pos: &Position, line: &str) -> Result<BookMove, BookLineError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let text = fields[0];
    let mv = pos.parse_usi_move(text).map_err(BookLineError::BookMove)?;
    let ponder = match fields.get(1) {
        None | Some(&"none") | Some(&"(none)") => None,
        Some(p) => {
            let mut after = pos.clone();
            after.do_move(mv);
            Some(after.parse_usi_move(p).map_err(BookLineError::PonderMove)?)
        }
    };
    let number = |i: usize, field: &'static str| -> Result<i64, BookLineError> {
        fields.get(i).map_or(Ok(0), |t| {
            t.parse::<i64>().map_err(|_| BookLineError::NotANumber {
                field,
                text: crate::text::shorten(t),
            })
        })
    };
    let value = number(2, "value")?.clamp(-30_000, 30_000) as i32;
    let depth = number(3, "depth")?.clamp(-1000, 1000) as i32;
    let count = number(4, "count")?.max(0) as u64;
    if fields.len() > 5 {
        return Err(BookLineError::TooManyFields(fields.len()));
    }
    Ok(BookMove {
        mv,
        ponder,
        value,
        depth,
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#YANEURAOU-DB2016 1.00
// a comment
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 40 16 12
2g2f none 35 16 8
# another comment
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d 2g2f 0 14 3
8c8d
";

    #[test]
    fn reads_positions_and_moves() {
        let (book, errors) = Book::parse(TEXT);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(book.len(), 2);
        let start = Position::startpos();
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].mv.to_string(), "7g7f");
        assert_eq!(
            moves[0].ponder.map(|m| m.to_string()).as_deref(),
            Some("3c3d")
        );
        assert_eq!(
            (moves[0].value, moves[0].depth, moves[0].count),
            (40, 16, 12)
        );
        assert_eq!(moves[1].ponder, None);
        let mut after = start.clone();
        after.do_move(after.parse_usi_move("7g7f").unwrap());
        let replies = book.moves(&after);
        assert_eq!(replies.len(), 2);
        assert_eq!((replies[1].value, replies[1].count), (0, 0));
    }

    #[test]
    fn policies_pick_best_or_by_count() {
        let (book, _) = Book::parse(TEXT);
        let start = Position::startpos();
        let best = book.pick(&start, BookPolicy::Best, 0).unwrap();
        assert_eq!(best.mv.to_string(), "7g7f");
        // Counts 12 and 8: randoms 0..11 give 7g7f, 12..19 give 2g2f.
        let pick = |r| {
            book.pick(&start, BookPolicy::Weighted, r)
                .unwrap()
                .mv
                .to_string()
        };
        assert_eq!(pick(11), "7g7f");
        assert_eq!(pick(12), "2g2f");
        assert_eq!(pick(19), "2g2f");
        assert_eq!(pick(20), "7g7f");
        assert_eq!(
            book.pick(
                &Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap(),
                BookPolicy::Best,
                0
            ),
            None
        );
    }

    #[test]
    fn bad_lines_are_reported_with_their_number_and_skipped() {
        let text = "#YANEURAOU-DB2016 1.00
7g7f 3c3d 1 1 1
sfen not a position
7g7f
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7e 3c3d 1 1 1
7g7f 3c3c 1 1 1
2g2f none x 1 1
2g2f none 1 1 1 9
6i7h none 5 5 5
";
        let (book, errors) = Book::parse(text);
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![2, 3, 4, 6, 7, 8, 9], "{errors:?}");
        assert!(
            matches!(errors[1].reason, BookLineError::BadSfen(_)),
            "{}",
            errors[1]
        );
        assert!(errors[3].to_string().starts_with("line 6: book move"));
        let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            [
                "line 2: a move line before any valid sfen line".to_string(),
                format!(
                    "line 3: bad sfen: {}",
                    Position::from_sfen("not a position").unwrap_err()
                ),
                "line 4: a move line before any valid sfen line".to_string(),
                format!(
                    "line 6: book move: illegal move 7g7e in {}",
                    crate::position::START_SFEN
                ),
                "line 7: ponder move: '3c3c' is not a USI move".to_string(),
                "line 8: value 'x' is not a number".to_string(),
                "line 9: 6 fields, expected at most 5".to_string(),
            ]
        );
        assert_eq!(book.moves(&Position::startpos()).len(), 1);
        let (_, errors) = Book::parse("sfen x\n");
        assert_eq!(errors[0].line, 1);
    }

    #[test]
    fn write_then_read_gives_the_same_book() {
        let (book, _) = Book::parse(TEXT);
        let start = Position::startpos();
        let mut after = start.clone();
        after.do_move(after.parse_usi_move("7g7f").unwrap());
        let text = book.write(&[start.clone(), after.clone()]);
        let (again, errors) = Book::parse(&text);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(again.moves(&start), book.moves(&start));
        assert_eq!(again.moves(&after), book.moves(&after));
    }
}
