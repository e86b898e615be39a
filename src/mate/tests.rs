use super::search::Node;
use super::*;
use std::sync::atomic::AtomicBool;

#[test]
#[ignore]
fn debug_problem() {
    let sfen = std::env::var("SFEN").unwrap();
    let line: Vec<String> = std::env::var("LINE")
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect();
    let budget: i32 = std::env::var("BUDGET").unwrap().parse().unwrap();
    let mut pos = Position::from_sfen(&sfen).unwrap();
    let mut solver = MateSolver::new(64);
    let stop = AtomicBool::new(false);
    println!("{:?}", solver.solve(&pos, None, &stop));
    let mut node = Node::Or { bonus: None };
    for m in &line {
        let m = pos.parse_usi_move(m).unwrap();
        pos.do_move(m);
        node = node.child(m);
    }
    let mut searcher = Searcher {
        table: &mut solver.table,
        nodes: 0,
        deadline: None,
        stop: &stop,
        aborted: false,
        path: Vec::new(),
    };
    let v = searcher.mid(&mut pos, node, budget, INFINITE, INFINITE);
    println!("node {node:?} budget {budget}: {v:?}");
    for m in node.moves(&pos) {
        let (b, d) = node.child_budget(&pos, m, budget);
        pos.do_move(m);
        let c = node.child(m);
        let v = searcher.table.probe(c.key(&pos), c.attacker_hand(&pos), b);
        pos.undo_move(m);
        println!("  {m} budget {b} discount {d}: {v:?}");
    }
}
