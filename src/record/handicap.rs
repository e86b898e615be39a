//! The named start positions of KIF's `手合割` (rules.md, "Handicaps"):
//! the even game and every handicap, with White (上手, the stronger side)
//! to move in a handicap game.

use super::position_from_sfen;

/// (KIF name, SFEN) of every named start position. The lance handicap
/// removes the giver's left lance (on 1a); 右香落ち the right one.
pub const HANDICAPS: [(&str, &str); 17] = [
    (
        "平手",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    ("歩三兵", "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1"),
];

/// The SFEN of handicap `name` (surrounding spaces ignored).
pub fn sfen_of(name: &str) -> Option<&'static str> {
    let name = name.trim_matches(|c: char| c.is_whitespace() || c == '　');
    HANDICAPS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// The handicap name of a start position, if it is one (the move number
/// does not matter).
pub fn name_of(sfen: &str) -> Option<&'static str> {
    let normal = position_from_sfen(sfen).ok()?.to_sfen();
    let board_part = |s: &str| s.rsplit_once(' ').map(|(a, _)| a.to_string());
    let key = board_part(&normal)?;
    HANDICAPS
        .iter()
        .find(|(_, s)| board_part(s).as_deref() == Some(key.as_str()))
        .map(|(n, _)| *n)
}

/// Whether the start is a handicap game (named, and not 平手): the players
/// are then called 下手 (Black) and 上手 (White).
pub fn is_handicap(sfen: &str) -> bool {
    name_of(sfen).is_some_and(|n| n != "平手")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    #[test]
    fn every_handicap_parses_with_white_to_move() {
        for (name, sfen) in HANDICAPS {
            let pos = position_from_sfen(sfen).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(pos.to_sfen(), sfen, "{name}");
            let expected = if name == "平手" {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(pos.side_to_move(), expected, "{name}");
            assert_eq!(name_of(sfen), Some(name));
            assert_eq!(sfen_of(name), Some(sfen));
        }
        assert_eq!(sfen_of("　二枚落ち　"), Some(HANDICAPS[6].1));
        assert_eq!(sfen_of("九枚落ち"), None);
        let later = HANDICAPS[1].1.replace(" 1", " 3");
        assert_eq!(name_of(&later), Some("香落ち"));
    }
}
