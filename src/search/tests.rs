//! Behaviour of the whole search through the public `Searcher` API.

use super::*;
use std::sync::Mutex;
use std::time::Instant;

fn search_with(
    pos: &Position,
    limits: &Limits,
    threads: usize,
    options: SearchOptions,
    reporter: &dyn Reporter,
) -> SearchOutcome {
    let mut searcher = Searcher::new(8, threads);
    let control = SearchControl::new(Instant::now(), None, false);
    searcher.search(pos, limits, &options, &control, reporter)
}

fn to_depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

fn search(sfen: &str, depth: u32) -> SearchOutcome {
    let pos = Position::from_sfen(sfen).unwrap();
    search_with(
        &pos,
        &to_depth(depth),
        1,
        SearchOptions::default(),
        &SilentReporter,
    )
}

fn best_of(outcome: &SearchOutcome) -> Move {
    match outcome.best {
        BestMove::Move { best, .. } => best,
        other => panic!("expected a move, got {other:?}"),
    }
}

/// The move and ponder move are legal in sequence.
fn assert_legal(sfen: &str, outcome: &SearchOutcome) {
    let mut pos = Position::from_sfen(sfen).unwrap();
    let BestMove::Move { best, ponder } = outcome.best else {
        panic!("expected a move");
    };
    assert!(pos.is_legal(best), "{best} in {sfen}");
    pos.do_move(best);
    if let Some(p) = ponder {
        assert!(pos.is_legal(p), "ponder {p} after {best}");
    }
}

#[test]
fn finds_mate_in_one() {
    let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    let outcome = search(sfen, 4);
    assert_eq!(best_of(&outcome).to_string(), "G*5b");
    assert_eq!(outcome.score, Some(Score::Mate(1)));
}

#[test]
fn finds_mate_in_three() {
    let sfen = "3g2S1l/3s2k2/3ppplpp/2p3R2/rP7/1LP1P2P1/N2P1P2P/2GSG4/3KN2NL b BG4Pbsnp 1";
    let outcome = search(sfen, 6);
    assert_eq!(outcome.score, Some(Score::Mate(3)));
    assert_legal(sfen, &outcome);
}

#[test]
fn checkmated_side_resigns() {
    // White king 5a, black gold 5b protected by the pawn 5c.
    let outcome = search("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", 3);
    assert_eq!(outcome.best, BestMove::Resign);
}

#[test]
fn does_not_leave_an_attacked_rook_hanging() {
    // The white pawn 5e (defended by the gold 5d) attacks the black rook 5f.
    let sfen = "4k4/9/9/4g4/4p4/4R4/9/9/4K4 b - 1";
    let outcome = search(sfen, 5);
    let best = best_of(&outcome).to_string();
    assert!(best.starts_with("5f") && best != "5f5e", "{best}");
    assert!(
        matches!(outcome.score, Some(Score::Cp(cp)) if cp > -100),
        "{:?}",
        outcome.score
    );
}

#[test]
fn takes_a_free_piece() {
    // The white rook 5c is undefended and in reach of the black bishop 8f.
    let sfen = "k8/9/4r4/9/9/1B7/9/9/8K b - 1";
    let outcome = search(sfen, 4);
    assert_eq!(best_of(&outcome).to_string(), "8f5c+");
}

#[test]
fn a_search_stopped_before_it_starts_still_returns_a_legal_move() {
    let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    let pos = Position::from_sfen(sfen).unwrap();
    for threads in [1, 3] {
        let mut searcher = Searcher::new(1, threads);
        let control = SearchControl::new(Instant::now(), None, false);
        control.stop();
        let outcome = searcher.search(
            &pos,
            &Limits::default(),
            &SearchOptions::default(),
            &control,
            &SilentReporter,
        );
        assert_legal(sfen, &outcome);
    }
}

#[test]
fn node_limit_is_respected_roughly() {
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let outcome = search_with(
        &Position::startpos(),
        &limits,
        2,
        SearchOptions::default(),
        &SilentReporter,
    );
    assert!(outcome.nodes < 5_000 + 2 * 2048, "{}", outcome.nodes);
}

#[test]
fn several_threads_return_a_legal_move_and_ponder() {
    let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    let pos = Position::from_sfen(sfen).unwrap();
    let outcome = search_with(
        &pos,
        &to_depth(7),
        3,
        SearchOptions::default(),
        &SilentReporter,
    );
    assert_legal(sfen, &outcome);
    assert!(outcome.nodes > 0);
}

struct Collect(Mutex<Vec<SearchInfo>>);

impl Reporter for Collect {
    fn info(&self, info: &SearchInfo) {
        self.0.lock().unwrap().push(info.clone());
    }
    fn info_string(&self, _: &str) {}
}

fn cp(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

#[test]
fn multi_pv_reports_distinct_sorted_lines_each_iteration() {
    let sfen = "k8/9/4r4/9/9/1B7/9/9/8K b - 1";
    for threads in [1, 2] {
        let collect = Collect(Mutex::new(Vec::new()));
        let options = SearchOptions {
            multi_pv: 3,
            ..SearchOptions::default()
        };
        let pos = Position::from_sfen(sfen).unwrap();
        let outcome = search_with(&pos, &to_depth(4), threads, options, &collect);
        assert_legal(sfen, &outcome);
        let infos = collect.0.into_inner().unwrap();
        let last: Vec<_> = infos
            .iter()
            .filter(|i| i.depth == 4 && i.bound == Bound::Exact)
            .collect();
        assert_eq!(
            last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        assert!(cp(last[0].score) >= cp(last[1].score) && cp(last[1].score) >= cp(last[2].score));
        assert_ne!(last[0].pv[0], last[1].pv[0]);
        assert_ne!(last[1].pv[0], last[2].pv[0]);
        assert_eq!(last[0].pv[0].to_string(), "8f5c+");
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let pos = Position::startpos();
    let only = pos.parse_usi_move("1g1f").unwrap();
    let limits = Limits {
        searchmoves: vec![only],
        ..to_depth(4)
    };
    let outcome = search_with(&pos, &limits, 1, SearchOptions::default(), &SilentReporter);
    assert_eq!(best_of(&outcome), only);
}

#[test]
fn repeated_positions_score_as_draws_in_search() {
    let mut pos = Position::startpos();
    for text in ["5i4h", "5a4b", "4h5i", "4b5a"] {
        let m = pos.parse_usi_move(text).unwrap();
        pos.do_move(m);
    }
    assert_eq!(alphabeta::repetition_score(&pos, 4, 0), Some(0));
    assert_eq!(
        alphabeta::repetition_score(&Position::startpos(), 0, 0),
        None
    );
}

#[test]
fn a_repeated_board_with_another_hand_is_searched_on() {
    // The rook takes the pawn and goes back while White drops a pawn that
    // steps to where the first one stood: same board, Black a pawn up.
    let sfen = "4k4/9/9/9/4p4/9/9/4R4/4K4 b p 1";
    let mut pos = Position::from_sfen(sfen).unwrap();
    for text in ["5h5e", "P*5d", "5e5h", "5d5e"] {
        let m = pos.parse_usi_move(text).unwrap();
        pos.do_move(m);
    }
    assert_eq!(pos.repetition(32, 1), crate::position::Repetition::Superior);
    assert_eq!(alphabeta::repetition_score(&pos, 4, 0), None);
}

#[test]
fn declaration_is_returned_when_valid() {
    // Black king in the enemy camp with ten pieces there and 28+ points.
    let sfen = "ln6l/4KG3/PPPPPPPPP/9/9/9/9/2gsgs3/3sk4 b 2R2B 1";
    let pos = Position::from_sfen(sfen).unwrap();
    assert!(pos.can_declare_win(EnteringKingRule::Csa27));
    assert_eq!(search(sfen, 2).best, BestMove::DeclareWin);
}

/// `MaxMovesToDraw`: the 256th move ends the game in a draw unless it
/// mates, and a draw is worth the engine's `DrawValue` for its colour.
#[test]
fn the_move_limit_scores_a_draw_unless_the_last_move_mates() {
    let limited = |draw_value: [i32; 2]| SearchOptions {
        max_moves_to_draw: 256,
        draw_value,
        ..SearchOptions::default()
    };
    let score = |sfen: &str, options: SearchOptions| {
        let pos = Position::from_sfen(sfen).unwrap();
        search_with(&pos, &to_depth(6), 1, options, &SilentReporter)
            .score
            .unwrap()
    };
    // Two rooks up but no mate in one: winning, unless this is move 256.
    let up = "4k4/9/9/9/9/9/9/9/4K4 b 2R";
    assert!(cp(score(&format!("{up} 200"), limited([0, 0]))) > 1000);
    assert_eq!(score(&format!("{up} 256"), limited([0, 0])), Score::Cp(0));
    assert_eq!(
        score(&format!("{up} 256"), limited([-40, 0])),
        Score::Cp(-40)
    );
    // Move 255: White's reply is the last move, and no mate comes by then.
    assert_eq!(score(&format!("{up} 255"), limited([0, 0])), Score::Cp(0));
    // White's own draw value when the engine plays White.
    let down = "4k4/9/9/9/9/9/9/9/4K4 w 2R 256";
    assert_eq!(score(down, limited([0, 25])), Score::Cp(25));
    // Mate on the last move counts.
    let mate = "4k4/9/4P4/9/9/9/9/9/4K4 b G 256";
    assert_eq!(score(mate, limited([0, 0])), Score::Mate(1));
}

/// SkillLevel's pick: with no random push the best line wins; the same
/// random draw lifts a line 100 cp behind at level 0 (push (120*100 +
/// 90*40)/128 = 121) but not at level 19 ((82*100 + 90*40)/128 = 92).
#[test]
fn skill_pick_weakens_with_level_and_randomness() {
    let scores = [100, 95, 90, 0];
    assert_eq!(skill_pick(&scores, 0, &[0, 0, 0, 0]), 0);
    assert_eq!(skill_pick(&scores, 0, &[0, 119, 0, 0]), 1);
    assert_eq!(skill_pick(&scores, 0, &[0, 0, 0, 40]), 3);
    assert_eq!(skill_pick(&scores, 19, &[0, 0, 0, 40]), 0);
    assert_eq!(skill_pick(&scores, 20, &[0, 0, 0, 0]), 0);
    assert_eq!(skill_pick(&[], 0, &[]), 0);
}

#[test]
fn a_weakened_search_is_shallow_and_legal() {
    let pos = Position::startpos();
    let collect = Collect(Mutex::new(Vec::new()));
    let options = SearchOptions {
        skill_level: 2,
        ..SearchOptions::default()
    };
    let outcome = search_with(&pos, &to_depth(10), 1, options, &collect);
    assert_legal(crate::position::START_SFEN, &outcome);
    let infos = collect.0.into_inner().unwrap();
    assert!(infos.iter().all(|i| i.depth <= 3), "{infos:?}");
    assert!(infos.iter().any(|i| i.multipv == 4));
}
