//! Parsing of the USI commands that carry arguments: `position`, `go` and
//! `setoption`. Pure functions, so every odd input can be unit-tested.

use crate::mate::tsume_position;
use crate::position::{Position, SfenError};
use crate::search::Limits;
use crate::text::shorten;
use crate::types::Color;

/// Why a `position` or `setoption` command was refused as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// `position` names neither `startpos` nor `sfen` (what it named, if anything).
    NoPositionKind(Option<String>),
    /// `position sfen` with nothing after it.
    EmptySfen,
    /// The SFEN (shortened) could not be read.
    BadSfen {
        /// The SFEN as sent, shortened.
        sfen: String,
        /// What is wrong with it.
        reason: SfenError,
    },
    /// `setoption` without `name`.
    SetoptionWithoutName,
    /// `setoption name` with no name after it.
    EmptyOptionName,
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::NoPositionKind(None) => {
                write!(f, "position needs 'startpos' or 'sfen <sfen>'")
            }
            CommandError::NoPositionKind(Some(other)) => {
                write!(f, "position needs 'startpos' or 'sfen', not '{other}'")
            }
            CommandError::EmptySfen => write!(f, "position sfen needs a position"),
            CommandError::BadSfen { sfen, reason } => write!(f, "bad sfen '{sfen}': {reason}"),
            CommandError::SetoptionWithoutName => write!(f, "setoption needs 'name <id>'"),
            CommandError::EmptyOptionName => write!(f, "setoption needs an option name"),
        }
    }
}

impl std::error::Error for CommandError {}

/// The position a `position` command describes.
#[derive(Debug)]
pub struct ParsedPosition {
    /// The position after every legal move of the list.
    pub position: Position,
    /// Lines for `info string`, each starting `error:` (an illegal move
    /// cut the list there) or `note:` (a missing attacker king was placed).
    pub warnings: Vec<String>,
}

/// Parses the arguments of `position` (`startpos|sfen <sfen> [moves ...]`).
///
/// `Err` means nothing usable was given (the caller keeps its old position).
/// An illegal or unparsable move keeps the position before it and warns:
/// the game up to that point is the best guess of what the GUI meant.
pub fn parse_position(tokens: &[&str]) -> Result<ParsedPosition, CommandError> {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (tokens, &[][..]),
    };
    let mut warnings = Vec::new();
    let mut position = match setup {
        ["startpos"] => Position::startpos(),
        ["sfen", fields @ ..] if !fields.is_empty() => {
            let sfen = fields.join(" ");
            match Position::from_sfen(&sfen) {
                Ok(pos) => pos,
                Err(SfenError::MissingKing(color)) => {
                    // Tsume positions leave out the attacker's king.
                    let pos = tsume_position(&sfen).map_err(|e| CommandError::BadSfen {
                        sfen: shorten(&sfen),
                        reason: e,
                    })?;
                    let side = if color == Color::Black {
                        "Black"
                    } else {
                        "White"
                    };
                    warnings.push(format!(
                        "note: sfen has no {side} king; playing and solving without one"
                    ));
                    pos
                }
                Err(e) => {
                    return Err(CommandError::BadSfen {
                        sfen: shorten(&sfen),
                        reason: e,
                    })
                }
            }
        }
        [] => return Err(CommandError::NoPositionKind(None)),
        ["sfen"] => return Err(CommandError::EmptySfen),
        [other, ..] => return Err(CommandError::NoPositionKind(Some(shorten(other)))),
    };
    for (i, text) in moves.iter().enumerate() {
        match position.parse_usi_move(text) {
            Ok(m) => position.do_move(m),
            Err(e) => {
                warnings.push(format!(
                    "error: move {} of the list: {e}; using the position before it",
                    i + 1
                ));
                break;
            }
        }
    }
    Ok(ParsedPosition { position, warnings })
}

/// How long `go mate` may think.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateTime {
    /// `go mate <ms>`.
    Millis(u64),
    /// `go mate infinite` (until `stop`).
    Infinite,
}

/// What a `go` command asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// Limits of a normal search.
    pub limits: Limits,
    /// `go mate`: solve a tsume instead of searching.
    pub mate: Option<MateTime>,
    /// `go perft <depth>`: count leaf nodes instead of searching.
    pub perft: Option<u32>,
    /// Fields that could not be read (reported, then ignored).
    pub warnings: Vec<String>,
}

/// Parses the arguments of `go`; `pos` is the position to search (for
/// `searchmoves`). Unknown tokens are ignored, as USI asks.
pub fn parse_go(tokens: &[&str], pos: &Position) -> GoCommand {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let value = tokens.get(i + 1).copied();
        let mut number = |go: &mut GoCommand| -> Option<u64> {
            i += 1;
            match value.map(str::parse::<i64>) {
                Some(Ok(v)) => Some(v.max(0) as u64),
                _ => {
                    go.warnings.push(format!(
                        "go {key} needs a number, got '{}'",
                        shorten(value.unwrap_or(""))
                    ));
                    None
                }
            }
        };
        match key {
            "btime" => go.limits.time_left[Color::Black.index()] = number(&mut go),
            "wtime" => go.limits.time_left[Color::White.index()] = number(&mut go),
            "binc" => go.limits.increment[Color::Black.index()] = number(&mut go).unwrap_or(0),
            "winc" => go.limits.increment[Color::White.index()] = number(&mut go).unwrap_or(0),
            "byoyomi" => go.limits.byoyomi = number(&mut go).unwrap_or(0),
            "movetime" => go.limits.movetime = number(&mut go),
            "depth" => go.limits.depth = number(&mut go).map(|d| d.clamp(1, 255) as u32),
            "nodes" => go.limits.nodes = number(&mut go).map(|n| n.max(1)),
            "perft" => go.perft = number(&mut go).map(|d| d.min(32) as u32),
            "infinite" => go.limits.infinite = true,
            "ponder" => go.limits.ponder = true,
            "mate" => {
                if value == Some("infinite") {
                    i += 1;
                    go.mate = Some(MateTime::Infinite);
                } else if value.is_none_or(is_go_keyword) {
                    // `go mate` alone, or `go mate nodes N`: no time limit.
                    go.mate = Some(MateTime::Infinite);
                } else {
                    go.mate = Some(number(&mut go).map_or(MateTime::Infinite, MateTime::Millis));
                }
            }
            "searchmoves" => {
                while let Some(text) = tokens.get(i + 1) {
                    match pos.parse_usi_move(text) {
                        Ok(m) => go.limits.searchmoves.push(m),
                        Err(_) if is_go_keyword(text) => break,
                        Err(e) => go.warnings.push(format!("searchmoves: {e}")),
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    go
}

fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "btime"
            | "wtime"
            | "binc"
            | "winc"
            | "byoyomi"
            | "movetime"
            | "depth"
            | "nodes"
            | "perft"
            | "infinite"
            | "ponder"
            | "mate"
    )
}

/// `setoption name <id> [value <x>]`: the name and the value (everything
/// after `value`, spaces kept inside, since paths may hold them).
pub fn parse_setoption(line_after_command: &str) -> Result<(String, Option<String>), CommandError> {
    let rest = line_after_command.trim();
    let rest = rest
        .strip_prefix("name")
        .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace));
    let Some(rest) = rest else {
        return Err(CommandError::SetoptionWithoutName);
    };
    let rest = rest.trim();
    let (name, value) = match find_word(rest, "value") {
        Some(at) => (
            rest[..at].trim(),
            Some(rest[at + "value".len()..].trim().to_string()),
        ),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::EmptyOptionName);
    }
    Ok((name.to_string(), value))
}

/// Byte offset of `word` as a whole whitespace-separated word in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut offset = 0;
    for piece in text.split_inclusive(char::is_whitespace) {
        if piece.trim_end() == word {
            return Some(offset);
        }
        offset += piece.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn startpos_with_moves() {
        let p = parse_position(&toks("startpos moves 7g7f 3c3d")).unwrap();
        assert!(p.warnings.is_empty());
        assert_eq!(
            p.position.to_sfen(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
    }

    #[test]
    fn empty_move_list_is_accepted() {
        let p = parse_position(&toks("startpos moves")).unwrap();
        assert_eq!(p.position.to_sfen(), Position::startpos().to_sfen());
    }

    #[test]
    fn illegal_move_keeps_the_prefix_and_warns() {
        let p = parse_position(&toks("startpos moves 7g7f 7g7f 3c3d")).unwrap();
        assert_eq!(p.warnings.len(), 1);
        assert_eq!(p.position.side_to_move(), Color::White);
    }

    #[test]
    fn handicap_sfen_with_white_to_move() {
        let p = parse_position(&toks(
            "sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 4a3b",
        ))
        .unwrap();
        assert!(p.warnings.is_empty(), "{:?}", p.warnings);
        assert_eq!(p.position.side_to_move(), Color::Black);
    }

    #[test]
    fn tsume_without_attacker_king_gets_one() {
        let p = parse_position(&toks("sfen 4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p 1")).unwrap();
        assert_eq!(p.warnings.len(), 1);
    }

    #[test]
    fn malformed_positions_are_errors() {
        for bad in [
            "",
            "sfen",
            "sfen xyz b - 1",
            "foo",
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        ] {
            assert!(parse_position(&toks(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_reads_both_clocks_and_byoyomi() {
        let pos = Position::startpos();
        let go = parse_go(&toks("btime 60000 wtime 0 byoyomi 1000"), &pos);
        assert_eq!(go.limits.time_left, [Some(60000), Some(0)]);
        assert_eq!(go.limits.byoyomi, 1000);
        assert!(go.limits.has_clock());
    }

    #[test]
    fn go_fields_of_every_kind() {
        let pos = Position::startpos();
        let go = parse_go(
            &toks("ponder btime -5 wtime 10 binc 1 winc 2 depth 7 nodes 99 movetime 50"),
            &pos,
        );
        assert!(go.limits.ponder);
        assert_eq!(go.limits.time_left, [Some(0), Some(10)]);
        assert_eq!(go.limits.increment, [1, 2]);
        assert_eq!(
            (go.limits.depth, go.limits.nodes, go.limits.movetime),
            (Some(7), Some(99), Some(50))
        );
        assert!(go.warnings.is_empty());
        assert_eq!(
            parse_go(&toks("mate 2000"), &pos).mate,
            Some(MateTime::Millis(2000))
        );
        assert_eq!(
            parse_go(&toks("mate infinite"), &pos).mate,
            Some(MateTime::Infinite)
        );
        assert_eq!(parse_go(&toks("mate"), &pos).mate, Some(MateTime::Infinite));
        assert!(parse_go(&toks("infinite"), &pos).limits.infinite);
    }

    #[test]
    fn go_bad_numbers_warn_and_are_ignored() {
        let pos = Position::startpos();
        let go = parse_go(&toks("btime abc depth"), &pos);
        assert_eq!(go.warnings.len(), 2);
        assert_eq!(go.limits.time_left, [None, None]);
    }

    #[test]
    fn searchmoves_stop_at_the_next_keyword() {
        let pos = Position::startpos();
        let go = parse_go(&toks("searchmoves 7g7f 2g2f 5a5b depth 3"), &pos);
        assert_eq!(go.limits.searchmoves.len(), 2);
        assert_eq!(go.warnings.len(), 1);
        assert_eq!(go.limits.depth, Some(3));
    }

    #[test]
    fn setoption_name_and_value() {
        assert_eq!(
            parse_setoption(" name USI_Hash value 256").unwrap(),
            ("USI_Hash".into(), Some("256".into()))
        );
        assert_eq!(
            parse_setoption("name ClearHash").unwrap(),
            ("ClearHash".into(), None)
        );
        assert_eq!(
            parse_setoption("name BookFile value C:/my books/a.db").unwrap(),
            ("BookFile".into(), Some("C:/my books/a.db".into()))
        );
        assert!(parse_setoption("").is_err());
        assert!(parse_setoption("name").is_err());
        assert!(parse_setoption("named x").is_err());
    }
}
