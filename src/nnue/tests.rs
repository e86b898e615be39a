//! Tests across the module: symmetry, kernels and files on whole
//! evaluations along random games.

use super::*;
use crate::types::{Color, Piece, PieceType, Square};
use crate::Position;

/// Positions along a seeded random game (the start position first).
fn random_positions(seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = seed;
    let mut pos = Position::startpos();
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        pos.do_move(moves[(rng % moves.len() as u64) as usize]);
        out.push(pos.clone());
    }
    out
}

/// The SFEN of `pos` with the board turned 180 degrees, colours and hands
/// swapped and the other side to move: the same game seen from the other
/// chair.
fn flipped_sfen(pos: &Position) -> String {
    let mut board = String::new();
    for rank in 0..9 {
        let mut empty = 0;
        for file in (0..9).rev() {
            let piece = pos.piece_on(Square::new(file, rank).flip());
            match piece.kind() {
                None => empty += 1,
                Some(kind) => {
                    if empty > 0 {
                        board += &empty.to_string();
                        empty = 0;
                    }
                    board += &Piece::new(piece.color().flip(), kind).sfen();
                }
            }
        }
        if empty > 0 {
            board += &empty.to_string();
        }
        if rank < 8 {
            board.push('/');
        }
    }
    let mut hands = String::new();
    for color in Color::ALL {
        // The new owner of this hand is the other colour.
        let hand = pos.hand(color.flip());
        for kind in [
            PieceType::Rook,
            PieceType::Bishop,
            PieceType::Gold,
            PieceType::Silver,
            PieceType::Knight,
            PieceType::Lance,
            PieceType::Pawn,
        ] {
            let n = hand.count(kind);
            if n > 1 {
                hands += &n.to_string();
            }
            if n > 0 {
                hands += &Piece::new(color, kind).sfen();
            }
        }
    }
    if hands.is_empty() {
        hands.push('-');
    }
    let side = match pos.side_to_move() {
        Color::Black => 'w',
        Color::White => 'b',
    };
    format!("{board} {side} {hands} 1")
}

fn kernels() -> Vec<Kernel> {
    [Some(Kernel::SCALAR), Kernel::avx2()]
        .into_iter()
        .flatten()
        .collect()
}

#[test]
fn flipped_sfen_is_an_involution() {
    for pos in random_positions(21, 120) {
        let flipped = Position::from_sfen(&flipped_sfen(&pos)).unwrap();
        assert_ne!(flipped.to_sfen(), pos.to_sfen());
        let back = Position::from_sfen(&flipped_sfen(&flipped)).unwrap();
        // Compare without the move number.
        let strip = |s: String| s.rsplit_once(' ').unwrap().0.to_string();
        assert_eq!(strip(back.to_sfen()), strip(pos.to_sfen()));
    }
}

/// The side to move sees the same features in a position and in its
/// colour-flipped twin, so both sets give the same value: this checks that
/// White's view (turned board, swapped friend and enemy, hands) is right.
#[test]
fn colour_flipped_positions_evaluate_the_same() {
    for (set, seed) in [(FeatureSet::HalfKp, 31), (FeatureSet::HalfKpMirror, 32)] {
        let net = Network::random(seed, set, 32);
        let mut distinct = std::collections::HashSet::new();
        for pos in random_positions(seed, 200) {
            let flipped = Position::from_sfen(&flipped_sfen(&pos)).unwrap();
            for kernel in kernels() {
                let value = net.evaluate_from_scratch(&pos, kernel);
                assert_eq!(
                    value,
                    net.evaluate_from_scratch(&flipped, kernel),
                    "{set:?} {}",
                    pos.to_sfen()
                );
                distinct.insert(value);
            }
        }
        assert!(distinct.len() > 20, "values vary: {}", distinct.len());
    }
}

/// The scalar and AVX2 kernels give the same value at every node, both
/// from scratch and through the incremental stack.
#[test]
fn scalar_and_avx2_evaluate_alike() {
    let Some(avx2) = Kernel::avx2() else {
        eprintln!("no AVX2 on this CPU: skipped");
        return;
    };
    for (set, l1) in [(FeatureSet::HalfKpMirror, 96), (FeatureSet::HalfKp, 32)] {
        let net = Network::random(41, set, l1);
        let positions = random_positions(42, 200);
        let mut scalar = AccumulatorStack::with_kernel(Kernel::SCALAR);
        let mut simd = AccumulatorStack::with_kernel(avx2);
        scalar.reset(&positions[0], &net);
        simd.reset(&positions[0], &net);
        for pos in &positions {
            if let Some(dirty) = pos.dirty_piece() {
                scalar.push(Some(dirty));
                simd.push(Some(dirty));
            }
            let value = scalar.evaluate(pos, &net);
            assert_eq!(value, simd.evaluate(pos, &net), "{}", pos.to_sfen());
            assert_eq!(value, net.evaluate_from_scratch(pos, avx2));
        }
    }
}

/// A written and re-read network evaluates every position identically.
#[test]
fn file_round_trip_keeps_evaluations() {
    for set in FeatureSet::ALL {
        let net = Network::random(51, set, 64);
        let read = Network::read(&net.write()).expect("own file reads back");
        assert_eq!(read.feature_set(), set);
        assert_eq!(read.l1(), 64);
        let mut a = AccumulatorStack::new();
        let mut b = AccumulatorStack::new();
        let positions = random_positions(52, 150);
        a.reset(&positions[0], &net);
        b.reset(&positions[0], &read);
        for pos in &positions {
            if let Some(dirty) = pos.dirty_piece() {
                a.push(Some(dirty));
                b.push(Some(dirty));
            }
            assert_eq!(a.evaluate(pos, &net), b.evaluate(pos, &read));
        }
    }
}
