//! The cases of rules.md's "Japanese game-record notation", one test each,
//! both ways; then a property test over random games.

use super::*;

/// Black king on 9i, White king on 1a, and the ranks given (a..i).
fn board(ranks: [&str; 9], side: char, hands: &str) -> Position {
    let sfen = format!("{} {side} {hands} 1", ranks.join("/"));
    Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn black(ranks: [&str; 9]) -> Position {
    board(ranks, 'b', "-")
}

/// Writes `usi` in `pos` and checks the text, then reads the text back.
fn check(pos: &Position, usi: &str, expected: &str) {
    let m = pos.parse_usi_move(usi).unwrap();
    assert_eq!(
        move_text(pos, m, None),
        expected,
        "{usi} in {}",
        pos.to_sfen()
    );
    assert_eq!(parse_move(pos, expected, None), Ok(m), "reading {expected}");
}

const EMPTY: &str = "9";

#[test]
fn plain_moves_are_destination_then_piece() {
    let pos = Position::startpos();
    check(&pos, "7g7f", "▲７六歩");
    check(&pos, "2h5h", "▲５八飛");
    check(&pos, "5i4h", "▲４八玉");
    let mut pos = pos;
    pos.do_move(pos.parse_usi_move("7g7f").unwrap());
    check(&pos, "3c3d", "△３四歩");
}

#[test]
fn recapture_is_written_dou_with_a_full_width_space() {
    let pos = Position::startpos();
    let moves: Vec<Move> = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
        .iter()
        .scan(pos.clone(), |p, u| {
            let m = p.parse_usi_move(u).unwrap();
            p.do_move(m);
            Some(m)
        })
        .collect();
    assert_eq!(
        line_text(&pos, &moves, None),
        "▲７六歩△３四歩▲２二角成△同　銀▲４五角"
    );
    let mut p = pos.clone();
    for &m in &moves[..3] {
        p.do_move(m);
    }
    let to = Some(moves[2].to());
    assert_eq!(parse_move(&p, "△同　銀", to), Ok(moves[3]));
    assert_eq!(parse_move(&p, "△同銀", to), Ok(moves[3]));
    assert_eq!(parse_move(&p, "△２二同銀", to), Ok(moves[3]));
    assert_eq!(
        parse_move(&Position::startpos(), "▲同　歩", None),
        Err(NotationError::NoPreviousMove)
    );
}

#[test]
fn promotion_is_written_nari_or_funari() {
    let mut pos = Position::startpos();
    for u in ["7g7f", "3c3d"] {
        pos.do_move(pos.parse_usi_move(u).unwrap());
    }
    check(&pos, "8h2b+", "▲２二角成");
    check(&pos, "8h2b", "▲２二角不成");
    assert_eq!(
        parse_move(&pos, "▲２二角生", None),
        pos.parse_usi_move("8h2b").map_err(|_| unreachable!())
    );
    // A pawn on the last rank must promote; a move outside the zone never
    // gets 不成.
    let pos = black(["8k", "4P4", EMPTY, EMPTY, EMPTY, "4S4", EMPTY, EMPTY, "K8"]);
    check(&pos, "5b5a+", "▲５一歩成");
    assert_eq!(
        parse_move(&pos, "▲５一歩", None),
        Err(NotationError::MustPromote)
    );
    check(&pos, "5f5e", "▲５五銀");
    assert_eq!(
        parse_move(&pos, "▲５五銀成", None),
        Err(NotationError::CannotPromote)
    );
}

#[test]
fn promoted_pieces_use_their_promoted_names() {
    let pos = black([
        "8k",
        EMPTY,
        EMPTY,
        "+P1+L1+N1+S2",
        "3+B5",
        "5+R3",
        EMPTY,
        EMPTY,
        "K8",
    ]);
    check(&pos, "9d9c", "▲９三と");
    check(&pos, "7d7c", "▲７三成香");
    check(&pos, "5d5c", "▲５三成桂");
    check(&pos, "3d3c", "▲３三成銀");
    check(&pos, "6e6d", "▲６四馬");
    check(&pos, "4f4b", "▲４二竜");
    for (variant, usi) in [
        ("▲５三圭", "5d5c"),
        ("▲３三全", "3d3c"),
        ("▲７三杏", "7d7c"),
        ("▲４二龍", "4f4b"),
    ] {
        assert_eq!(
            parse_move(&pos, variant, None),
            pos.parse_usi_move(usi).map_err(|_| unreachable!())
        );
    }
}

#[test]
fn drops_take_uchi_only_when_a_board_piece_could_go_there() {
    let pos = board(
        [
            "8k", EMPTY, EMPTY, EMPTY, EMPTY, "4S4", EMPTY, EMPTY, "K3G4",
        ],
        'b',
        "GSP",
    );
    check(&pos, "S*5e", "▲５五銀打");
    check(&pos, "5f5e", "▲５五銀");
    check(&pos, "S*1e", "▲１五銀");
    check(&pos, "G*5h", "▲５八金打");
    check(&pos, "5i5h", "▲５八金");
    check(&pos, "P*2e", "▲２五歩");
    // No bishop in hand and none on the board.
    assert!(matches!(
        parse_move(&pos, "▲５五角", None),
        Err(NotationError::NoPiece { .. })
    ));
    assert!(matches!(
        parse_move(&pos, "▲５五角打", None),
        Err(NotationError::BadDrop { .. })
    ));
    // Nifu: the only pawn that could go to 5e is a drop, and it is illegal.
    let pos = board(
        ["8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "4P4", EMPTY, "K8"],
        'b',
        "P",
    );
    assert!(matches!(
        parse_move(&pos, "▲５五歩打", None),
        Err(NotationError::BadDrop { .. })
    ));
}

#[test]
fn two_golds_side_by_side_are_left_and_right() {
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "K2G1G3",
    ]);
    check(&pos, "6i5h", "▲５八金左");
    check(&pos, "4i5h", "▲５八金右");
    match parse_move(&pos, "▲５八金", None) {
        Err(NotationError::Ambiguous { mut origins }) => {
            origins.sort();
            assert_eq!(origins, ["４九", "６九"])
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parse_move(&pos, "▲５八金直", None),
        Err(NotationError::NoMatch { .. })
    ));
}

#[test]
fn three_golds_use_choku_for_the_one_moving_straight_up() {
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "K2GGG3",
    ]);
    check(&pos, "6i5h", "▲５八金左");
    check(&pos, "5i5h", "▲５八金直");
    check(&pos, "4i5h", "▲５八金右");
}

#[test]
fn motion_words_come_first_up_sideways_back() {
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "5G3", "K3G4",
    ]);
    check(&pos, "5i5h", "▲５八金上");
    check(&pos, "4h5h", "▲５八金寄");
    let pos = black(["8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "4G4", "3G5", "K8"]);
    check(&pos, "5g5h", "▲５八金引");
    check(&pos, "6h5h", "▲５八金寄");
}

#[test]
fn side_and_motion_combine_when_one_word_is_not_enough() {
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "5G3", "K2G1G3",
    ]);
    check(&pos, "4i5h", "▲５八金右上");
    check(&pos, "4h5h", "▲５八金寄");
    check(&pos, "6i5h", "▲５八金左");
}

#[test]
fn silvers() {
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "5S3", EMPTY, "K2S5",
    ]);
    check(&pos, "6i5h", "▲５八銀上");
    check(&pos, "4g5h", "▲５八銀引");
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "K3SS3",
    ]);
    check(&pos, "5i5h", "▲５八銀直");
    check(&pos, "4i5h", "▲５八銀右");
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "3S1S3", EMPTY, "K8",
    ]);
    check(&pos, "6g5h", "▲５八銀左");
    check(&pos, "4g5h", "▲５八銀右");
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "5S3", EMPTY, "K2S1S3",
    ]);
    check(&pos, "4i5h", "▲５八銀右上");
    check(&pos, "4g5h", "▲５八銀引");
    check(&pos, "6i5h", "▲５八銀左");
}

#[test]
fn promoted_silvers_are_told_apart_like_golds() {
    let pos = black([
        "8k", EMPTY, EMPTY, "3+S1+S3", EMPTY, EMPTY, EMPTY, EMPTY, "K8",
    ]);
    check(&pos, "6d5c", "▲５三成銀左");
    check(&pos, "4d5c", "▲５三成銀右");
}

#[test]
fn knights_left_and_right_with_promotion_after_the_words() {
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "K2N1N3",
    ]);
    check(&pos, "6i5g", "▲５七桂左");
    check(&pos, "4i5g", "▲５七桂右");
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, "3N1N3", EMPTY, EMPTY, EMPTY, "K8",
    ]);
    check(&pos, "6e5c+", "▲５三桂左成");
    check(&pos, "4e5c", "▲５三桂右不成");
}

#[test]
fn dragons_moving_back_and_sideways() {
    let pos = black([
        "8k", "4+R4", EMPTY, EMPTY, "1+R7", EMPTY, EMPTY, EMPTY, "K8",
    ]);
    check(&pos, "5b5e", "▲５五竜引");
    check(&pos, "8e5e", "▲５五竜寄");
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, "1+R5+R1", EMPTY, EMPTY, EMPTY, "K8",
    ]);
    check(&pos, "8e5e", "▲５五竜左");
    check(&pos, "2e5e", "▲５五竜右");
}

#[test]
fn dragons_and_horses_on_the_destination_file_use_left_right_not_choku() {
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, "3+R+R4", EMPTY, EMPTY, "K8",
    ]);
    check(&pos, "5f5e", "▲５五竜右");
    check(&pos, "6f5e", "▲５五竜左");
    let pos = black([
        "8k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "4+B+B3", EMPTY, "K8",
    ]);
    check(&pos, "5g5f", "▲５六馬左");
    check(&pos, "4g5f", "▲５六馬右");
}

#[test]
fn horses_moving_back() {
    let pos = black([
        "8k", "1+B7", EMPTY, EMPTY, EMPTY, "4+B4", EMPTY, EMPTY, "K8",
    ]);
    check(&pos, "8b5e", "▲５五馬引");
    check(&pos, "5f5e", "▲５五馬上");
    let pos = black([
        "4k4", "1+B5+B1", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "K8",
    ]);
    check(&pos, "8b5e", "▲５五馬左");
    check(&pos, "2b5e", "▲５五馬右");
}

#[test]
fn white_sees_left_and_right_from_its_own_side() {
    let pos = board(
        [
            "3g1g2k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "K8",
        ],
        'w',
        "-",
    );
    check(&pos, "4a5b", "△５二金左");
    check(&pos, "6a5b", "△５二金右");
    let pos = board(
        [
            "3n1n2k", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "K8",
        ],
        'w',
        "-",
    );
    check(&pos, "4a5c", "△５三桂左");
    check(&pos, "6a5c", "△５三桂右");
    let pos = board(
        ["8k", EMPTY, "3g5", "4g4", EMPTY, EMPTY, EMPTY, EMPTY, "K8"],
        'w',
        "-",
    );
    check(&pos, "5d5c", "△５三金引");
    check(&pos, "6c5c", "△５三金寄");
}

#[test]
fn reading_refuses_impossible_text_and_says_why() {
    let pos = Position::startpos();
    let err = |t: &str| parse_move(&pos, t, None).unwrap_err();
    assert!(matches!(err("▲５五飛"), NotationError::NoPiece { .. }));
    assert_eq!(
        err("△３四歩"),
        NotationError::WrongSide {
            to_move: Color::Black
        }
    );
    assert!(matches!(err("▲５五"), NotationError::Syntax { .. }));
    assert!(matches!(err("▲０五歩"), NotationError::Syntax { .. }));
    assert!(matches!(err("▲７六歩成"), NotationError::CannotPromote));
    assert!(matches!(err("▲７六歩左左"), NotationError::Syntax { .. }));
    assert!(matches!(
        err("▲７六歩(78)"),
        NotationError::BadOrigin { .. }
    ));
    assert!(err("▲７六歩(78)").to_string().contains("(78)"));
    assert!(err("▲５五飛")
        .to_string()
        .contains("no 飛 can move to ５五"));
    // Accepted variants: KIF origin, ASCII or kanji digits, other marks.
    let m = pos.parse_usi_move("7g7f").unwrap();
    for t in [
        "７六歩(77)",
        "☗7六歩",
        "▲76歩",
        "７六歩",
        "▲七六歩",
        " ▲７六歩 ",
    ] {
        assert_eq!(parse_move(&pos, t, None), Ok(m), "{t}");
    }
}

#[test]
fn kanji_numbers_round_trip() {
    for n in 1..=18 {
        assert_eq!(parse_kanji_number(&kanji_number(n)), Some(n));
    }
    assert_eq!(kanji_number(18), "十八");
    assert_eq!(parse_kanji_number("十九十"), None);
}

/// Every legal move of every position of random games (from the start and
/// from positions crowded with identical pieces) gets a text that no other
/// legal move shares, and reads back as itself.
#[test]
fn every_legal_move_round_trips_through_its_text() {
    let starts = [
        crate::position::START_SFEN,
        "l3k3l/1+R+R3+B+B1/p1sg1gs1p/9/2N3N2/9/P1SG1GS1P/9/L3K3L b Nn13p 1",
        "4k4/9/2G3G2/9/1+S1+S1+S1+S1/9/2g3g2/9/4K4 b 2R2B4N4L2P 1",
    ];
    let mut rng = crate::util::rng::XorShift64::new(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for start in starts {
        for _game in 0..6 {
            let mut pos = Position::from_sfen(start).unwrap();
            let mut previous = None;
            for _ply in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mut texts = std::collections::HashSet::new();
                for &m in &moves {
                    let text = move_text(&pos, m, previous);
                    assert!(
                        texts.insert(text.clone()),
                        "{text} twice in {}",
                        pos.to_sfen()
                    );
                    assert_eq!(
                        parse_move(&pos, &text, previous),
                        Ok(m),
                        "{text} in {}",
                        pos.to_sfen()
                    );
                    checked += 1;
                }
                let m = moves[rng.below(moves.len())];
                previous = Some(m.to());
                pos.do_move(m);
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}
