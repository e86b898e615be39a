//! Tsume suites: every short problem is solved at its known length with a
//! legal, all-checks line ending in mate; no no-mate position gets a "mate".

use gyoku::mate::{suite, tsume_position, MateResult, MateSolver};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn load(name: &str) -> Vec<suite::Problem> {
    let path = format!("{}/tests/data/tsume/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("suite file");
    suite::parse_suite(&text).expect("suite parses")
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
        assert!(
            suite::is_valid_mate(&pos, &line),
            "#{}: invalid line",
            i + 1
        );
        assert_eq!(
            Some(line.len()),
            problem.plies,
            "#{}: {}",
            i + 1,
            problem.sfen
        );
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
            "5b5a",
        ),
    ];
    let stop = AtomicBool::new(false);
    for (sfen, first) in cases {
        let pos = tsume_position(sfen).expect("sfen");
        let deadline = Instant::now() + Duration::from_secs(5);
        let MateResult::Mate(line) = MateSolver::new(8).solve(&pos, Some(deadline), &stop) else {
            panic!("no mate found for {sfen}");
        };
        assert!(suite::is_valid_mate(&pos, &line), "{sfen}");
        assert_eq!(line.len(), 5, "{sfen}: {line:?}");
        assert_eq!(line[0].to_string(), first, "{sfen}");
    }
}
