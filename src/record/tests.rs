//! Formats on small hand-checked records: exact output, readers on text as
//! other tools write it, results, and errors that name the line.

use super::*;
use crate::types::Color;

fn game(start: &str, usi: &[&str]) -> Record {
    let pos = position_from_sfen(start).unwrap();
    let mut p = pos.clone();
    let moves: Vec<Move> = usi
        .iter()
        .map(|u| {
            let m = p.parse_usi_move(u).unwrap();
            p.do_move(m);
            m
        })
        .collect();
    Record::from_moves(&pos, &moves)
}

fn sample() -> Record {
    let mut r = game(START_SFEN, &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    r.black = Some("先手太郎".into());
    r.white = Some("後手花子".into());
    r.headers
        .push((keys::START_TIME.into(), "2024/05/01 10:00:00".into()));
    r.comments.push("対局前のコメント".into());
    for (i, t) in [1000, 2000, 61_000, 0, 3000].iter().enumerate() {
        r.moves[i].time_ms = Some(*t);
    }
    r.moves[2].comments.push("角交換".into());
    r.end = Some(GameEnd::new(EndKind::Resign));
    r
}

const SAMPLE_KIF: &str = "# KIF形式棋譜ファイル written by gyoku
開始日時：2024/05/01 10:00:00
手合割：平手
先手：先手太郎
後手：後手花子
*対局前のコメント
手数----指手---------消費時間--
   1 ７六歩(77)    ( 0:01/00:00:01)
   2 ３四歩(33)    ( 0:02/00:00:02)
   3 ２二角成(88)  ( 1:01/00:01:02)
*角交換
   4 同　銀(31)    ( 0:00/00:00:02)
   5 ４五角打      ( 0:03/00:01:05)
   6 投了
まで5手で先手の勝ち
";

#[test]
fn kif_is_written_as_kifu_for_windows_lays_it_out() {
    assert_eq!(write_str(&sample(), Format::Kif).unwrap(), SAMPLE_KIF);
    assert_eq!(read_str(SAMPLE_KIF, Format::Kif).unwrap(), sample());
}

#[test]
fn every_format_round_trips_the_sample() {
    let r = sample();
    for format in [Format::Kif, Format::Ki2, Format::Csa, Format::Usi] {
        let text = write_str(&r, format).unwrap();
        let back = read_str(&text, format).unwrap_or_else(|e| panic!("{format:?}: {e}\n{text}"));
        assert_eq!(back.move_list(), r.move_list(), "{format:?}");
        if format != Format::Usi {
            assert_eq!(back.winner(), Some(Color::Black), "{format:?}");
            assert_eq!(
                (&back.black, &back.white),
                (&r.black, &r.white),
                "{format:?}"
            );
            assert_eq!(back.header(keys::START_TIME), r.header(keys::START_TIME));
            assert_eq!(back.moves[2].comments, ["角交換"], "{format:?}");
        }
    }
    let ki2 = write_str(&r, Format::Ki2).unwrap();
    assert!(
        ki2.contains(
            "▲７六歩    △３四歩    ▲２二角成\n*角交換\n△同　銀    ▲４五角\nまで5手で先手の勝ち\n"
        ),
        "{ki2}"
    );
    let csa = write_str(&r, Format::Csa).unwrap();
    assert!(csa.starts_with("V2.2\nN+先手太郎\nN-後手花子\n$START_TIME:2024/05/01 10:00:00\n'対局前のコメント\nPI\n+\n+7776FU\nT1\n-3334FU\nT2\n+8822UM\nT61\n'角交換\n-3122GI\n"), "{csa}");
    assert!(csa.ends_with("+0045KA\nT3\n%TORYO\n"), "{csa}");
    assert_eq!(
        write_str(&r, Format::Usi).unwrap(),
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n"
    );
}

#[test]
fn kif_as_other_tools_write_it_is_read() {
    let text = "\u{feff}# ---- Kifu for Windows V7 棋譜ファイル ----\r
開始日時：2024/05/01　\r
手合割：平手　　\r
先手：A\r
後手：B\r
手数----指手---------消費時間--\r
   1 ７六歩(77)   ( 0:16/00:00:16)\r
   2 ３四歩(33)   ( 0:05/00:00:05)+\r
&しおり\r
   3 ２二角不成(88)   ( 0:10/00:00:26)\r
**解析 0 ○ 候補1\r
   4 同　銀(31)\r
   5 中断\r
まで4手で中断\r
\r
変化：3手\r
   3 ６六歩(67)   ( 0:00/00:00:16)\r
";
    let r = read_str(text, Format::Kif).unwrap();
    assert_eq!(r.moves.len(), 4);
    assert_eq!(r.moves[0].time_ms, Some(16_000));
    assert_eq!(r.moves[2].mv.to_string(), "8h2b");
    assert_eq!(r.moves[2].comments, ["*解析 0 ○ 候補1"]);
    assert_eq!(r.moves[3].time_ms, None);
    assert_eq!(r.end.as_ref().map(|e| &e.kind), Some(&EndKind::Abort));
    assert_eq!(r.header(keys::START_TIME), Some("2024/05/01"));
}

#[test]
fn handicap_games_name_the_handicap_and_the_players_shitate_uwate() {
    let start = handicap::sfen_of("二枚落ち").unwrap();
    let mut r = game(start, &["5a6b", "7g7f", "3a3b"]);
    r.black = Some("下手の人".into());
    r.white = Some("上手の人".into());
    r.end = Some(GameEnd::new(EndKind::Resign));
    let kif = write_str(&r, Format::Kif).unwrap();
    assert!(
        kif.contains("手合割：二枚落ち\n下手：下手の人\n上手：上手の人\n"),
        "{kif}"
    );
    assert!(kif.contains("まで3手で上手の勝ち"), "{kif}");
    let ki2 = write_str(&r, Format::Ki2).unwrap();
    assert!(ki2.contains("△６二玉    ▲７六歩    △３二銀\n"), "{ki2}");
    for format in [Format::Kif, Format::Ki2, Format::Csa] {
        let back = read_str(&write_str(&r, format).unwrap(), format).unwrap();
        assert_eq!(back.start_sfen, start, "{format:?}");
        assert_eq!(back.handicap(), Some("二枚落ち"));
        assert_eq!(back.move_list(), r.move_list(), "{format:?}");
        assert_eq!(back.winner(), Some(Color::White), "{format:?}");
    }
}

#[test]
fn every_handicap_of_the_rules_reads_from_its_kif_name() {
    for (name, sfen) in handicap::HANDICAPS {
        let text = format!("手合割：{name}\n手数----指手---------消費時間--\n");
        match read_str(&text, Format::Kif) {
            Ok(r) => assert_eq!(r.start_sfen, sfen, "{name}"),
            Err(e) => panic!("{name}: {e}"),
        }
        let r = game(sfen, &[]);
        let kif = write_str(&r, Format::Kif).unwrap();
        assert_eq!(
            read_str(&kif, Format::Kif).unwrap().start_sfen,
            sfen,
            "{name}:\n{kif}"
        );
    }
}

#[test]
fn other_starts_are_a_board_diagram() {
    let sfen = "ln1g1g1nl/1r2k2b1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1B5R1/LN1GKG1NL w 2Ss 12";
    let r = game(sfen, &["5b4b"]);
    let kif = write_str(&r, Format::Kif).unwrap();
    assert!(kif.contains("後手の持駒：銀\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n|v香v桂 ・v金 ・v金 ・v桂v香|一\n"), "{kif}");
    assert!(kif.contains("先手の持駒：銀二\n後手番\n"), "{kif}");
    for format in [Format::Kif, Format::Ki2, Format::Csa, Format::Usi] {
        let back = read_str(&write_str(&r, format).unwrap(), format).unwrap();
        let expected = position_from_sfen(sfen).unwrap();
        let got = back.start_position().unwrap();
        assert_eq!(
            got.to_sfen().rsplit_once(' ').unwrap().0,
            expected.to_sfen().rsplit_once(' ').unwrap().0,
            "{format:?}"
        );
        assert_eq!(back.move_list(), r.move_list());
    }
}

#[test]
fn csa_as_servers_write_it_is_read() {
    let text = "'CSA encoding=UTF-8
V2.2
N+sente
N-gote
$EVENT:test,event
$TIME_LIMIT:00:10+10
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  *  *  *
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  *
P5 *  *  *  *  *  *  *  *  *
P6 *  *  *  *  *  *  *  *  *
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI *
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
-
-3334FU,T3
+7776FU,T0
'* 30 -8384FU
-8384FU
T1.5
%TORYO,T2
'result
/
PI
+
";
    let r = read_str(text, Format::Csa).unwrap();
    assert_eq!(r.handicap(), Some("角落ち"));
    assert_eq!(r.header(keys::EVENT), Some("test,event"));
    assert_eq!(r.header(keys::TIME_LIMIT), Some("00:10+10"));
    assert_eq!(r.moves.len(), 3);
    assert_eq!(r.moves[1].comments, ["* 30 -8384FU"]);
    assert_eq!(r.moves[2].time_ms, Some(1500));
    let end = r.end.as_ref().unwrap();
    assert_eq!(
        (end.kind.clone(), end.time_ms, end.comments.clone()),
        (EndKind::Resign, Some(2000), vec!["result".to_string()])
    );
    assert_eq!(r.winner(), Some(Color::White));
    let pi = read_str("PI82HI22KA\n-\n-5142OU\n", Format::Csa).unwrap();
    assert_eq!(pi.handicap(), Some("二枚落ち"));
    let hands = read_str("P1 *  *  *  *  * -OU *  *  * \nP2\nP3\nP4\nP5\nP6\nP7\nP8\nP9 *  *  *  * +OU *  *  *  * \nP+00KI00FU\nP-00AL\n+\n", Format::Csa);
    let r = hands.unwrap();
    let pos = r.start_position().unwrap();
    assert_eq!(
        pos.hand(Color::Black).count(crate::types::PieceType::Gold),
        1
    );
    assert_eq!(
        pos.hand(Color::White).count(crate::types::PieceType::Pawn),
        17
    );
}

#[test]
fn every_end_keeps_its_winner_through_every_format() {
    let kinds = [
        EndKind::Resign,
        EndKind::Mate,
        EndKind::Repetition,
        EndKind::PerpetualCheck,
        EndKind::Impasse,
        EndKind::Timeout,
        EndKind::IllegalMove,
        EndKind::IllegalWin,
        EndKind::DeclareWin,
        EndKind::Abort,
    ];
    for kind in kinds {
        let mut r = game(START_SFEN, &["7g7f", "3c3d", "2g2f"]);
        r.end = Some(GameEnd::new(kind.clone()));
        let winner = r.winner();
        for format in [Format::Kif, Format::Ki2, Format::Csa] {
            let text = write_str(&r, format).unwrap();
            let back = read_str(&text, format)
                .unwrap_or_else(|e| panic!("{kind:?} {format:?}: {e}\n{text}"));
            assert!(back.end.is_some(), "{kind:?} {format:?}");
            assert_eq!(back.winner(), winner, "{kind:?} {format:?}\n{text}");
        }
    }
}

fn err(text: &str, format: Format) -> RecordError {
    read_str(text, format).unwrap_err()
}

#[test]
fn malformed_records_name_the_line() {
    let e = err("手合割：九枚落ち\n", Format::Kif);
    assert_eq!(
        e.to_string(),
        "line 1: unknown handicap '九枚落ち' in 手合割"
    );
    let e = err("先手：a\nこれはヘッダではない\n", Format::Kif);
    assert!(matches!(e, RecordError::Syntax { line: 2, .. }), "{e}");
    let illegal = SAMPLE_KIF.replace("   3 ２二角成(88)", "   3 ２二飛成(88)");
    match err(&illegal, Format::Kif) {
        RecordError::Move { line, number, .. } => assert_eq!((line, number), (10, 3)),
        other => panic!("{other}"),
    }
    let skipped = SAMPLE_KIF.replace("   2 ３四歩(33)", "   3 ３四歩(33)");
    assert!(matches!(
        err(&skipped, Format::Kif),
        RecordError::Syntax { line: 9, .. }
    ));
    let truncated = &SAMPLE_KIF[..SAMPLE_KIF.find("( 1:01").unwrap() + 3];
    assert!(matches!(
        err(truncated, Format::Kif),
        RecordError::Move { line: 10, .. }
    ));
    let e = err("▲７六歩　△３四歩\n▲５五飛\n", Format::Ki2);
    assert!(
        matches!(
            e,
            RecordError::Move {
                line: 2,
                number: 3,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("no 飛 can move to ５五"), "{e}");
    let e = err(
        "PI\n+\n+7776FU\n-3334FU\n+2726FU,-8384FU,+7776FU\n",
        Format::Csa,
    );
    assert!(
        matches!(
            e,
            RecordError::Move {
                line: 5,
                number: 5,
                ..
            }
        ),
        "{e}"
    );
    let e = err("P1-KY-KE\nP2\n+\n", Format::Csa);
    assert!(matches!(e, RecordError::Syntax { line: 3, .. }), "{e}");
    assert!(matches!(
        err("V2.2\nPI\n", Format::Csa),
        RecordError::Syntax { line: 2, .. }
    ));
    assert!(matches!(
        err("startpos moves 7g7f 7g7f", Format::Usi),
        RecordError::Move { number: 2, .. }
    ));
    assert_eq!(err("", Format::Kif), RecordError::Empty);
    let bad_bod =
        "後手の持駒：なし\n+---------------------------+\n|v香v桂v銀v金v玉v金v銀v桂v香|一\n";
    assert!(matches!(
        err(bad_bod, Format::Kif),
        RecordError::Syntax { line: 3, .. }
    ));
}

#[test]
fn wrong_encoding_is_reported_with_its_line() {
    let sjis = write(&sample(), FileFormat::from_name("kif").unwrap()).unwrap();
    assert!(sjis.windows(2).any(|w| w == b"\r\n"));
    assert_eq!(
        read(&sjis, FileFormat::from_name("kif").unwrap()).unwrap(),
        sample()
    );
    // UTF-8 in a .kif file is fine; Shift_JIS in a .kifu file is not.
    let utf8 = write(&sample(), FileFormat::from_name("kifu").unwrap()).unwrap();
    assert_eq!(
        read(&utf8, FileFormat::from_name("kif").unwrap()).unwrap(),
        sample()
    );
    let e = read(&sjis, FileFormat::from_name("kifu").unwrap()).unwrap_err();
    assert_eq!(
        e,
        RecordError::Encoding {
            line: 1,
            expected: Encoding::Utf8
        }
    );
    assert!(e.to_string().starts_with("line 1: not valid UTF-8"));
    let mut cut = utf8.clone();
    let at = cut.iter().position(|&b| b >= 0xE0).unwrap(); // a kanji's first byte
    cut.truncate(at + 1);
    assert!(matches!(
        read(&cut, FileFormat::from_name("kifu").unwrap()),
        Err(RecordError::Encoding { .. })
    ));
    let mut named = sample();
    named.black = Some("🐢".into());
    assert!(matches!(
        write(&named, FileFormat::from_name("kif").unwrap()),
        Err(RecordError::Unencodable {
            line: 4,
            character: '🐢'
        })
    ));
}

#[test]
fn formats_by_name_and_extension() {
    let f = |p: &str| FileFormat::from_path(Path::new(p)).map(|f| (f.format, f.encoding));
    assert_eq!(f("a.kif"), Some((Format::Kif, Encoding::ShiftJis)));
    assert_eq!(f("a.KIFU"), Some((Format::Kif, Encoding::Utf8)));
    assert_eq!(f("dir.x/a.ki2"), Some((Format::Ki2, Encoding::ShiftJis)));
    assert_eq!(f("a.csa"), Some((Format::Csa, Encoding::Utf8)));
    assert_eq!(f("a.usi"), Some((Format::Usi, Encoding::Utf8)));
    assert_eq!(f("a.txt"), None);
}
