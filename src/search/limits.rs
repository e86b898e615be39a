//! What a `go` command asks for, independent of the protocol text.

use crate::moves::Move;
use crate::types::Color;

/// Search limits from `go` (all times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Main time left for Black (`btime`) and White (`wtime`).
    pub time_left: [Option<u64>; 2],
    /// Fischer increment per move for Black (`binc`) and White (`winc`).
    pub increment: [u64; 2],
    /// Byoyomi per move once the main time is gone.
    pub byoyomi: u64,
    /// Exact time to think (`movetime`).
    pub movetime: Option<u64>,
    /// Maximum depth (`depth`).
    pub depth: Option<u32>,
    /// Maximum nodes (`nodes`).
    pub nodes: Option<u64>,
    /// Think until `stop` (`infinite`).
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (`searchmoves`), if not empty.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Whether a clock bounds this search (so time management applies).
    ///
    /// A clock of all zeros (`go btime 0 wtime 0 nodes N`, as cshogi and
    /// shogiarena send for node- or depth-limited games) is no clock when a
    /// node or depth limit is given: that limit alone ends the search, as in
    /// Stockfish and YaneuraOu. Without such a limit it still means "out of
    /// time, move at once".
    pub fn has_clock(&self) -> bool {
        let any_time = self.time_left.iter().any(|t| t.is_some_and(|t| t > 0))
            || self.byoyomi > 0
            || self.increment.iter().any(|&i| i > 0);
        let zero_clock = self.time_left.iter().any(Option::is_some);
        any_time || (zero_clock && self.nodes.is_none() && self.depth.is_none())
    }

    /// Main time left for `color` (0 if not given; negative values were clamped by the parser).
    pub fn time_for(&self, color: Color) -> u64 {
        self.time_left[color.index()].unwrap_or(0)
    }

    /// Increment for `color`.
    pub fn increment_for(&self, color: Color) -> u64 {
        self.increment[color.index()]
    }
}
