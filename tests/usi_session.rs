//! Whole GUI-style sessions over pipes: every declared option set the way
//! ShogiGUI, Shogidokoro and ShogiHome set them, options sent during a
//! search, `go mate nodes`, `ConsiderationMode`, and `go infinite` with no
//! legal move.

mod common;

use common::Engine;
use gyoku::Position;
use std::time::{Duration, Instant};

/// One `option name ... type ...` declaration.
struct Declared {
    name: String,
    kind: String,
    default: String,
    min: Option<i64>,
    vars: Vec<String>,
}

fn declarations(e: &mut Engine) -> Vec<Declared> {
    e.send("usi");
    let lines = e.wait_for("usiok", 5);
    lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .map(|l| {
            let t: Vec<&str> = l.split(' ').collect();
            let after = |key: &str| t.iter().position(|&w| w == key).map(|i| t[i + 1]);
            Declared {
                name: t[2].to_string(),
                kind: t[4].to_string(),
                default: after("default").unwrap_or("").to_string(),
                min: after("min").map(|v| v.parse().unwrap()),
                vars: t
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect(),
            }
        })
        .collect()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// Plays one move from the start position and checks it is legal.
fn play_a_move(e: &mut Engine) -> Vec<String> {
    e.send("isready");
    let mut seen = e.wait_for("readyok", 20);
    e.send("usinewgame");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go btime 0 wtime 0 byoyomi 200");
    let (mv, lines) = e.bestmove(10);
    let mut pos = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        let m = pos.parse_usi_move(m).unwrap();
        pos.do_move(m);
    }
    assert!(
        mv == "resign" || pos.parse_usi_move(&mv).is_ok(),
        "{mv} {lines:?}"
    );
    e.send("gameover win");
    seen.extend(lines);
    seen
}

/// What a GUI does when it registers and starts an engine: every option
/// sent back with its default (buttons pressed), then a game.
#[test]
fn every_option_at_its_default_then_a_game() {
    let mut e = Engine::start();
    let options = declarations(&mut e);
    for kind in ["spin", "check", "combo", "string", "button"] {
        assert!(options.iter().any(|o| o.kind == kind), "no {kind} option");
    }
    for o in &options {
        match o.kind.as_str() {
            "button" => e.send(&format!("setoption name {}", o.name)),
            _ => e.send(&format!("setoption name {} value {}", o.name, o.default)),
        }
    }
    let lines = play_a_move(&mut e);
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

/// Each option at another value it declares (spin: its minimum; check:
/// the opposite; combo: every choice; string: `<empty>`), then a game.
#[test]
fn every_option_at_other_declared_values_then_a_game() {
    let mut e = Engine::start();
    let options = declarations(&mut e);
    for o in &options {
        let values: Vec<String> = match o.kind.as_str() {
            "spin" => vec![o.min.unwrap().to_string()],
            "check" => vec![(o.default != "true").to_string()],
            "combo" => o.vars.clone(),
            "string" | "filename" => vec!["<empty>".to_string()],
            _ => vec![],
        };
        for v in values {
            e.send(&format!("setoption name {} value {v}", o.name));
        }
    }
    // Back to a sane rule set for the game.
    e.send("setoption name EnteringKingRule value CSARule27");
    e.send("setoption name ResignValue value 99999");
    let lines = play_a_move(&mut e);
    assert!(errors(&lines).is_empty(), "{lines:?}");
}

/// A `setoption` during a search is checked at once and applied after
/// it: the search keeps its settings, and `Clear Hash` does not swallow
/// its `bestmove`.
#[test]
fn setoption_during_a_search_applies_after_it() {
    let mut e = Engine::start();
    e.send("setoption name USI_OwnBook value false");
    e.send("position startpos");
    e.send("go infinite");
    e.drain(200);
    e.send("setoption name MultiPV value 3");
    e.send("setoption name Clear Hash");
    e.send("setoption name MultiPV value many");
    let lines = e.drain(400);
    let notes: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("applies when the current search ends"))
        .collect();
    assert_eq!(notes.len(), 2, "{lines:?}");
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.contains("multipv 2")),
        "MultiPV changed mid-search: {lines:?}"
    );
    e.send("stop");
    e.bestmove(5);
    e.send("go depth 4");
    let (_, lines) = e.bestmove(10);
    assert!(lines.iter().any(|l| l.contains("multipv 3")), "{lines:?}");
}

/// `go mate nodes N` stops the solver after about N nodes.
#[test]
fn go_mate_nodes_limits_the_solver() {
    let mut e = Engine::start();
    e.send("position startpos moves 7g7f 3c3d");
    let start = Instant::now();
    e.send("go mate nodes 3000");
    let last = e.wait_for("checkmate", 5).pop().unwrap();
    assert!(
        last == "checkmate timeout" || last == "checkmate nomate",
        "{last}"
    );
    assert!(start.elapsed() < Duration::from_secs(2));
    // A mate in 1 is found well within the cap.
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    e.send("go mate nodes 100000");
    assert_eq!(e.wait_for("checkmate", 5).pop().unwrap(), "checkmate G*5b");
}

fn depths(lines: &[String]) -> Vec<u32> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
        .collect()
}

/// `ConsiderationMode`: deepening goes on past a found mate, no
/// fail-low/high lines, and the final line comes again before `bestmove`.
#[test]
fn consideration_mode_keeps_analysing() {
    let mate_in_three = "position sfen 7nk/9/7G1/9/9/9/9/9/K8 b GS 1";
    let mut e = Engine::start();
    e.send(mate_in_three);
    e.send("go infinite");
    e.drain(700);
    e.send("stop");
    let (_, plain) = e.bestmove(5);
    let plain_max = depths(&plain).into_iter().max().unwrap_or(0);

    e.send("setoption name ConsiderationMode value true");
    e.send(mate_in_three);
    e.send("go infinite");
    let early = e.drain(700);
    e.send("stop");
    let (_, rest) = e.bestmove(5);
    let lines: Vec<String> = early.into_iter().chain(rest).collect();
    let deepest = depths(&lines).into_iter().max().unwrap();
    assert!(deepest > plain_max, "{deepest} <= {plain_max}: {lines:?}");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("lowerbound") || l.contains("upperbound")),
        "{lines:?}"
    );
    let last_info = lines.iter().rev().find(|l| l.starts_with("info depth"));
    assert!(last_info.unwrap().contains("score mate"), "{lines:?}");
}

/// `go infinite` on a mated position: `bestmove resign` only after `stop`.
#[test]
fn infinite_with_no_legal_move_waits_for_stop() {
    let mut e = Engine::start();
    e.send("position sfen 4k4/9/9/9/9/9/4s4/4g4/4K4 b - 1");
    for go in ["go infinite", "go ponder btime 1000 wtime 1000 byoyomi 100"] {
        e.send(go);
        let early = e.drain(300);
        assert!(
            !early.iter().any(|l| l.starts_with("bestmove")),
            "{go}: {early:?}"
        );
        e.send("stop");
        assert_eq!(e.bestmove(5).0, "resign", "{go}");
    }
}

/// Between games a GUI may resize the hash and change the threads
/// (`gameover`, `setoption`, `isready`): the next game plays normally,
/// and so does one after going back.
#[test]
fn hash_and_threads_change_between_games() {
    let mut e = Engine::start();
    for (hash, threads) in [(64, 2), (8, 1), (32, 3)] {
        e.send(&format!("setoption name USI_Hash value {hash}"));
        e.send(&format!("setoption name Threads value {threads}"));
        let lines = play_a_move(&mut e);
        assert!(errors(&lines).is_empty(), "{lines:?}");
    }
}
