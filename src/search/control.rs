//! Shared stop/ponder/clock state of one search, set by the USI thread and
//! polled by the search threads.

use super::time::TimePlan;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Controls one running search. All methods take `&self`: the USI thread
/// calls `stop`/`ponderhit` while search threads poll.
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    started: Instant,
    plan: Mutex<Option<TimePlan>>,
}

impl SearchControl {
    /// A control for a search that started at `started`. `plan` is `None`
    /// when only depth, nodes or `stop` end the search. While `pondering`
    /// the plan is not enforced.
    pub fn new(started: Instant, plan: Option<TimePlan>, pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            started,
            plan: Mutex::new(plan),
        }
    }

    /// Asks every search thread to finish as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the search must finish now.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The flag itself, for code that polls an `AtomicBool` (the mate solver).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// The opponent played the expected move: from now on the clock runs
    /// under `plan` (planned from the moment of `ponderhit`).
    pub fn ponderhit(&self, plan: Option<TimePlan>) {
        *self.plan.lock().unwrap_or_else(|e| e.into_inner()) = plan;
        self.pondering.store(false, Ordering::Release);
    }

    /// Whether we are still thinking on the opponent's time.
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Time since the search started (for `info time`).
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn plan(&self) -> Option<TimePlan> {
        if self.is_pondering() {
            return None;
        }
        *self.plan.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the hard deadline has passed: stop at once.
    pub fn out_of_time(&self) -> bool {
        self.plan().is_some_and(|p| p.elapsed() >= p.hard)
    }

    /// Whether the soft target, scaled by `percent` (100 = as planned;
    /// more when the best move is unstable), has passed: do not start
    /// another iteration. Never beyond the hard deadline.
    pub fn past_soft_target(&self, percent: u32) -> bool {
        self.plan().is_some_and(|p| {
            let target = (p.soft * percent / 100).min(p.hard);
            p.elapsed() >= target
        })
    }
}
