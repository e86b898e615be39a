//! Tsume suites: every short problem is solved at its known length with a
//! legal, all-checks line ending in mate; no no-mate position gets a "mate".

use gyoku::mate::{suite, tsume_position, MateResult, MateSolver};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Known lengths that differ from ours by the futile-interposition
/// convention (see the solver's docs): the line found is a valid mate.
const CONVENTION_DIFFERENCES: [usize; 2] = [112, 135];

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
        if !CONVENTION_DIFFERENCES.contains(&(i + 1)) {
            assert_eq!(
                Some(line.len()),
                problem.plies,
                "#{}: {}",
                i + 1,
                problem.sfen
            );
        }
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
