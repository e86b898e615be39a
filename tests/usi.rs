//! Drives the `gyoku` binary over pipes the way GUIs and match runners do.

mod common;

use common::{Engine, STARTPOS};
use gyoku::Position;
use std::time::{Duration, Instant};

fn position_after(sfen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_sfen(sfen).unwrap();
    for m in moves {
        let m = pos.parse_usi_move(m).unwrap();
        pos.do_move(m);
    }
    pos
}

fn assert_legal(pos: &Position, text: &str) {
    assert!(
        pos.parse_usi_move(text).is_ok(),
        "{text} is not legal in {}",
        pos.to_sfen()
    );
}

#[test]
fn handshake_declares_options_without_spaces() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.wait_for("usiok", 5);
    assert!(lines.iter().any(|l| l.starts_with("id name gyoku")));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for l in lines.iter().filter(|l| l.starts_with("option")) {
        let t: Vec<&str> = l.split(' ').collect();
        assert_eq!((t[1], t[3]), ("name", "type"), "{l}");
    }
    for name in [
        "USI_Hash",
        "Threads",
        "USI_Ponder",
        "MultiPV",
        "NetworkDelay",
        "MinimumThinkingTime",
        "EnteringKingRule",
        "MaxMovesToDraw",
        "DrawValueBlack",
        "DrawValueWhite",
        "EvalFile",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} "))),
            "{name} missing"
        );
    }
}

#[test]
fn byoyomi_move_is_legal_and_in_time() {
    let mut e = Engine::start();
    e.send("position startpos");
    let t = Instant::now();
    e.send("go btime 0 wtime 0 byoyomi 1000");
    let (m, lines) = e.bestmove(5);
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "took {:?}",
        t.elapsed()
    );
    assert_legal(&Position::startpos(), &m);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "no info line: {lines:?}"
    );
}

#[test]
fn white_reads_its_own_clock() {
    let mut e = Engine::start();
    let moves = ["7g7f", "3c3d", "2g2f"];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let t = Instant::now();
    // Black's ten minutes would plan about 8.6 s; White's byoyomi alone
    // allows 1 s. The bound leaves room for a loaded test machine (a 1 s
    // bound failed there now and then).
    e.send("go btime 600000 wtime 0 byoyomi 1000");
    let (m, _) = e.bestmove(5);
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "took {:?}",
        t.elapsed()
    );
    assert_legal(&position_after(STARTPOS, &moves), &m);
}

#[test]
fn sudden_death_with_little_time_moves_fast() {
    let mut e = Engine::start();
    e.send("position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    let t = Instant::now();
    e.send("go btime 60000 wtime 300 byoyomi 0");
    let (m, _) = e.bestmove(5);
    assert!(
        t.elapsed() < Duration::from_millis(300),
        "took {:?}",
        t.elapsed()
    );
    assert_legal(
        &Position::from_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
            .unwrap(),
        &m,
    );
}

#[test]
fn depth_and_nodes_limits_end_by_themselves() {
    let mut e = Engine::start();
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go depth 2");
    let (m, _) = e.bestmove(10);
    assert_legal(&position_after(STARTPOS, &["7g7f", "3c3d"]), &m);
    e.send("go nodes 5000");
    let (m, _) = e.bestmove(10);
    assert_legal(&position_after(STARTPOS, &["7g7f", "3c3d"]), &m);
}

/// cshogi and shogiarena send `go btime 0 wtime 0 nodes N` for games at a
/// fixed node count: the zero clock must not cut the search short, so it
/// searches exactly as `go nodes N` does (one thread: deterministic).
#[test]
fn a_zero_clock_beside_a_node_limit_searches_the_nodes() {
    let deepest = |lines: &[String]| {
        lines
            .iter()
            .filter_map(|l| {
                l.strip_prefix("info depth ")?
                    .split(' ')
                    .next()?
                    .parse::<u32>()
                    .ok()
            })
            .max()
            .unwrap_or(0)
    };
    let mut e = Engine::start();
    let mut searched = Vec::new();
    for go in ["go nodes 20000", "go btime 0 wtime 0 nodes 20000"] {
        e.send("usinewgame");
        e.send("position startpos moves 7g7f 3c3d");
        e.send(go);
        let (m, lines) = e.bestmove(10);
        assert_legal(&position_after(STARTPOS, &["7g7f", "3c3d"]), &m);
        searched.push((m, deepest(&lines)));
    }
    assert!(searched[0].1 >= 5, "{searched:?}");
    assert_eq!(searched[0], searched[1]);
}

#[test]
fn infinite_waits_for_stop_and_answers_isready_meanwhile() {
    let mut e = Engine::start();
    // Mate in one: a search could end at once, but must not answer yet.
    e.send("position sfen lns+R4l/1p1pS4/p1p1ppB1p/4k1p2/1R7/6P1P/P1PPnPS2/2+b1G1g2/L3K1sNL b 2G3Pnp 3");
    e.send("go infinite");
    let early = e.drain(700);
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("isready");
    let lines = e.wait_for("readyok", 2);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    let t = Instant::now();
    e.send("stop");
    e.bestmove(2);
    assert!(t.elapsed() < Duration::from_millis(500));
}

#[test]
fn ponder_waits_for_ponderhit_then_keeps_the_clock() {
    let mut e = Engine::start();
    e.send("setoption name USI_Ponder value true");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go ponder btime 0 wtime 0 byoyomi 1000");
    let early = e.drain(1500);
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    let t = Instant::now();
    e.send("ponderhit");
    let (m, _) = e.bestmove(5);
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "took {:?}",
        t.elapsed()
    );
    assert_legal(&position_after(STARTPOS, &["7g7f", "3c3d"]), &m);
}

#[test]
fn ponder_stop_answers_then_a_new_go_works() {
    let mut e = Engine::start();
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go ponder btime 0 wtime 0 byoyomi 1000");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let lines = e.wait_for("bestmove", 2);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    e.send("position startpos moves 7g7f 8c8d");
    e.send("go btime 0 wtime 0 byoyomi 500");
    let (m, _) = e.bestmove(5);
    assert_legal(&position_after(STARTPOS, &["7g7f", "8c8d"]), &m);
}

#[test]
fn stray_stop_and_gameover_while_idle_print_no_bestmove() {
    let mut e = Engine::start();
    e.send("stop");
    e.send("ponderhit");
    e.send("gameover win");
    e.send("isready");
    let lines = e.wait_for("readyok", 2);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
}

#[test]
fn mated_side_resigns_and_valid_declaration_wins() {
    let mut e = Engine::start();
    e.send("position sfen 4k4/9/9/9/9/9/4s4/4g4/4K4 b - 1");
    e.send("go btime 0 wtime 0 byoyomi 500");
    assert_eq!(e.bestmove(5).0, "resign");
    e.send("position sfen ln6l/4KG3/PPPPPPPPP/9/9/9/9/2gsgs3/3sk4 b 2R2B 1");
    e.send("go btime 0 wtime 0 byoyomi 500");
    assert_eq!(e.bestmove(5).0, "win");
    // One piece short in the camp: declaring would lose.
    e.send("position sfen ln6l/4K4/PPPPPPPPP/9/9/9/9/2gsgs3/3sk4 b 2R2BG 1");
    e.send("go btime 0 wtime 0 byoyomi 500");
    assert_ne!(e.bestmove(5).0, "win");
    e.send("setoption name EnteringKingRule value NoEnteringKing");
    e.send("position sfen ln6l/4KG3/PPPPPPPPP/9/9/9/9/2gsgs3/3sk4 b 2R2B 1");
    e.send("go btime 0 wtime 0 byoyomi 500");
    assert_ne!(e.bestmove(5).0, "win");
    // Try rule: the king steps onto 5a, White's king's starting square.
    e.send("setoption name EnteringKingRule value TryRule");
    e.send("position sfen 9/3K5/9/9/9/9/2gsgs3/9/3sk4 b - 1");
    e.send("go btime 0 wtime 0 byoyomi 500");
    assert_eq!(e.bestmove(5).0, "6b5a");
    // With the square guarded there is no try, and no declaration either.
    e.send("position sfen 3g5/3K5/9/9/9/9/2gsgs3/9/3sk4 b - 1");
    e.send("go btime 0 wtime 0 byoyomi 500");
    let (m, _) = e.bestmove(5);
    assert!(m != "6b5a" && m != "win", "{m}");
}

#[test]
fn resign_value_resigns_only_lost_positions_and_only_when_set() {
    let mut e = Engine::start();
    // Black has a lone king against everything: lost, but not yet mated.
    let lost = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/9/9/4K4 b - 1";
    e.send(lost);
    e.send("go btime 0 wtime 0 byoyomi 300");
    assert_ne!(e.bestmove(5).0, "resign", "ResignValue is off by default");
    e.send("setoption name ResignValue value 3000");
    e.send(lost);
    e.send("go btime 0 wtime 0 byoyomi 300");
    assert_eq!(e.bestmove(5).0, "resign");
    // Analysis never resigns.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    assert_ne!(e.bestmove(5).0, "resign");
    e.send("position startpos");
    e.send("go btime 0 wtime 0 byoyomi 300");
    assert_ne!(e.bestmove(5).0, "resign");
}

/// Whether the USI moves `moves`, played from the tsume `sfen`, end in
/// checkmate.
fn ends_in_mate(sfen: &str, moves: &[&str]) -> bool {
    let mut pos = gyoku::mate::tsume_position(sfen).unwrap();
    for m in moves {
        let m = pos.parse_usi_move(m).unwrap();
        pos.do_move(m);
    }
    pos.is_checkmate()
}

#[test]
fn go_mate_answers_checkmate_lines_only() {
    let mut e = Engine::start();
    // 9-ply tsume without the attacker's king.
    let sfen = "4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p 1";
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 5000");
    let lines = e.wait_for("checkmate", 10);
    let last = lines.last().unwrap();
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    let moves: Vec<&str> = last.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 9, "{last}");
    assert!(ends_in_mate(sfen, &moves));

    // Checks exist but no mate.
    e.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b R 1");
    e.send("go mate 2000");
    let last = e.wait_for("checkmate", 5).pop().unwrap();
    assert!(
        last == "checkmate nomate" || last == "checkmate timeout",
        "{last}"
    );

    // Only a pawn-drop mate: not a mate.
    e.send("position sfen 7nk/7p1/8L/9/9/9/9/9/4K4 b P 1");
    e.send("go mate 2000");
    let last = e.wait_for("checkmate", 5).pop().unwrap();
    assert!(!last.contains("P*1b"), "{last}");
}

#[test]
fn stop_during_go_mate_infinite_answers_at_once() {
    let mut e = Engine::start();
    // A hard problem that does not finish in the time we wait.
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go mate infinite");
    let early = e.drain(300);
    if let Some(l) = early.iter().find(|l| l.starts_with("checkmate")) {
        assert!(l == "checkmate nomate", "{l}");
        return;
    }
    let t = Instant::now();
    e.send("stop");
    let last = e.wait_for("checkmate", 2).pop().unwrap();
    assert!(t.elapsed() < Duration::from_millis(500));
    assert!(
        last == "checkmate timeout" || last == "checkmate nomate",
        "{last}"
    );
}

#[test]
fn bad_input_gets_info_strings_and_keeps_state() {
    let mut e = Engine::start();
    e.send("position startpos moves 7g7f");
    let garbage: Vec<String> = vec![
        "hello world".into(),
        "position".into(),
        "position sfen xyz b - 1".into(),
        "setoption name USI_Hash value notanumber".into(),
        "setoption name NoSuchOption value 1".into(),
        "gameover maybe".into(),
        "x".repeat(200_000),
    ];
    for g in &garbage {
        e.send(g);
        e.send("isready");
        let lines = e.wait_for("readyok", 3);
        for l in &lines[..lines.len() - 1] {
            assert!(
                l.starts_with("info string error"),
                "after {:?}: {l}",
                &g[..g.len().min(30)]
            );
        }
        assert_eq!(
            lines.len(),
            2,
            "one diagnostic for {:?}: {lines:?}",
            &g[..g.len().min(30)]
        );
    }
    e.send_raw(b"\xff\xfe garbage\r\n");
    e.send_raw(b"isready\r\n");
    e.wait_for("readyok", 3);
    // The position is still the one after 7g7f: White to move.
    e.send("go btime 0 wtime 0 byoyomi 300");
    let (m, _) = e.bestmove(5);
    assert_legal(&position_after(STARTPOS, &["7g7f"]), &m);
}

#[test]
fn illegal_move_keeps_the_legal_prefix() {
    let mut e = Engine::start();
    e.send("position startpos moves 7g7f 7g7f 3c3d");
    let lines = e.wait_for("info string error", 2);
    assert!(lines.last().unwrap().contains("move 2"), "{lines:?}");
    e.send("go btime 0 wtime 0 byoyomi 300");
    let (m, _) = e.bestmove(5);
    assert_legal(&position_after(STARTPOS, &["7g7f"]), &m);
}

#[test]
fn crlf_and_extra_spaces_are_accepted() {
    let mut e = Engine::start();
    e.send_raw(b"position  startpos   moves   7g7f  \r\n");
    e.send_raw(b"go  btime 0  wtime 0   byoyomi 300\r\n");
    let (m, _) = e.bestmove(5);
    assert_legal(&position_after(STARTPOS, &["7g7f"]), &m);
}

#[test]
fn quit_during_search_exits_quickly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "took {:?}",
        t.elapsed()
    );
}

#[test]
fn several_games_in_one_process() {
    let mut e = Engine::start();
    for sfen in [
        STARTPOS,
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ] {
        e.send("usinewgame");
        e.send(&format!("position sfen {sfen}"));
        e.send("go btime 0 wtime 0 byoyomi 300");
        let (m, _) = e.bestmove(5);
        assert_legal(&Position::from_sfen(sfen).unwrap(), &m);
        e.send("gameover draw");
        e.send("isready");
        let lines = e.wait_for("readyok", 5);
        assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    }
}

#[test]
fn timed_search_plays_a_long_mate_found_by_the_tsume_solver() {
    let mut e = Engine::start();
    // A 9-ply mate: far beyond what alpha-beta sees in a second.
    e.send("position sfen 4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p 1");
    e.send("go btime 0 wtime 0 byoyomi 1000");
    let (m, lines) = e.bestmove(5);
    let mate_line = lines
        .iter()
        .find(|l| l.contains("score mate 9 "))
        .unwrap_or_else(|| panic!("no mate-in-9 info: {lines:?}"));
    let first_pv_move = mate_line
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(m, first_pv_move);
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go depth 4");
    let (_, lines) = e.bestmove(20);
    let mut firsts = std::collections::BTreeMap::new();
    for l in lines
        .iter()
        .filter(|l| l.contains(" depth 4 ") && l.contains(" pv "))
    {
        let index = l
            .split(" multipv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        let first = l
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        firsts.insert(index, first);
    }
    assert_eq!(
        firsts.keys().cloned().collect::<Vec<_>>(),
        ["1", "2", "3"],
        "{lines:?}"
    );
    let distinct: std::collections::BTreeSet<_> = firsts.values().collect();
    assert_eq!(distinct.len(), 3, "{firsts:?}");
}

/// `EvalFile`: a missing, truncated or corrupted file gets one `info string
/// error` naming the problem and the engine keeps its evaluation; a good
/// net is loaded and searched with; `<linear>` switches to the linear
/// evaluation and `<empty>` goes back to the built-in network.
#[test]
fn eval_file_loads_good_nets_and_refuses_bad_ones() {
    use gyoku::nnue::{FeatureSet, Network};
    let dir = std::env::temp_dir().join(format!("gyoku-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = Network::random(5, FeatureSet::HalfKpMirror, 32).write();
    let good = dir.join("good.nn");
    std::fs::write(&good, &bytes).unwrap();
    let truncated = dir.join("truncated.nn");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let mut flipped = bytes.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x10;
    let corrupted = dir.join("corrupted.nn");
    std::fs::write(&corrupted, &flipped).unwrap();

    let mut e = Engine::start();
    for (path, expect) in [
        (dir.join("missing.nn"), "no such file"),
        (truncated, "truncated"),
        (corrupted, "checksum"),
    ] {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        e.send("isready");
        let lines = e.wait_for("readyok", 5);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("info string error") && lines[0].contains(expect),
            "{lines:?}"
        );
    }
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.send("isready");
    let lines = e.wait_for("readyok", 5);
    assert!(
        lines[0].contains("HalfKP-mirror network, L1 32"),
        "{lines:?}"
    );
    e.send("position startpos moves 7g7f");
    e.send("go depth 6");
    let (m, _) = e.bestmove(20);
    assert_legal(&position_after(STARTPOS, &["7g7f"]), &m);
    for value in ["<linear>", "<empty>"] {
        e.send(&format!("setoption name EvalFile value {value}"));
        e.send("go depth 4");
        let (m, _) = e.bestmove(20);
        assert_legal(&position_after(STARTPOS, &["7g7f"]), &m);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `NodesLimit` and `DepthLimit` cap every `go`, even one with a long clock;
/// `Clear Hash` (with a space) is accepted; `USI_Variant` takes only shogi.
#[test]
fn nodes_and_depth_limits_cap_every_search() {
    let mut e = Engine::start();
    e.send("setoption name USI_OwnBook value false");
    e.send("setoption name NodesLimit value 3000");
    e.send("position startpos");
    let start = Instant::now();
    e.send("go btime 0 wtime 0 byoyomi 20000");
    let lines = e.wait_for("bestmove", 10);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let nodes: Vec<u64> = lines
        .iter()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.iter()
                .position(|&w| w == "nodes")
                .and_then(|i| t.get(i + 1)?.parse().ok())
        })
        .collect();
    assert!(nodes.iter().all(|&n| n <= 3000 + 2048), "{nodes:?}");
    e.send("setoption name NodesLimit value 0");
    e.send("setoption name DepthLimit value 3");
    e.send("go btime 0 wtime 0 byoyomi 20000");
    let lines = e.wait_for("bestmove", 10);
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.first() == Some(&"info") && t.get(1) == Some(&"depth"))
                .then(|| t[2].parse().ok())
                .flatten()
        })
        .collect();
    assert_eq!(depths.iter().max(), Some(&3), "{lines:?}");
    for good in [
        "setoption name Clear Hash",
        "setoption name USI_Variant value shogi",
    ] {
        e.send(good);
        e.send("isready");
        assert_eq!(e.wait_for("readyok", 5).len(), 1, "{good}");
    }
    e.send("setoption name USI_Variant value chess");
    e.send("isready");
    let lines = e.wait_for("readyok", 5);
    assert!(lines[0].starts_with("info string error"), "{lines:?}");
}

/// The opening book: the built-in one answers the start position at once
/// with an `info` line; a BookFile's bad lines are reported by number and
/// its good moves used; USI_OwnBook false, BookMoves and `<empty>` turn it
/// off.
#[test]
fn book_moves_come_from_the_book_options_allow() {
    let mut e = Engine::start();
    e.send("position startpos");
    let start = Instant::now();
    e.send("go btime 0 wtime 0 byoyomi 10000");
    let lines = e.wait_for("bestmove", 5);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
    let dir = std::env::temp_dir().join(format!("gyoku-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.db");
    std::fs::write(
        &file,
        format!(
            "#YANEURAOU-DB2016 1.00\nsfen {STARTPOS}\n2g2f 8c8d 10 1 5\n5e5d none 0 0 1\nbogus\n"
        ),
    )
    .unwrap();
    e.send(&format!("setoption name BookFile value {}", file.display()));
    e.send("isready");
    let lines = e.wait_for("readyok", 5);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(
        errors[0].contains("line 4") && errors[1].contains("line 5"),
        "{errors:?}"
    );
    e.send("go btime 0 wtime 0 byoyomi 10000");
    let (_, lines) = e.bestmove(5);
    assert_eq!(lines.last().unwrap(), "bestmove 2g2f ponder 8c8d");
    for off in [
        "setoption name USI_OwnBook value false",
        "setoption name BookMoves value 0",
        "setoption name BookFile value <empty>",
    ] {
        let mut f = Engine::start();
        f.send(&format!("setoption name BookFile value {}", file.display()));
        f.send(off);
        f.send("position startpos");
        f.send("go depth 3");
        let lines = f.wait_for("bestmove", 10);
        assert!(
            !lines.iter().any(|l| l.starts_with("info string book move")),
            "{off}: {lines:?}"
        );
    }
    e.send("setoption name BookFile value /no/such/book.db");
    e.send("isready");
    let lines = e.wait_for("readyok", 5);
    assert!(lines[0].contains("no such file"), "{lines:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each mate the solver proves (the first, then each shorter one) is
/// reported at once as `info ... score mate N pv ...`, so a GUI shows the
/// best line while the solve goes on; the last one is the answer.
#[test]
fn go_mate_reports_each_proven_line() {
    let mut e = Engine::start();
    let sfen = "4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p 1";
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 5000");
    let lines = e.wait_for("checkmate", 10);
    let reported: Vec<Vec<&str>> = lines
        .iter()
        .filter(|l| l.starts_with("info time") && l.contains(" pv "))
        .map(|l| l.split(" pv ").nth(1).unwrap().split_whitespace().collect())
        .collect();
    assert!(!reported.is_empty(), "{lines:?}");
    for (line, moves) in lines.iter().filter(|l| l.contains(" pv ")).zip(&reported) {
        assert!(
            line.contains(&format!(" score mate {} pv ", moves.len())),
            "{line}"
        );
        assert!(ends_in_mate(sfen, moves), "{line}");
    }
    let answer: Vec<&str> = lines.last().unwrap().split_whitespace().skip(1).collect();
    assert_eq!(reported.last().unwrap(), &answer);
}

/// A long `go mate` reports its progress (`info time .. nodes .. nps ..
/// hashfull ..`) about once a second, and still answers `stop` at once.
#[test]
fn long_go_mate_reports_progress() {
    let mut e = Engine::start();
    // Rook and gold against a bare king (no attacker king): checks go on
    // and on, and the solver does not finish in the time we wait.
    e.send("position sfen 8k/9/9/9/9/9/9/9/9 b RG 1");
    e.send("go mate infinite");
    let lines = e.drain(2600);
    let progress: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info time"))
        .collect();
    if lines.iter().any(|l| l.starts_with("checkmate")) {
        return; // solved on a fast machine: nothing left to report
    }
    assert!(!progress.is_empty(), "{lines:?}");
    let t: Vec<&str> = progress[0].split_whitespace().collect();
    assert_eq!(
        (t[1], t[3], t[5], t[7]),
        ("time", "nodes", "nps", "hashfull"),
        "{t:?}"
    );
    assert!(t[4].parse::<u64>().unwrap() > 0);
    let start = Instant::now();
    e.send("stop");
    e.wait_for("checkmate", 2);
    assert!(start.elapsed() < Duration::from_secs(1));
}

/// `PvInterval` holds PV lines back (the last one still comes before
/// `bestmove`); `OutputFailLHPV false` drops fail-low/high lines.
#[test]
fn pv_interval_and_fail_bounds_filter_pv_lines() {
    let mut e = Engine::start();
    e.send("setoption name USI_OwnBook value false");
    e.send("setoption name PvInterval value 100000");
    e.send("setoption name OutputFailLHPV value false");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go depth 9");
    let lines = e.wait_for("bestmove", 20);
    let pv: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(pv.len(), 2, "{lines:?}");
    assert!(pv[0].starts_with("info depth 1 "), "{pv:?}");
    assert!(pv[1].starts_with("info depth 9 "), "{pv:?}");
    assert!(!lines.iter().any(|l| l.contains("bound ")), "{lines:?}");
    // Back to every line.
    e.send("setoption name PvInterval value 0");
    e.send("go depth 6");
    let lines = e.wait_for("bestmove", 20);
    let depths = lines.iter().filter(|l| l.starts_with("info depth")).count();
    assert!(depths >= 6, "{lines:?}");
}
