//! Move generator benches: legal generation and counting, do/undo, perft
//! (asserting the node counts) and attack lookups.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gyoku::attacks;
use gyoku::perft::perft;
use gyoku::{Bitboard, Position, Square};

const POSITIONS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "ln1g3nl/1r1sk1gs1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1BG4R1/LN2KGSNL b B 13",
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
];

fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|s| Position::from_sfen(s).unwrap())
        .collect()
}

fn legal_generation(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("legal_moves/varied", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).legal_moves().len())
                .sum::<usize>()
        })
    });
}

fn legal_count(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("count_legal/varied", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_legal())
                .sum::<usize>()
        })
    });
}

fn do_undo(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("do_undo/all_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                let mut pos = p.clone();
                for m in p.legal_moves() {
                    pos.do_move(m);
                    n += pos.in_check() as usize;
                    pos.undo_move(m);
                }
            }
            n
        })
    });
}

fn perft_startpos(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("startpos_depth4", |b| {
        let mut pos = Position::startpos();
        b.iter(|| assert_eq!(perft(&mut pos, 4), 719_731))
    });
    group.bench_function("matsuri_depth3", |b| {
        let mut pos = Position::from_sfen(POSITIONS[1]).unwrap();
        b.iter(|| assert_eq!(perft(&mut pos, 3), 4_809_015))
    });
    group.finish();
}

fn attack_lookups(c: &mut Criterion) {
    let occ = Position::from_sfen(POSITIONS[1]).unwrap().occupied();
    c.bench_function("attacks/rook_bishop_lance_all_squares", |b| {
        b.iter(|| {
            let mut acc = Bitboard::EMPTY;
            for sq in Square::all() {
                let o = black_box(occ);
                acc ^= attacks::rook_attacks(sq, o)
                    ^ attacks::bishop_attacks(sq, o)
                    ^ attacks::lance_attacks(gyoku::Color::Black, sq, o);
            }
            acc
        })
    });
}

criterion_group!(
    benches,
    legal_generation,
    legal_count,
    do_undo,
    perft_startpos,
    attack_lookups
);
criterion_main!(benches);
