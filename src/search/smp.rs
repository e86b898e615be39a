//! Lazy SMP: every thread searches the same root with its own position,
//! stack and histories, sharing only the transposition table, the stop
//! flags and the node counter. Helpers skip some depths so they spread
//! out; the main thread alone reports and watches the clock. When it
//! finishes it raises `abort`, and the best result of all threads is taken.

use super::history::History;
use super::report::Reporter;
use super::thread::{RootMove, Shared, Worker};
use super::values::{INFINITE, MATE_BOUND};

/// What one thread leaves behind.
pub(crate) struct ThreadResult {
    pub completed_depth: i32,
    pub root_moves: Vec<RootMove>,
}

impl ThreadResult {
    fn score(&self) -> i32 {
        self.root_moves[0].shown_score()
    }
}

/// Runs one thread per entry of `histories` on `root` (the first is the
/// main thread, run on the caller's thread) and returns the results, main
/// thread first.
pub(crate) fn run_threads(
    root: &crate::position::Position,
    root_moves: &[RootMove],
    shared: &Shared<'_>,
    histories: &mut [History],
    reporter: &dyn Reporter,
) -> Vec<ThreadResult> {
    let (main_history, helper_histories) =
        histories.split_first_mut().expect("at least one thread");
    std::thread::scope(|scope| {
        let helpers: Vec<_> = helper_histories
            .iter_mut()
            .enumerate()
            .map(|(i, history)| {
                let pos = root.clone();
                let moves = root_moves.to_vec();
                scope.spawn(move || {
                    let mut worker = Worker::new(i + 1, pos, shared, history, moves, None);
                    worker.iterate();
                    ThreadResult {
                        completed_depth: worker.completed_depth,
                        root_moves: worker.root_moves,
                    }
                })
            })
            .collect();
        let mut main = Worker::new(
            0,
            root.clone(),
            shared,
            main_history,
            root_moves.to_vec(),
            Some(reporter),
        );
        main.iterate();
        let mut results = vec![ThreadResult {
            completed_depth: main.completed_depth,
            root_moves: main.root_moves,
        }];
        for handle in helpers {
            // A panicking helper loses only its own result.
            if let Ok(result) = handle.join() {
                results.push(result);
            }
        }
        results
    })
}

/// Index of the result to play: the main thread's, unless a helper got a
/// better score at least as deep (or a shorter mate).
pub(crate) fn best_thread(results: &[ThreadResult], multi_pv: usize) -> usize {
    let mut best = 0;
    if multi_pv > 1 {
        return best;
    }
    for (i, r) in results.iter().enumerate().skip(1) {
        let b = &results[best];
        if r.completed_depth == 0 || r.score() == -INFINITE {
            continue;
        }
        let deeper_or_equal = r.completed_depth >= b.completed_depth;
        let mate_found = r.score() >= MATE_BOUND && r.score() > b.score();
        if (deeper_or_equal && r.score() > b.score()) || mate_found {
            best = i;
        }
    }
    best
}
