//! Unit tests of the mate solver: table semantics and rule traps.

use super::tt::UNLIMITED;
use super::*;
use std::sync::atomic::AtomicBool;

use super::tt::Value;
use crate::hand::Hand;
use crate::types::PieceType;

fn hand(kinds: &[PieceType]) -> Hand {
    let mut h = Hand::EMPTY;
    for &k in kinds {
        h.add(k);
    }
    h
}

fn solve_within(sfen: &str, ms: u64) -> MateResult {
    let pos = tsume_position(sfen).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms);
    MateSolver::new(8).solve(&pos, Some(deadline), &AtomicBool::new(false))
}

#[test]
fn proof_covers_superior_hands_only() {
    let mut table = MateTable::new(1);
    let gold = hand(&[PieceType::Gold]);
    table.store(42, gold, Value::proven(3, gold), 10);
    assert_eq!(
        table
            .probe(42, hand(&[PieceType::Gold, PieceType::Pawn]), 3)
            .pn,
        0
    );
    assert_ne!(table.probe(42, Hand::EMPTY, 3).pn, 0);
    // A proof in 3 plies says nothing about a limit of 1.
    assert_ne!(table.probe(42, gold, 1).pn, 0);
}

#[test]
fn disproof_covers_inferior_hands_only() {
    let mut table = MateTable::new(1);
    let gold_pawn = hand(&[PieceType::Gold, PieceType::Pawn]);
    table.store(7, gold_pawn, Value::disproven(UNLIMITED, false), 10);
    assert_eq!(table.probe(7, hand(&[PieceType::Pawn]), UNLIMITED).dn, 0);
    assert_ne!(
        table
            .probe(7, hand(&[PieceType::Gold, PieceType::Rook]), UNLIMITED)
            .dn,
        0
    );
}

/// A disproof that rests on a repetition is kept for its path only: the
/// board's entry never holds it (another path to the board may have no
/// repetition), the path's entry does, down to the depth it was found at.
#[test]
fn path_dependent_disproofs_are_kept_by_path_only() {
    let mut table = MateTable::new(1);
    table.store(9, Hand::EMPTY, Value::disproven(UNLIMITED, true), 10);
    assert_ne!(table.probe(9, Hand::EMPTY, UNLIMITED).dn, 0);
    table.store_repetition(1234, 7);
    let v = table.probe_repetition(1234, 7).unwrap();
    assert!(v.dn == 0 && v.path_dependent && v.depth == 7);
    assert!(table.probe_repetition(1234, 9).is_none());
    assert!(table.probe_repetition(4321, 1).is_none());
    table.store_repetition(1234, 3);
    assert!(
        table.probe_repetition(1234, 7).is_some(),
        "depths only grow"
    );
}

#[test]
fn perpetual_check_is_not_a_mate() {
    // komori-n/mate-engine-test: the attacker can only check forever.
    let result = solve_within("6R+P1/8k/7sp/9/9/9/9/9/9 b r2b4g3s4n4l16p 1", 1000);
    assert!(!matches!(result, MateResult::Mate(_)), "{result:?}");
}

#[test]
fn pawn_drop_mate_is_not_returned() {
    // P*1b would mate (gold covers 2a/2b, knight guards 1b) but is uchifuzume.
    let sfen = "8k/6G2/9/7N1/9/9/9/9/K8 b P2r2b3g4s3n4l17p 1";
    let pos = Position::from_sfen(sfen).unwrap();
    assert!(pos.parse_usi_move("P*1b").is_err());
    assert_eq!(solve_within(sfen, 2000), MateResult::NoMate);
}

#[test]
fn mate_in_one_is_found() {
    // Gold drop on 5b, supported by the pawn on 5c.
    match solve_within("4k4/9/4P4/9/9/9/9/9/K8 b G2r2b3g4s4n4l17p 1", 1000) {
        MateResult::Mate(line) => assert_eq!(
            line.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["G*5b"]
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_mate_cut_short_while_shortening_is_returned_but_not_claimed_shortest() {
    // Microcosmos after 1508 plies: a 17-ply mate.
    let sfen =
        "3+P+P+P+P+L1/1g7/1n2ppppk/2+Psg+p+R1s/+b+nL6/1PP+B1s1P1/4+Ps3/4+P1P2/6G1g b Lr2nl2p 1";
    let pos = tsume_position(sfen).unwrap();
    let stop = AtomicBool::new(false);
    let mut solver = MateSolver::new(16);
    let full = solver.solve(&pos, None, &stop);
    let stats = solver.stats();
    assert!(
        matches!(&full, MateResult::Mate(line) if line.len() == 17),
        "{full:?}"
    );
    assert!(stats.shortest && stats.shrink_nodes > 0, "{stats:?}");
    // Stopped right after the first proof: that proof's line comes back.
    solver.clear();
    solver.set_node_limit(Some(stats.proof_nodes + 1));
    let cut = solver.solve(&pos, None, &stop);
    match &cut {
        MateResult::Mate(line) => {
            assert!(is_valid_mate(&pos, line));
            assert!(line.len() >= 17 && line.len() <= stats.first_len as usize);
        }
        other => panic!("{other:?}"),
    }
    assert!(!solver.stats().shortest);
}

/// A table whose numbers reached the ceiling (proof numbers add up over
/// transpositions; a large table kept over many problems got there) made
/// every root search return unsolved at once: `checkmate timeout` in 2 ms.
/// The numbers are reset and the problem solved.
#[test]
fn numbers_at_the_ceiling_are_reset_instead_of_giving_up() {
    let pos = tsume_position("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
    let mut solver = MateSolver::new(1);
    let root = node::Node::Or;
    for &m in root.moves(&pos).iter() {
        let (key, hand, _) = root.child_keys(&pos, m);
        let stuck = Value {
            pn: INFINITE,
            dn: 5,
            ..Value::UNKNOWN
        };
        solver.table.store(key, hand, stuck, 1);
    }
    let result = solver.solve(&pos, None, &AtomicBool::new(false));
    assert!(
        matches!(&result, MateResult::Mate(line) if line.len() == 1),
        "{result:?}"
    );
}
