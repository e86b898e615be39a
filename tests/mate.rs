//! Tsume suites: every short problem is solved at its known length with a
//! legal, all-checks line ending in mate; no no-mate position gets a "mate".

use gyoku::mate::{is_valid_mate, tsume_position, MateResult, MateSolver};
use gyoku::tools::mate_suite::{parse_suite, Problem};
use gyoku::types::Color;
use gyoku::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn load(name: &str) -> Vec<Problem> {
    let path = format!("{}/tests/data/tsume/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("suite file");
    parse_suite(&text).expect("suite parses")
}

#[test]
fn short_public_problems_are_solved_at_known_length() {
    let mut solver = MateSolver::new(32);
    let stop = AtomicBool::new(false);
    for (i, problem) in load("short-public.tsv").iter().enumerate() {
        let pos = tsume_position(&problem.sfen).expect("sfen");
        solver.clear();
        let deadline = Instant::now() + Duration::from_secs(5);
        let MateResult::Mate(line) = solver.solve(&pos, Some(deadline), &stop) else {
            panic!("#{}: no mate found for {}", i + 1, problem.sfen);
        };
        assert!(is_valid_mate(&pos, &line), "#{}: invalid line", i + 1);
        assert_eq!(
            Some(line.len()),
            problem.plies,
            "#{}: {}",
            i + 1,
            problem.sfen
        );
    }
}

/// The 2,000 yaneuraou-mate3/mate5 problems: every one at its published
/// length. Their lengths count every interposition; the old futile-drop
/// rule gave 3 plies on 7 of the mate5 ones.
#[test]
fn yaneuraou_mate3_and_mate5_are_solved_at_published_length() {
    let mut solver = MateSolver::new(2);
    let stop = AtomicBool::new(false);
    let problems = load("yaneuraou-mate3-5.tsv");
    assert_eq!(problems.len(), 2000);
    for problem in &problems {
        let pos = tsume_position(&problem.sfen).expect("sfen");
        solver.clear();
        let deadline = Instant::now() + Duration::from_secs(5);
        let MateResult::Mate(line) = solver.solve(&pos, Some(deadline), &stop) else {
            panic!("no mate found for {}", problem.sfen);
        };
        assert!(is_valid_mate(&pos, &line), "{}", problem.sfen);
        assert_eq!(Some(line.len()), problem.plies, "{}", problem.sfen);
    }
}

#[test]
fn no_mate_positions_never_get_a_mate() {
    let mut solver = MateSolver::new(32);
    let stop = AtomicBool::new(false);
    for problem in load("nomate.tsv") {
        let Ok(pos) = tsume_position(&problem.sfen) else {
            continue;
        };
        solver.clear();
        let deadline = Instant::now() + Duration::from_millis(200);
        let result = solver.solve(&pos, Some(deadline), &stop);
        assert!(
            !matches!(result, MateResult::Mate(_)),
            "mate claimed: {}",
            problem.sfen
        );
    }
}

/// With disproofs that rest on repetitions kept for their own path, a
/// repetition at the root is one of the problem's own lines and settles
/// it: at 100k nodes 42 of the 49 no-mate positions answer `NoMate` (32
/// when such disproofs were shared by position and re-asked). Node limits
/// make this the same on every machine.
#[test]
fn most_no_mate_positions_are_settled_within_100k_nodes() {
    let mut solver = MateSolver::new(16);
    solver.set_node_limit(Some(100_000));
    let stop = AtomicBool::new(false);
    let mut settled = 0;
    for problem in load("nomate.tsv") {
        let Ok(pos) = tsume_position(&problem.sfen) else {
            continue;
        };
        solver.clear();
        match solver.solve(&pos, None, &stop) {
            MateResult::NoMate => settled += 1,
            MateResult::Mate(_) => panic!("mate claimed: {}", problem.sfen),
            MateResult::Timeout => {}
        }
    }
    assert!(settled >= 40, "{settled} settled");
}

/// short-public #112 and #135: the defender's drop on the checking line is
/// taken, but then the defender has a real reply (a pawn or king move), so
/// the drop is real resistance and the mate is 5 plies, not 3.
#[test]
fn interposition_followed_by_a_real_reply_counts() {
    let cases = [
        (
            "l3g1bnl/2+R2s1p1/p+P1pks3/2P1ppP1p/6g2/2SP4P/P1B1PP3/1R7/LN1GKG1NL b N3Psp 1",
            "7g8f",
        ),
        (
            "+B2Rp1k1l/4+R1g2/p4pnp1/1g1l2p1P/3P1P3/2PS3P1/PP2P+n3/2GK1+sP2/1+b1N3SL b GNL4Ps 1",
            // 6a5a+ mates in 5 as well (3a2b G*2a 2b1b 1d1c+, or S*4a
            // 5a4a 3a2b 4a3b): which the solver proves first depends on
            // its search order.
            "5b5a|6a5a+",
        ),
    ];
    for (sfen, first) in cases {
        let line = valid_mate_line(sfen);
        assert_eq!(line.len(), 5, "{sfen}: {line:?}");
        let played = line[0].to_string();
        assert!(first.split('|').any(|m| m == played), "{sfen}: {played}");
    }
}

/// Every interposition counts, as in KomoringHeights (MinLength) and the
/// YaneuraOu mate sets: a drop on the checking line that the attacker just
/// takes is two plies of resistance, even when the defender can do nothing
/// after it but drop again. The old rule (such a drop not counted) gave 3
/// plies on all three; the public rows are yaneuraou-mate5 t5-87 and t5-822.
#[test]
fn every_interposition_counts_in_full() {
    let cases = [
        // A lance check discovered from 1i: the defender drops on 1b-1g one
        // after another and the lance takes each (1h2g, then seven pairs).
        ("6G1k/9/6S2/7N1/9/9/9/8S/8L b 2r2b3g2s3n3l18p 1", 15),
        // The same with nothing to drop: the discovered check mates at once.
        ("6G1k/9/6S2/7N1/9/9/9/8S/8L b - 1", 1),
        // A gold dropped two squares from the king on the lance's line.
        (
            "lnS+R1+B3/3r2+P2/2p1pg3/5p1P1/k1S3s2/2PpPP3/2K1b4/g7+l/L2S5 b 2N4P2gnl5p 1",
            5,
        ),
        (
            "lRB1k2+P1/4g2+R1/3ssg3/p2p2p1p/2P1p4/5pP1P/PPNPP1N2/2G1b1s2/L1Ks4L b 2NL3Pgp 1",
            5,
        ),
    ];
    for (sfen, plies) in cases {
        let line = valid_mate_line(sfen);
        assert_eq!(line.len(), plies, "{sfen}: {line:?}");
    }
}

/// `go mate <ms>` must answer on time: every phase of the solver, the line
/// read-out included, stops at the deadline. Past it the answer is a valid
/// mate (maybe not the shortest) or `Timeout`, never a late one. The hard
/// problems (the longest, and #33 whose line read-out once ran unbounded)
/// are solved with deadlines that cut each phase, in a small table so that
/// proofs get overwritten and the read-out has to search again.
#[test]
fn tiny_deadlines_are_kept_on_hard_problems() {
    // Measured best of three: 1-4 ms on 2 cores at load 5, where the
    // rest is the scheduler, but 11 ms once with two matches and a build
    // sharing the cores, and over 25 ms with a match and a test build;
    // debug builds run slower between clock polls. The bug this guards
    // against overran by seconds.
    let slack = Duration::from_millis(if cfg!(debug_assertions) { 50 } else { 25 });
    let problems = load("short-public.tsv");
    let hard = problems
        .iter()
        .enumerate()
        .filter(|(i, p)| *i + 1 == 33 || p.plies.is_some_and(|n| n >= 9));
    let stop = AtomicBool::new(false);
    let mut worst = Duration::ZERO;
    for (i, problem) in hard {
        let pos = tsume_position(&problem.sfen).expect("sfen");
        for hash_mb in [1, 16] {
            let mut solver = MateSolver::new(hash_mb);
            for ms in [0, 1, 2, 3, 5, 8, 13, 21] {
                // The machine may be shared: a solve that is preempted runs
                // late through no fault of its own, so it is tried again (up
                // to ten times, stopping at the first on time) and the best
                // try is judged. A real overrun is late every time.
                let mut over = Duration::MAX;
                for _ in 0..10 {
                    solver.clear();
                    let start = Instant::now();
                    let deadline = start + Duration::from_millis(ms);
                    let result = solver.solve(&pos, Some(deadline), &stop);
                    let late = start.elapsed().saturating_sub(Duration::from_millis(ms));
                    if let MateResult::Mate(line) = result {
                        assert!(is_valid_mate(&pos, &line), "#{} {ms} ms", i + 1);
                    }
                    over = over.min(late);
                    if over <= slack {
                        break;
                    }
                }
                worst = worst.max(over);
                assert!(over <= slack, "#{} {ms} ms: {over:?} late", i + 1);
            }
        }
    }
    println!("worst overrun {worst:?}");
}

/// The defender plays the reply that is really mated last, not the one
/// with the longest stored proof (stored lengths are only upper bounds).
/// short-public #135: after 5b5a the defender holds only a silver. 3a2b
/// loses at once to 5a1a (the dragon runs along the emptied first rank,
/// takes the lance and guards 2b diagonally); S*4a is real resistance, as
/// after 5a4a the king still has 3a2b, and 4a1a mates in 5 plies in all.
/// #124: after S*3a, 2b1a allows G*2b at once; 2b1b holds 3 plies more.
#[test]
fn defender_picks_the_truly_longest_reply() {
    let cases = [
        (
            "+B2Rp1k1l/4+R1g2/p4pnp1/1g1l2p1P/3P1P3/2PS3P1/PP2P+n3/2GK1+sP2/1+b1N3SL b GNL4Ps 1",
            // Either first move mates in 5 (see
            // `interposition_followed_by_a_real_reply_counts`).
            "5b5a S*4a 5a4a 3a2b 4a1a|6a5a+ 3a2b G*2a 2b1b 1d1c+",
        ),
        (
            "lG7/7k1/p1s1+NB1p1/3ppp2p/6pPP/5L1R1/PP1P1PN2/1pS1G4/LN1K1s2L b GSrbgn4p 1",
            "S*3a 2b1b G*2b 1b1c 1e1d",
        ),
    ];
    let stop = AtomicBool::new(false);
    for (sfen, expected) in cases {
        let pos = tsume_position(sfen).expect("sfen");
        let deadline = Instant::now() + Duration::from_secs(5);
        let MateResult::Mate(line) = MateSolver::new(8).solve(&pos, Some(deadline), &stop) else {
            panic!("no mate found for {sfen}");
        };
        let line: Vec<String> = line.iter().map(ToString::to_string).collect();
        let line = line.join(" ");
        assert!(expected.split('|').any(|e| e == line), "{sfen}: {line}");
    }
}

/// Every square where a king could be added to `sfen` for the side to move
/// (empty, and the resulting position legal with the mover not in check):
/// the squares any "place the missing king somewhere" scheme must choose from.
fn king_placements(sfen: &str) -> Vec<String> {
    let pos = tsume_position(sfen).expect("sfen");
    let mover = pos.side_to_move();
    let (board, rest) = sfen.split_once(' ').expect("sfen fields");
    let mut cells: Vec<String> = Vec::new();
    for rank in board.split('/') {
        let mut promoted = false;
        for ch in rank.chars() {
            if let Some(n) = ch.to_digit(10) {
                cells.extend(std::iter::repeat_n(String::new(), n as usize));
            } else if ch == '+' {
                promoted = true;
            } else {
                cells.push(if promoted {
                    format!("+{ch}")
                } else {
                    ch.to_string()
                });
                promoted = false;
            }
        }
    }
    let king = if mover == Color::Black { "K" } else { "k" };
    let mut out = Vec::new();
    for i in (0..81).filter(|&i| cells[i].is_empty()) {
        let mut placed = cells.clone();
        placed[i] = king.to_string();
        let ranks: Vec<String> = placed
            .chunks(9)
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for cell in rank {
                    if cell.is_empty() {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(cell);
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let text = format!("{} {rest}", ranks.join("/"));
        if let Ok(with_king) = Position::from_sfen(&text) {
            if !with_king.in_check() {
                out.push(text);
            }
        }
    }
    out
}

fn solve(pos: &Position, ms: u64) -> MateResult {
    let deadline = Instant::now() + Duration::from_millis(ms);
    MateSolver::new(8).solve(pos, Some(deadline), &AtomicBool::new(false))
}

/// The mate found for the tsume `sfen` within 5 s, checked to be a legal,
/// all-checks line ending in mate.
fn valid_mate_line(sfen: &str) -> Vec<Move> {
    let pos = tsume_position(sfen).expect("sfen");
    let MateResult::Mate(line) = solve(&pos, 5000) else {
        panic!("no mate found for {sfen}");
    };
    assert!(is_valid_mate(&pos, &line), "{sfen}");
    line
}

/// A tsume SFEN without the attacker's king is solved with no king at all.
/// In these positions (Black to move, S in hand, White king 1a, Black pawn
/// 1c) White's pieces cover every empty square but 3a, 3b, 3c and 2c, and a
/// Black king on any of those guards 2b, so that S*1b would mate: whatever
/// square a solver invents a king on, it answers a false mate. Without a
/// king there is no mate (checked with cshogi's df-pn as well).
#[test]
fn king_less_tsume_has_no_invented_king_in_the_mating_net() {
    let sfens = [
        "l1l5k/3p5/1gn+b4P/1pg6/1lpn3+b1/1gnl+r+rgpp/6ns1/p1s2pps1/9 b S 1",
        "l1g5k/3s5/1n1n4P/3s5/2+r2+rp+b1/6npl/1p1lp+bsnp/plppg4/g6g1 b S 1",
    ];
    for sfen in sfens {
        let placements = king_placements(sfen);
        assert_eq!(placements.len(), 4, "{sfen}: {placements:?}");
        for placed in &placements {
            let pos = Position::from_sfen(placed).unwrap();
            let MateResult::Mate(line) = solve(&pos, 2000) else {
                panic!("a king here should make S*1b mate: {placed}");
            };
            assert_eq!(line.len(), 1, "{placed}");
        }
        let pos = tsume_position(sfen).unwrap();
        assert!(!pos.has_king(Color::Black));
        assert_eq!(solve(&pos, 5000), MateResult::NoMate, "{sfen}");
    }
}

/// The other way round: the rook on 9b guards 1b along rank b, so G*1b
/// mates; a king invented anywhere on that rank would cut the line.
#[test]
fn king_less_tsume_keeps_its_long_lines_open() {
    let sfen = "8k/R8/9/9/9/9/9/9/9 b G 1";
    let pos = tsume_position(sfen).unwrap();
    let MateResult::Mate(line) = solve(&pos, 2000) else {
        panic!("G*1b mates");
    };
    assert_eq!(line.len(), 1);
    assert!(is_valid_mate(&pos, &line));
    let on_rank_b: Vec<String> = king_placements(sfen)
        .into_iter()
        .filter(|s| s.split('/').nth(1) != Some("R8"))
        .collect();
    assert_eq!(on_rank_b.len(), 6, "{on_rank_b:?}");
    for placed in on_rank_b {
        let mut pos = Position::from_sfen(&placed).unwrap();
        let drop = pos.parse_usi_move("G*1b").unwrap();
        pos.do_move(drop);
        assert!(!pos.is_checkmate(), "{placed}");
    }
}

/// The solver's table outlives a problem. Two tsume SFENs with the same
/// board and attacker hand, where only the second gives the defender a
/// pawn to block the rook's check with (its other pieces are left out, as
/// tsume SFENs do): the first is mate in 1, the second no mate at all,
/// whichever order one solver sees them in.
#[test]
fn a_kept_table_tells_problems_apart_by_the_defenders_pieces() {
    let bare = tsume_position("7lk/7l1/9/9/9/9/9/9/7R1 b - 1").unwrap();
    let pawn = tsume_position("7lk/7l1/9/9/9/9/9/9/7R1 b p 1").unwrap();
    let stop = AtomicBool::new(false);
    for order in [[&bare, &pawn], [&pawn, &bare]] {
        let mut solver = MateSolver::new(8);
        for pos in order {
            let deadline = Some(Instant::now() + Duration::from_secs(5));
            let result = solver.solve(pos, deadline, &stop);
            if std::ptr::eq(pos, &bare) {
                assert!(
                    matches!(&result, MateResult::Mate(line) if line.len() == 1),
                    "{result:?}"
                );
            } else {
                assert_eq!(result, MateResult::NoMate);
            }
        }
    }
}

/// Proofs are stored under the part of the attacker's hand they need
/// (proof hands), which must keep what the defender could block with: after
/// the rook's mate in 1 is solved with a spare gold in the attacker's hand,
/// the same board with that gold in the defender's hand is no mate (it drops
/// the gold between), and with the gold nowhere it is mate again.
#[test]
fn proof_hands_carry_over_only_where_the_defender_cannot_block() {
    let stop = AtomicBool::new(false);
    let mut solver = MateSolver::new(8);
    let mut run = |sfen: &str| {
        let pos = tsume_position(sfen).unwrap();
        let deadline = Some(Instant::now() + Duration::from_secs(5));
        solver.solve(&pos, deadline, &stop)
    };
    let spare = run("7lk/7l1/9/9/9/9/9/9/7R1 b G 1");
    assert!(
        matches!(&spare, MateResult::Mate(line) if line.len() == 1),
        "{spare:?}"
    );
    assert_eq!(run("7lk/7l1/9/9/9/9/9/9/7R1 b g 1"), MateResult::NoMate);
    let bare = run("7lk/7l1/9/9/9/9/9/9/7R1 b - 1");
    assert!(
        matches!(&bare, MateResult::Mate(line) if line.len() == 1),
        "{bare:?}"
    );
}

/// Disproofs are stored under the most the attacker may hold (disproof
/// hands), which must not reach a hand that leaves the defender nothing
/// to block with: with one piece each the defender blocks the rook's check
/// (no mate), with both pieces the attacker's it cannot (mate in 1), for
/// golds, silvers and pawns, in either order on one kept table (cshogi's
/// DfPn agrees on all six).
#[test]
fn disproof_hands_stop_where_the_defender_runs_out_of_blocks() {
    let stop = AtomicBool::new(false);
    for (shared, attackers) in [("Gg", "2G"), ("Ss", "2S"), ("Pp", "2P")] {
        let shared = format!("7lk/7l1/9/9/9/9/9/9/7R1 b {shared} 1");
        let attackers = format!("7lk/7l1/9/9/9/9/9/9/7R1 b {attackers} 1");
        for first_shared in [true, false] {
            let mut solver = MateSolver::new(8);
            let mut run = |sfen: &str| {
                let pos = tsume_position(sfen).unwrap();
                let deadline = Some(Instant::now() + Duration::from_secs(5));
                solver.solve(&pos, deadline, &stop)
            };
            let order = if first_shared {
                [&shared, &attackers]
            } else {
                [&attackers, &shared]
            };
            for sfen in order {
                let result = run(sfen);
                if sfen == &shared {
                    assert_eq!(result, MateResult::NoMate, "{sfen}");
                } else {
                    assert!(
                        matches!(&result, MateResult::Mate(l) if l.len() == 1),
                        "{sfen}: {result:?}"
                    );
                }
            }
        }
    }
}
