//! Perft suites from `perft/`: every row must match its published count.

use gyoku::perft::{parse_suite, perft_parallel, SuiteEntry};
use gyoku::Position;

fn run_suite(file: &str) {
    let path = format!("{}/perft/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let entries = parse_suite(&text).unwrap();
    assert!(!entries.is_empty(), "{file} has no rows");
    let pool = rayon::ThreadPoolBuilder::new().build().unwrap();
    let failures: Vec<String> = entries
        .iter()
        .filter_map(|SuiteEntry { sfen, depth, nodes }| {
            let pos = Position::from_sfen(sfen).unwrap();
            let got = perft_parallel(&pos, *depth, Some(&pool));
            (got != *nodes).then(|| format!("{sfen} depth {depth}: expected {nodes}, got {got}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn startpos_depths_one_to_six() {
    run_suite("startpos.tsv");
}

#[test]
fn known_special_positions() {
    run_suite("known.tsv");
}

#[test]
fn public_positions_agreed_by_three_generators() {
    run_suite("public.tsv");
}

#[test]
fn perft_leaves_the_position_unchanged() {
    let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    let mut pos = Position::from_sfen(sfen).unwrap();
    let key = pos.key();
    assert_eq!(gyoku::perft::perft(&mut pos, 3), 4_809_015);
    assert_eq!(pos.to_sfen(), sfen);
    assert_eq!(pos.key(), key);
}
