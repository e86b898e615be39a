//! Time management: from the clock to a soft target and a hard deadline.
//!
//! The hard deadline is what we may spend without losing on time, minus the
//! `NetworkDelay` margin; the soft target is where an iteration that just
//! finished should not start another one. Both are measured from the moment
//! the clock started for us (`go`, or `ponderhit` after `go ponder`).

use super::limits::Limits;
use super::params;
use crate::types::Color;
use std::time::{Duration, Instant};

/// Options that shape time use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeOptions {
    /// Milliseconds kept back from every deadline for transport and GUI lag.
    pub network_delay_ms: u64,
    /// Never plan to move faster than this when the clock allows it.
    pub minimum_thinking_ms: u64,
    /// Percentage scaling of the planned time (100 = normal).
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            network_delay_ms: 120,
            minimum_thinking_ms: 0,
            slow_mover: 100,
        }
    }
}

/// Deadlines of one search, when it has a clock.
#[derive(Copy, Clone, Debug)]
pub struct TimePlan {
    /// When the clock started.
    pub start: Instant,
    /// Stop after an iteration completes past this (scaled by the
    /// search's confidence, and never later than `hard`; it may be set
    /// beyond `hard` to mean "use all of it").
    pub soft: Duration,
    /// Never search past this.
    pub hard: Duration,
}

impl TimePlan {
    /// Plans the time for `side` to move under `limits`; `None` when the
    /// search is bounded only by depth, nodes, `stop` or is infinite.
    /// `moves_played` is the game ply, used to expect fewer moves later.
    pub fn new(
        limits: &Limits,
        side: Color,
        moves_played: u32,
        options: &TimeOptions,
        start: Instant,
    ) -> Option<TimePlan> {
        // The margin kept back from every deadline, but never more than a
        // quarter of what the move may take: with a 100 ms byoyomi the full
        // default margin (120 ms) would leave no thought at all.
        let budget = limits
            .movetime
            .unwrap_or_else(|| limits.time_for(side) + limits.byoyomi + limits.increment_for(side));
        let delay = options.network_delay_ms.min(budget / 4);
        if let Some(movetime) = limits.movetime {
            let t = Duration::from_millis(movetime.saturating_sub(delay).max(1));
            return Some(TimePlan {
                start,
                soft: t,
                hard: t,
            });
        }
        if limits.infinite || !limits.has_clock() {
            return None;
        }
        let left = limits.time_for(side);
        let inc = limits.increment_for(side);
        let byoyomi = limits.byoyomi;
        // Everything we may use for this move without flagging.
        let available = (left + byoyomi + inc).saturating_sub(delay).max(1);
        // Spread the main time over the moves still to come; shogi games
        // rarely pass 150 plies, so plan for at least 20 more of our moves.
        let horizon = params::game_length_plies() as u32;
        let least = params::min_moves_to_go() as u32;
        let moves_to_go = ((horizon.saturating_sub(moves_played)) / 2).max(least) as u64;
        let share = left / moves_to_go + inc;
        let mut soft = (share + byoyomi) * options.slow_mover / 100;
        soft = soft.max(options.minimum_thinking_ms);
        // When the byoyomi is what we live on, use nearly all of it.
        let mut hard = if byoyomi > 0 {
            (left / 4 + byoyomi).saturating_sub(delay)
        } else {
            (left / 8 + inc * 3 / 4).saturating_sub(delay)
        };
        hard = hard.clamp(1, available);
        soft = soft.clamp(1, hard);
        if byoyomi > 0 && left < byoyomi {
            // Byoyomi only (or nearly): time not spent is lost anyway, and a
            // partly searched iteration still improves the move, so even a
            // stable search (which stops at StableSharePercent of the soft
            // target) runs to the hard deadline. Only a lone legal move stops early.
            soft = hard * 100 / params::stable_share_percent() as u64 + 1;
        }
        Some(TimePlan {
            start,
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
        })
    }

    /// Time spent so far.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(limits: Limits, side: Color) -> TimePlan {
        TimePlan::new(&limits, side, 40, &TimeOptions::default(), Instant::now()).unwrap()
    }

    #[test]
    fn byoyomi_only_uses_most_of_the_period_minus_the_margin() {
        let l = Limits {
            time_left: [Some(0), Some(0)],
            byoyomi: 1000,
            ..Limits::default()
        };
        let p = plan(l, Color::Black);
        assert_eq!(p.hard, Duration::from_millis(880));
        assert!(p.soft >= Duration::from_millis(700));
    }

    #[test]
    fn a_short_byoyomi_keeps_only_a_quarter_back() {
        for (byoyomi, hard) in [(100, 75), (300, 225), (480, 360), (1000, 880)] {
            let l = Limits {
                time_left: [Some(0), Some(0)],
                byoyomi,
                ..Limits::default()
            };
            assert_eq!(
                plan(l, Color::Black).hard,
                Duration::from_millis(hard),
                "{byoyomi}"
            );
        }
        let l = Limits {
            movetime: Some(200),
            ..Limits::default()
        };
        assert_eq!(plan(l, Color::Black).hard, Duration::from_millis(150));
    }

    #[test]
    fn reads_the_clock_of_the_side_to_move() {
        let l = Limits {
            time_left: [Some(600_000), Some(1_000)],
            ..Limits::default()
        };
        assert!(plan(l.clone(), Color::White).hard <= Duration::from_millis(1_000));
        assert!(plan(l, Color::Black).hard > Duration::from_millis(10_000));
    }

    #[test]
    fn sudden_death_near_zero_still_moves_fast() {
        let l = Limits {
            time_left: [Some(50), Some(50)],
            ..Limits::default()
        };
        let p = plan(l, Color::Black);
        assert!(p.hard <= Duration::from_millis(50));
    }

    #[test]
    fn a_zero_clock_with_a_node_or_depth_limit_is_no_clock() {
        let zero = Limits {
            time_left: [Some(0), Some(0)],
            ..Limits::default()
        };
        let now = Instant::now();
        let opts = TimeOptions::default();
        let nodes = Limits {
            nodes: Some(30_000),
            ..zero.clone()
        };
        let depth = Limits {
            depth: Some(8),
            ..zero.clone()
        };
        assert!(TimePlan::new(&nodes, Color::Black, 0, &opts, now).is_none());
        assert!(TimePlan::new(&depth, Color::White, 0, &opts, now).is_none());
        // Alone, a zero clock still means moving at once.
        assert!(plan(zero.clone(), Color::Black).hard <= Duration::from_millis(1));
        // A clock with time on it keeps its plan beside a node limit.
        let timed = Limits {
            time_left: [Some(0), Some(0)],
            byoyomi: 1000,
            nodes: Some(30_000),
            ..Limits::default()
        };
        assert!(plan(timed, Color::Black).hard > Duration::from_millis(100));
    }

    #[test]
    fn no_clock_means_no_plan() {
        let l = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert!(
            TimePlan::new(&l, Color::Black, 0, &TimeOptions::default(), Instant::now()).is_none()
        );
    }
}
