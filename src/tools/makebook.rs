//! `gyoku makebook`: builds a book from our own search. Positions are
//! expanded breadth-first from the start position: each is searched with
//! MultiPV at a fixed depth, the moves within a margin of the best go into
//! the book (count = how close they are, so weighted picks favour the
//! best), and the positions after them are expanded in turn (all of them
//! in the first plies, then only the best), up to a ply and a position
//! limit. One search thread, so the book depends only on
//! the options.

use crate::book::{Book, BookMove};
use crate::position::Position;
use crate::search::{
    BestMove, Limits, Reporter, Score, SearchControl, SearchInfo, SearchOptions, Searcher,
};
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;
use std::time::Instant;

/// Settings of a book build.
#[derive(Clone, Debug)]
pub struct MakeConfig {
    /// Positions to search at most.
    pub positions: usize,
    /// Expand positions up to this many plies from the start.
    pub plies: u32,
    /// Search depth per position.
    pub depth: u32,
    /// Lines searched per position.
    pub multipv: usize,
    /// Keep moves scoring at most this much below the best (cp).
    pub margin: i32,
    /// Below this ply every kept move is expanded; from it on only the
    /// best, so the book reaches deep lines without exploding.
    pub branch_plies: u32,
    /// Hash table size (MB).
    pub hash_mb: usize,
}

impl Default for MakeConfig {
    fn default() -> Self {
        MakeConfig {
            positions: 1000,
            plies: 16,
            depth: 10,
            multipv: 3,
            margin: 40,
            branch_plies: 6,
            hash_mb: 64,
        }
    }
}

/// Keeps the last exact score of every MultiPV line.
struct Lines(Mutex<Vec<(usize, Score, Vec<crate::moves::Move>)>>);

impl Reporter for Lines {
    fn info(&self, info: &SearchInfo) {
        if info.bound != crate::search::Bound::Exact || info.pv.is_empty() {
            return;
        }
        let mut lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        lines.retain(|(k, _, _)| *k != info.multipv);
        lines.push((info.multipv, info.score, info.pv.clone()));
    }

    fn info_string(&self, _: &str) {}
}

fn centipawns(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 30_000 - n,
        Score::Mate(n) => -30_000 - n,
    }
}

/// Builds a book; `progress` is called after every position with the
/// number done. Returns the book and its positions in build order.
pub fn make_book(config: &MakeConfig, mut progress: impl FnMut(usize)) -> (Book, Vec<Position>) {
    let mut searcher = Searcher::new(config.hash_mb, 1);
    let options = SearchOptions {
        multi_pv: config.multipv.max(1),
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(config.depth),
        ..Limits::default()
    };
    let mut book = Book::default();
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([Position::startpos()]);
    while let Some(pos) = queue.pop_front() {
        if order.len() >= config.positions {
            break;
        }
        if !seen.insert(pos.key()) {
            continue;
        }
        let lines = Lines(Mutex::new(Vec::new()));
        let control = SearchControl::new(Instant::now(), None, false);
        let outcome = searcher.search(&pos, &limits, &options, &control, &lines);
        if !matches!(outcome.best, BestMove::Move { .. }) {
            continue;
        }
        let mut lines = lines.0.into_inner().unwrap_or_else(|e| e.into_inner());
        lines.sort_by_key(|(k, _, _)| *k);
        let Some(best) = lines.iter().map(|(_, s, _)| centipawns(*s)).max() else {
            continue;
        };
        let mut moves = Vec::new();
        for (_, score, pv) in &lines {
            let value = centipawns(*score);
            if value < best - config.margin || moves.iter().any(|m: &BookMove| m.mv == pv[0]) {
                continue;
            }
            moves.push(BookMove {
                mv: pv[0],
                ponder: pv.get(1).copied(),
                value,
                depth: config.depth as i32,
                count: (1 + config.margin - (best - value)).max(1) as u64,
            });
        }
        if pos.moves_played() + 1 < config.plies as usize {
            let branching = pos.moves_played() < config.branch_plies as usize;
            for m in moves.iter().take(if branching { moves.len() } else { 1 }) {
                let mut child = pos.clone();
                child.do_move(m.mv);
                queue.push_back(child);
            }
        }
        book.insert(&pos, moves);
        order.push(pos);
        progress(order.len());
    }
    (book, order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_book_covers_the_start_and_its_replies() {
        let config = MakeConfig {
            positions: 6,
            plies: 3,
            depth: 3,
            multipv: 2,
            margin: 1000,
            branch_plies: 6,
            hash_mb: 4,
        };
        let (book, order) = make_book(&config, |_| {});
        assert_eq!(order.len(), 6);
        let start = Position::startpos();
        let first = book.moves(&start);
        assert!(!first.is_empty() && first.len() <= 2);
        // The position after the best first move was expanded too.
        let mut after = start.clone();
        after.do_move(first[0].mv);
        assert!(!book.moves(&after).is_empty());
        // The text round trip keeps it.
        let (again, errors) = Book::parse(&book.write(&order));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(again.moves(&start), first);
    }
}
