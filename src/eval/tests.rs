//! Tests of the evaluation: symmetry, material sanity, and the incremental
//! piece-square sums. The tuner's own tests (src/tools/tune/tests.rs)
//! check it against the evaluation on [`POSITIONS`] too.

use super::features::{initial_weights, NUM_FEATURES};
use super::psq::PsqScore;
use super::*;
use crate::moves::Move;
use crate::types::PieceType;
use crate::util::rng::SplitMix64;

/// Hand-picked positions: opening, castles, attacks on the king, drops in
/// hand, promoted pieces and an entering king.
pub(crate) const POSITIONS: [&str; 8] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lns2gsnl/1r2g1kb1/1ppp1ppp1/4p3p/p8/2P1P3P/PP1P1PPP1/1BS1GSKR1/LN1G3NL w - 16",
    "ln1g1gsnl/1rs2k1b1/1ppp1ppp1/p3p3p/9/2P5P/PP1PPPPP1/1BG2G1R1/LNS1K1SNL w - 12",
    "ln1g3nl/1r3kg2/p2ppsbpp/2ps1pp2/1p5P1/2PPP1P2/PPSG1P2P/1BK1G2R1/LN5NL b - 41",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 124",
    "9/9/9/9/9/9/9/9/4K3k b R 1",
    "1+R2+B2+P1/2+P1K+P3/+P+P+P2+S+P2/9/9/9/5p3/6k2/9 b GSNL2Pgsnl 150",
];

/// The same position turned 180° with the colours swapped: Black's pieces
/// become White's on the opposite squares, hands swap, the other side moves.
fn flip_sfen(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let rows: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|row| {
            let cells = expand_row(row);
            compress_row(cells.into_iter().rev().map(|c| c.map(swap_case)).collect())
        })
        .collect();
    let side = if fields[1] == "b" { "w" } else { "b" };
    let hands = if fields[2] == "-" {
        "-".to_string()
    } else {
        swap_case(fields[2])
    };
    format!("{} {side} {hands} 1", rows.join("/"))
}

/// The same position mirrored left to right (shogi's moves are symmetric).
fn mirror_sfen(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let rows: Vec<String> = fields[0]
        .split('/')
        .map(|row| compress_row(expand_row(row).into_iter().rev().collect()))
        .collect();
    format!("{} {} {} 1", rows.join("/"), fields[1], fields[2])
}

/// A SFEN row as nine cells, each a piece token (`p`, `+P`) or empty.
fn expand_row(row: &str) -> Vec<Option<String>> {
    let mut cells = Vec::new();
    let mut promoted = false;
    for c in row.chars() {
        if let Some(n) = c.to_digit(10) {
            cells.extend((0..n).map(|_| None));
        } else if c == '+' {
            promoted = true;
        } else {
            cells.push(Some(if promoted {
                format!("+{c}")
            } else {
                c.to_string()
            }));
            promoted = false;
        }
    }
    assert_eq!(cells.len(), 9, "row {row}");
    cells
}

fn compress_row(cells: Vec<Option<String>>) -> String {
    let mut text = String::new();
    let mut empty = 0;
    for cell in cells {
        match cell {
            None => empty += 1,
            Some(piece) => {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push_str(&piece);
            }
        }
    }
    if empty > 0 {
        text.push_str(&empty.to_string());
    }
    text
}

fn swap_case(text: impl AsRef<str>) -> String {
    text.as_ref()
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

pub(crate) fn all_test_positions() -> Vec<Position> {
    let mut positions: Vec<Position> = POSITIONS
        .iter()
        .map(|s| Position::from_sfen(s).expect("test sfen"))
        .collect();
    positions.extend(crate::movegen::sample::sample_positions(300, 7));
    positions
}

#[test]
fn flip_helper_round_trips_and_swaps_sides() {
    for sfen in POSITIONS {
        let flipped = flip_sfen(sfen);
        let pos = Position::from_sfen(sfen).unwrap();
        let back = Position::from_sfen(&flip_sfen(&flipped)).unwrap();
        assert_eq!(back.key(), pos.key(), "{sfen}");
        let f = Position::from_sfen(&flipped).unwrap();
        assert_ne!(f.side_to_move(), pos.side_to_move());
    }
    assert_eq!(
        flip_sfen(crate::START_SFEN),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
}

#[test]
fn colour_flipped_positions_score_the_same() {
    for pos in all_test_positions() {
        let sfen = pos.to_sfen();
        let flipped = Position::from_sfen(&flip_sfen(&sfen)).unwrap();
        assert_eq!(evaluate(&pos), evaluate(&flipped), "{sfen}");
        // Any weights, so that every feature block is covered.
        for weights in [initial_as_i16(), random_weights(3)] {
            assert_eq!(
                evaluate_with(&pos, &weights),
                evaluate_with(&flipped, &weights),
                "{sfen}"
            );
        }
    }
}

#[test]
fn mirrored_positions_score_the_same() {
    for pos in all_test_positions() {
        let sfen = pos.to_sfen();
        let mirrored = Position::from_sfen(&mirror_sfen(&sfen)).unwrap();
        assert_eq!(evaluate(&pos), evaluate(&mirrored), "{sfen}");
        let weights = random_weights(5);
        assert_eq!(
            evaluate_with(&pos, &weights),
            evaluate_with(&mirrored, &weights),
            "{sfen}"
        );
    }
}

#[test]
fn start_position_is_balanced_but_for_the_move() {
    // Both sides' terms cancel on the symmetric start; only the terms that
    // differ by who moves are left: the bonus for having the move (large:
    // the teacher engine gives the side to move well over a pawn there)
    // and the check-danger cells of two kings with no check and no attacker.
    use crate::eval::features::layout;
    let score = evaluate(&Position::startpos());
    let weight = |i: usize| i32::from(crate::eval::weights::WEIGHTS[i]);
    let expected =
        weight(layout::TEMPO) + weight(layout::CHECK_DANGER_US) + weight(layout::CHECK_DANGER_THEM);
    assert_eq!(score, expected, "startpos scores {score}");
}

#[test]
fn being_up_a_rook_is_good_for_that_side() {
    // Rook-handicap start: Black (the side without the handicap) is up a rook.
    let sfen = "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    for (side, sign) in [("b", 1), ("w", -1)] {
        let pos = Position::from_sfen(&format!("{sfen} {side} - 1")).unwrap();
        let score = evaluate(&pos) * sign;
        assert!(score > 500, "side {side}: {score}");
    }
    // A rook in hand is also worth a lot.
    let pos = Position::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1")
        .unwrap();
    assert!(evaluate(&pos) > 1000);
}

fn initial_as_i16() -> [i16; NUM_FEATURES] {
    let mut out = [0i16; NUM_FEATURES];
    for (o, w) in out.iter_mut().zip(initial_weights()) {
        *o = w as i16;
    }
    out
}

/// Random weights small enough that no evaluation reaches the clamp, with
/// every piece-square table non-zero (the production tables may be zero).
fn random_weights(seed: u64) -> [i16; NUM_FEATURES] {
    let mut rng = SplitMix64::new(seed);
    std::array::from_fn(|_| rng.below(61) as i16 - 30)
}

/// What the random walk below has done, newest last.
enum Step {
    Move(Move),
    Null,
}

/// Checks the incremental evaluation against a fresh computation: the
/// search's [`EvalStack`] (production weights), `tracked` (the same updates
/// under `weights`), and the whole evaluation built on each.
fn assert_psq_matches(
    pos: &Position,
    stack: &mut EvalStack,
    weights: &[i16; NUM_FEATURES],
    tracked: PsqScore,
) {
    let sfen = pos.to_sfen();
    assert_eq!(stack.evaluate(pos), evaluate(pos), "{sfen}");
    assert_eq!(
        evaluate(pos),
        evaluate_with(pos, &weights::WEIGHTS),
        "{sfen}"
    );
    assert_eq!(tracked, PsqScore::compute_with(weights, pos), "{sfen}");
    let piece_square = tracked.relative(pos.side_to_move());
    let score = evaluate_from(pos, piece_square, weights);
    assert!(score.abs() < EVAL_LIMIT, "{sfen}: {score}");
    assert_eq!(score, evaluate_with(pos, weights), "{sfen}");
}

#[test]
fn incremental_evaluation_matches_from_scratch_in_random_games() {
    let starts = [
        crate::START_SFEN,
        POSITIONS[4],
        POSITIONS[7],
        // Full hands: many drops, and pawns beyond the last hand bucket.
        "4k4/9/9/9/9/9/9/9/4K4 b 2R2B2G2S2N2L9P2g2s2n2l9p 1",
    ];
    let mut rng = SplitMix64::new(11);
    let (mut moves, mut kings, mut drops, mut promotions, mut captures, mut nulls) =
        (0, 0, 0, 0, 0, 0);
    for game in 0..48 {
        let weights = random_weights(game);
        let mut pos = Position::from_sfen(starts[game as usize % starts.len()]).unwrap();
        let mut steps: Vec<(Step, PsqScore)> = Vec::new();
        let mut tracked = PsqScore::compute_with(&weights, &pos);
        let mut stack = EvalStack::new();
        stack.reset(&pos);
        assert_psq_matches(&pos, &mut stack, &weights, tracked);
        for _ in 0..160 {
            // Now and then take a step back, as the search does.
            if !steps.is_empty() && rng.below(5) == 0 {
                let (step, before) = steps.pop().unwrap();
                match step {
                    Step::Move(m) => pos.undo_move(m),
                    Step::Null => pos.undo_null_move(),
                }
                stack.pop();
                tracked = before;
                assert_psq_matches(&pos, &mut stack, &weights, tracked);
                continue;
            }
            if !pos.in_check() && rng.below(10) == 0 {
                pos.do_null_move();
                stack.push(&pos);
                steps.push((Step::Null, tracked));
                nulls += 1;
                assert_psq_matches(&pos, &mut stack, &weights, tracked);
                continue;
            }
            let list = pos.legal_moves();
            if list.is_empty() {
                break;
            }
            let m = list[rng.below(list.len())];
            moves += 1;
            drops += usize::from(m.is_drop());
            promotions += usize::from(m.is_promotion());
            if !m.is_drop() {
                captures += usize::from(!pos.piece_on(m.to()).is_none());
                kings += usize::from(pos.piece_on(m.from()).kind() == Some(PieceType::King));
            }
            pos.do_move(m);
            stack.push(&pos);
            steps.push((Step::Move(m), tracked));
            tracked = tracked.after_move_with(&weights, &pos, m, pos.captured_piece());
            assert_psq_matches(&pos, &mut stack, &weights, tracked);
        }
        while let Some((step, before)) = steps.pop() {
            match step {
                Step::Move(m) => pos.undo_move(m),
                Step::Null => pos.undo_null_move(),
            }
            stack.pop();
            tracked = before;
            assert_psq_matches(&pos, &mut stack, &weights, tracked);
        }
    }
    // The walk reached every kind of update.
    for (what, n) in [
        ("moves", moves),
        ("king moves", kings),
        ("drops", drops),
        ("promotions", promotions),
        ("captures", captures),
        ("null moves", nulls),
    ] {
        assert!(n >= 50, "only {n} {what}");
    }
}

/// The built-in network is a valid file, adds the dynamic terms of this
/// build's weights (retuning the linear weights means retraining it), and
/// evaluates like the same net loaded from a file.
#[test]
fn the_built_in_network_matches_this_build() {
    let net = crate::eval::default_network();
    assert_eq!(
        net.dynamic_terms(),
        Some(crate::eval::dynamic_terms_fingerprint())
    );
    assert!(net.has_psqt());
    let mut stack = crate::eval::EvalStack::with_network(Some(net.clone()));
    let pos = Position::startpos();
    stack.reset(&pos);
    let value = stack.evaluate(&pos);
    let scratch = net.evaluate_from_scratch(&pos, crate::nnue::Kernel::SCALAR)
        + crate::eval::dynamic_terms(&pos);
    assert_eq!(value, scratch);
    // The opening position is about even for the side to move.
    assert!(value.abs() < 200, "{value}");
}

#[test]
fn every_evaluation_setting_reads_the_same_keywords() {
    use super::EvalChoice;
    for word in ["", "  ", "<empty>", "builtin", "<BuiltIn>", " builtin "] {
        assert_eq!(EvalChoice::parse(word), EvalChoice::BuiltIn, "{word:?}");
    }
    for word in ["linear", "<linear>", "LINEAR", " <Linear> "] {
        assert_eq!(EvalChoice::parse(word), EvalChoice::Linear, "{word:?}");
    }
    for word in ["nn.bin", "<linear", "linear.nn", "/tmp/builtin/nn.bin"] {
        assert_eq!(EvalChoice::parse(word), EvalChoice::File(word.to_string()));
    }
    assert!(EvalChoice::parse("linear").network().unwrap().is_none());
    assert!(EvalChoice::parse("").network().unwrap().is_some());
    assert!(EvalChoice::parse("/nonexistent/gyoku.nn")
        .network()
        .is_err());
}
