//! The engine's USI options: what `usi` declares and how `setoption`
//! values are checked.

use crate::position::EnteringKingRule;
use crate::search::TimeOptions;
use crate::text::shorten;

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Main transposition table size (`USI_Hash`, MB).
    pub hash_mb: usize,
    /// Search threads (`Threads`).
    pub threads: usize,
    /// Whether the GUI may ask us to ponder (`USI_Ponder`); informative only.
    pub ponder: bool,
    /// Principal variations reported (`MultiPV`).
    pub multi_pv: usize,
    /// `NetworkDelay`, `MinimumThinkingTime`, `SlowMover`.
    pub time: TimeOptions,
    /// `EnteringKingRule`.
    pub entering_king_rule: EnteringKingRule,
    /// Tsume solver table size (`MateHash`, MB).
    pub mate_hash_mb: usize,
    /// Longest the tsume solver looks for a mate at the root before a
    /// timed search (`RootMateMs`; 0 turns it off).
    pub root_mate_ms: u64,
    /// Resign when a timed search scores the position at or below minus
    /// this many centipawns, or finds itself mated (`ResignValue`);
    /// [`NEVER_RESIGN`] turns it off.
    pub resign_value: i32,
    /// `MaxMovesToDraw`: a game still going after this many moves (plies)
    /// is a draw; 0 = no limit.
    pub max_moves_to_draw: u32,
    /// `DrawValueBlack` / `DrawValueWhite`: what a draw (repetition or
    /// move limit) is worth to the engine, in centipawns, when it plays
    /// Black / White.
    pub draw_value: [i32; 2],
    /// `EvalFile`: the NNUE network in use (`<empty>`: the built-in one;
    /// `<linear>`: the linear evaluation alone). Loading is the engine's
    /// job; this is what `usi` shows.
    pub eval_file: String,
    /// `NodesLimit`: every `go` stops after this many nodes (0 = none).
    pub nodes_limit: u64,
    /// `DepthLimit`: every `go` stops at this depth (0 = none).
    pub depth_limit: u32,
    /// `USI_OwnBook`: play book moves.
    pub own_book: bool,
    /// `BookFile`: `<internal>` (the book built into the binary), `<empty>`
    /// (none) or a file. Loading is the engine's job.
    pub book_file: String,
    /// `BookMoves`: use the book while the move number is at most this.
    pub book_moves: u32,
    /// `BookIgnoreRate`: percent of book positions searched instead.
    pub book_ignore_rate: u32,
    /// `ConsiderBookMoveCount`: pick book moves at random weighted by
    /// their counts (true) or the best-valued one (false).
    pub book_by_count: bool,
    /// `PvInterval`: least milliseconds between two PV lines (0: all).
    pub pv_interval_ms: u64,
    /// `OutputFailLHPV`: print aspiration fail-low/high PV lines.
    pub output_fail_lh_pv: bool,
    /// `SkillLevel` 0..=20 (20: full strength).
    pub skill_level: u8,
    /// `ConsiderationMode`: output for analysis (検討) rather than play: no
    /// fail-low/high lines, deepening goes on past a found mate, and the
    /// final lines are printed again, with the last counts, when the
    /// search ends.
    pub consideration_mode: bool,
}

/// The `ResignValue` that never resigns a position with a legal move.
pub const NEVER_RESIGN: i32 = 99_999;

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 256,
            threads: 1,
            ponder: false,
            multi_pv: 1,
            time: TimeOptions::default(),
            entering_king_rule: EnteringKingRule::Csa27,
            mate_hash_mb: 64,
            root_mate_ms: 100,
            resign_value: NEVER_RESIGN,
            max_moves_to_draw: 0,
            draw_value: [0, 0],
            eval_file: "<empty>".to_string(),
            nodes_limit: 0,
            depth_limit: 0,
            own_book: true,
            book_file: "<internal>".to_string(),
            book_moves: 16,
            book_ignore_rate: 0,
            book_by_count: true,
            pv_interval_ms: 0,
            output_fail_lh_pv: true,
            skill_level: 20,
            consideration_mode: false,
        }
    }
}

/// What changing an option asks the engine to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    /// Nothing beyond storing the value (new table sizes take effect at
    /// the next `isready` or search).
    None,
    /// Clear the hash tables now (`ClearHash` button).
    ClearHash,
    /// Load this `EvalFile` (`<empty>` or empty: the built-in network;
    /// `<linear>`: the linear evaluation); the engine stores the name once
    /// it has loaded.
    LoadEvalFile(String),
    /// Load this `BookFile` (`<internal>`, `<empty>` or a path).
    LoadBookFile(String),
}

const ENTERING_KING_RULES: [(&str, EnteringKingRule); 6] = [
    ("NoEnteringKing", EnteringKingRule::None),
    ("CSARule24", EnteringKingRule::Csa24),
    ("CSARule24H", EnteringKingRule::Csa24Handicap),
    ("CSARule27", EnteringKingRule::Csa27),
    ("CSARule27H", EnteringKingRule::Csa27Handicap),
    ("TryRule", EnteringKingRule::Try),
];

/// Largest `NodesLimit` (far beyond any real search).
const MAX_NODES_LIMIT: i64 = 1 << 50;

/// Largest `DepthLimit`.
const MAX_DEPTH_LIMIT: i64 = 100;

/// Longest game limit accepted (far beyond any real rule).
const MAX_MOVES_TO_DRAW: i64 = 100_000;

/// Largest draw value accepted: well inside the evaluation's range.
const MAX_DRAW_VALUE: i64 = 10_000;

/// Largest hash we offer: half of a 24 GiB machine is plenty for anyone.
const MAX_HASH_MB: i64 = 1 << 16;

impl EngineOptions {
    /// The `option ...` lines for `usi`, defaults taken from `Default`.
    pub fn declarations() -> Vec<String> {
        let d = EngineOptions::default();
        let rule = ENTERING_KING_RULES
            .iter()
            .find(|(_, r)| *r == d.entering_king_rule)
            .map_or("CSARule27", |(n, _)| n);
        vec![
            format!("option name USI_Hash type spin default {} min 1 max {MAX_HASH_MB}", d.hash_mb),
            format!("option name Threads type spin default {} min 1 max 512", d.threads),
            format!("option name USI_Ponder type check default {}", d.ponder),
            format!("option name MultiPV type spin default {} min 1 max 500", d.multi_pv),
            format!("option name NetworkDelay type spin default {} min 0 max 60000", d.time.network_delay_ms),
            format!("option name MinimumThinkingTime type spin default {} min 0 max 60000", d.time.minimum_thinking_ms),
            format!("option name SlowMover type spin default {} min 10 max 1000", d.time.slow_mover),
            format!(
                "option name EnteringKingRule type combo default {rule}{}",
                ENTERING_KING_RULES.iter().map(|(n, _)| format!(" var {n}")).collect::<String>()
            ),
            format!("option name MateHash type spin default {} min 1 max {MAX_HASH_MB}", d.mate_hash_mb),
            format!(
                "option name RootMateMs type spin default {} min 0 max 60000",
                d.root_mate_ms
            ),
            format!(
                "option name ResignValue type spin default {} min 100 max {NEVER_RESIGN}",
                d.resign_value
            ),
            format!(
                "option name MaxMovesToDraw type spin default {} min 0 max {MAX_MOVES_TO_DRAW}",
                d.max_moves_to_draw
            ),
            format!(
                "option name DrawValueBlack type spin default {} min -{MAX_DRAW_VALUE} max {MAX_DRAW_VALUE}",
                d.draw_value[0]
            ),
            format!(
                "option name DrawValueWhite type spin default {} min -{MAX_DRAW_VALUE} max {MAX_DRAW_VALUE}",
                d.draw_value[1]
            ),
            format!("option name EvalFile type string default {}", d.eval_file),
            format!(
                "option name NodesLimit type spin default {} min 0 max {MAX_NODES_LIMIT}",
                d.nodes_limit
            ),
            format!(
                "option name DepthLimit type spin default {} min 0 max {MAX_DEPTH_LIMIT}",
                d.depth_limit
            ),
            "option name USI_Variant type combo default shogi var shogi".to_string(),
            format!("option name PvInterval type spin default {} min 0 max 100000", d.pv_interval_ms),
            format!("option name OutputFailLHPV type check default {}", d.output_fail_lh_pv),
            format!("option name SkillLevel type spin default {} min 0 max 20", d.skill_level),
            format!("option name ConsiderationMode type check default {}", d.consideration_mode),
            format!("option name USI_OwnBook type check default {}", d.own_book),
            format!("option name BookFile type string default {}", d.book_file),
            format!("option name BookMoves type spin default {} min 0 max 1000", d.book_moves),
            format!(
                "option name BookIgnoreRate type spin default {} min 0 max 100",
                d.book_ignore_rate
            ),
            format!(
                "option name ConsiderBookMoveCount type check default {}",
                d.book_by_count
            ),
            "option name ClearHash type button".to_string(),
        ]
        .into_iter()
        .chain(tuning_declarations())
        .collect()
    }

    /// Applies `setoption name <name> value <value>`; names are matched
    /// without regard to case. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionEffect, OptionError> {
        let spin = |lo: i64, hi: i64| -> Result<i64, OptionError> {
            let text = value.ok_or_else(|| OptionError::MissingValue(name.to_string()))?;
            let v: i64 = text.trim().parse().map_err(|_| OptionError::NotANumber {
                option: name.to_string(),
                text: shorten(text),
            })?;
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(OptionError::OutOfRange {
                    option: name.to_string(),
                    value: v,
                    min: lo,
                    max: hi,
                })
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" | "hash" => {
                let mb = spin(1, MAX_HASH_MB)? as usize;
                check_fits_in_memory(name, mb + self.mate_hash_mb)?;
                self.hash_mb = mb;
                Ok(OptionEffect::None)
            }
            "threads" => {
                self.threads = spin(1, 512)? as usize;
                Ok(OptionEffect::None)
            }
            "usi_ponder" => {
                self.ponder = parse_check(name, value)?;
                Ok(OptionEffect::None)
            }
            "multipv" => {
                self.multi_pv = spin(1, 500)? as usize;
                Ok(OptionEffect::None)
            }
            "networkdelay" => {
                self.time.network_delay_ms = spin(0, 60_000)? as u64;
                Ok(OptionEffect::None)
            }
            "minimumthinkingtime" => {
                self.time.minimum_thinking_ms = spin(0, 60_000)? as u64;
                Ok(OptionEffect::None)
            }
            "slowmover" => {
                self.time.slow_mover = spin(10, 1000)? as u64;
                Ok(OptionEffect::None)
            }
            "enteringkingrule" => {
                let text = value.unwrap_or("").trim();
                let rule = ENTERING_KING_RULES
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(text))
                    .map(|&(_, r)| r)
                    .ok_or_else(|| {
                        let names: Vec<&str> =
                            ENTERING_KING_RULES.iter().map(|(n, _)| *n).collect();
                        OptionError::NotAChoice {
                            option: name.to_string(),
                            text: shorten(text),
                            choices: names.join(", "),
                        }
                    })?;
                self.entering_king_rule = rule;
                Ok(OptionEffect::None)
            }
            "matehash" => {
                let mb = spin(1, MAX_HASH_MB)? as usize;
                check_fits_in_memory(name, self.hash_mb + mb)?;
                self.mate_hash_mb = mb;
                Ok(OptionEffect::None)
            }
            "rootmatems" => {
                self.root_mate_ms = spin(0, 60_000)? as u64;
                Ok(OptionEffect::None)
            }
            "resignvalue" => {
                self.resign_value = spin(100, i64::from(NEVER_RESIGN))? as i32;
                Ok(OptionEffect::None)
            }
            "maxmovestodraw" => {
                self.max_moves_to_draw = spin(0, MAX_MOVES_TO_DRAW)? as u32;
                Ok(OptionEffect::None)
            }
            "drawvalueblack" => {
                self.draw_value[0] = spin(-MAX_DRAW_VALUE, MAX_DRAW_VALUE)? as i32;
                Ok(OptionEffect::None)
            }
            "drawvaluewhite" => {
                self.draw_value[1] = spin(-MAX_DRAW_VALUE, MAX_DRAW_VALUE)? as i32;
                Ok(OptionEffect::None)
            }
            "evalfile" => {
                let text = value.unwrap_or("").trim();
                Ok(OptionEffect::LoadEvalFile(text.to_string()))
            }
            "nodeslimit" => {
                self.nodes_limit = spin(0, MAX_NODES_LIMIT)? as u64;
                Ok(OptionEffect::None)
            }
            "depthlimit" => {
                self.depth_limit = spin(0, MAX_DEPTH_LIMIT)? as u32;
                Ok(OptionEffect::None)
            }
            "skilllevel" | "usi_skilllevel" => {
                self.skill_level = spin(0, 20)? as u8;
                Ok(OptionEffect::None)
            }
            "pvinterval" => {
                self.pv_interval_ms = spin(0, 100_000)? as u64;
                Ok(OptionEffect::None)
            }
            "outputfaillhpv" => {
                self.output_fail_lh_pv = parse_check(name, value)?;
                Ok(OptionEffect::None)
            }
            "considerationmode" => {
                self.consideration_mode = parse_check(name, value)?;
                Ok(OptionEffect::None)
            }
            "usi_ownbook" => {
                self.own_book = parse_check(name, value)?;
                Ok(OptionEffect::None)
            }
            "bookfile" => {
                let text = value.unwrap_or("").trim();
                Ok(OptionEffect::LoadBookFile(text.to_string()))
            }
            "bookmoves" => {
                self.book_moves = spin(0, 1000)? as u32;
                Ok(OptionEffect::None)
            }
            "bookignorerate" => {
                self.book_ignore_rate = spin(0, 100)? as u32;
                Ok(OptionEffect::None)
            }
            "considerbookmovecount" => {
                self.book_by_count = parse_check(name, value)?;
                Ok(OptionEffect::None)
            }
            "usi_variant" => match value.map(str::trim) {
                Some(v) if v.eq_ignore_ascii_case("shogi") => Ok(OptionEffect::None),
                other => Err(OptionError::NotAChoice {
                    option: name.to_string(),
                    text: shorten(other.unwrap_or("")),
                    choices: "shogi".to_string(),
                }),
            },
            // YaneuraOu-style GUIs send the button with a space.
            "clearhash" | "clear hash" => Ok(OptionEffect::ClearHash),
            #[cfg(feature = "tune")]
            _ if crate::search::params::find(name).is_some() => {
                let (index, param) = crate::search::params::find(name).expect("just found");
                let v = spin(i64::from(param.min), i64::from(param.max))?;
                crate::search::params::set(index, v as i32);
                Ok(OptionEffect::None)
            }
            _ => Err(OptionError::NoSuchOption(shorten(name))),
        }
    }
}

/// Tuning builds (`--features tune`) declare every search parameter.
fn tuning_declarations() -> Vec<String> {
    if !cfg!(feature = "tune") {
        return Vec::new();
    }
    crate::search::params::PARAMS
        .iter()
        .map(|p| {
            format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            )
        })
        .collect()
}

/// Refuses hash sizes that together (`total_mb`, both tables) would take
/// more than three quarters of physical memory: zeroing such a table gets
/// the engine killed by the system, losing the game, instead of an error.
fn check_fits_in_memory(name: &str, total_mb: usize) -> Result<(), OptionError> {
    match crate::large_table::physical_memory_mb() {
        Some(memory) if total_mb as u64 > memory / 4 * 3 => Err(OptionError::TooMuchMemory {
            option: name.to_string(),
            total_mb,
            memory_mb: memory,
        }),
        _ => Ok(()),
    }
}

fn parse_check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(OptionError::NotABool(name.to_string())),
    }
}

/// Why a `setoption` was refused (the option keeps its old value). The
/// fields hold the option name as the GUI sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    NoSuchOption(String),
    /// The option needs `value ...`.
    MissingValue(String),
    /// A spin option got something that is not a number.
    NotANumber {
        /// The option.
        option: String,
        /// What was sent (shortened).
        text: String,
    },
    /// A spin option got a number outside its range.
    OutOfRange {
        /// The option.
        option: String,
        /// The number sent.
        value: i64,
        /// The least value allowed.
        min: i64,
        /// The greatest value allowed.
        max: i64,
    },
    /// A check option got something other than `true` / `false`.
    NotABool(String),
    /// A combo option got a value it does not list.
    NotAChoice {
        /// The option.
        option: String,
        /// What was sent (shortened).
        text: String,
        /// The values it takes, comma-separated.
        choices: String,
    },
    /// Both hash tables together would not fit in this machine's memory.
    TooMuchMemory {
        /// The option.
        option: String,
        /// Both tables together, MB.
        total_mb: usize,
        /// Physical memory, MB.
        memory_mb: u64,
    },
    /// A file option (`EvalFile`, `BookFile`) could not be loaded.
    File {
        /// The option.
        option: &'static str,
        /// What went wrong, naming the file.
        message: String,
    },
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::NoSuchOption(name) => write!(f, "no such option '{name}'"),
            OptionError::MissingValue(option) => write!(f, "option {option} needs a value"),
            OptionError::NotANumber { option, text } => {
                write!(f, "option {option}: '{text}' is not a number")
            }
            OptionError::OutOfRange {
                option,
                value,
                min,
                max,
            } => write!(f, "option {option}: {value} is outside {min}..={max}"),
            OptionError::NotABool(option) => write!(f, "option {option} must be true or false"),
            OptionError::NotAChoice {
                option,
                text,
                choices,
            } => write!(f, "option {option}: '{text}' is not one of {choices}"),
            OptionError::TooMuchMemory {
                option,
                total_mb,
                memory_mb,
            } => write!(
                f,
                "option {option}: the hash tables would take {total_mb} MB of this machine's {memory_mb} MB"
            ),
            OptionError::File { option, message } => write!(f, "{option} {message}"),
        }
    }
}

impl std::error::Error for OptionError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_option_accepts_its_default() {
        for line in EngineOptions::declarations() {
            let tokens: Vec<&str> = line.split(' ').collect();
            assert_eq!(tokens[1], "name");
            assert_eq!(tokens[3], "type", "{line}");
            let name = tokens[2];
            let default = tokens
                .iter()
                .position(|&t| t == "default")
                .map(|i| tokens[i + 1]);
            let mut o = EngineOptions::default();
            o.set(name, default)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            let mut fresh = EngineOptions::default();
            fresh.set(name, default).unwrap();
            assert_eq!(o, EngineOptions::default(), "{line}");
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut o = EngineOptions::default();
        for (name, value) in [
            ("USI_Hash", Some("abc")),
            ("USI_Hash", Some("-5")),
            ("USI_Hash", None),
            ("Threads", Some("0")),
            ("USI_Ponder", Some("yes")),
            ("EnteringKingRule", Some("TryRules")),
            ("MaxMovesToDraw", Some("-1")),
            ("DrawValueBlack", Some("10001")),
            ("DrawValueWhite", Some("x")),
            ("NodesLimit", Some("-3")),
            ("DepthLimit", Some("101")),
            ("USI_Variant", Some("chess")),
            ("BookMoves", Some("-1")),
            ("BookIgnoreRate", Some("101")),
            ("USI_OwnBook", Some("maybe")),
            ("NoSuchOption", Some("1")),
        ] {
            assert!(o.set(name, value).is_err(), "{name} {value:?}");
        }
        assert_eq!(o, EngineOptions::default());
    }

    #[test]
    fn hash_sizes_beyond_physical_memory_are_refused() {
        let Some(memory) = crate::large_table::physical_memory_mb() else {
            return;
        };
        let mut o = EngineOptions::default();
        let too_big = (memory as usize).min(MAX_HASH_MB as usize);
        if too_big as u64 > memory / 4 * 3 {
            let err = o.set("USI_Hash", Some(&too_big.to_string())).unwrap_err();
            assert!(
                matches!(err, OptionError::TooMuchMemory { ref option, .. } if option == "USI_Hash"),
                "{err}"
            );
            assert!(o.set("MateHash", Some(&too_big.to_string())).is_err());
        }
        assert!(check_fits_in_memory("USI_Hash", memory as usize).is_err());
        assert!(check_fits_in_memory("USI_Hash", 1).is_ok());
        assert_eq!(o, EngineOptions::default());
    }

    #[test]
    fn names_are_case_insensitive_and_values_apply() {
        let mut o = EngineOptions::default();
        o.set("usi_hash", Some("16")).unwrap();
        o.set("MULTIPV", Some("3")).unwrap();
        o.set("EnteringKingRule", Some("NoEnteringKing")).unwrap();
        o.set("maxmovestodraw", Some("256")).unwrap();
        o.set("DrawValueBlack", Some("-50")).unwrap();
        o.set("DrawValueWhite", Some("30")).unwrap();
        assert_eq!(
            (o.hash_mb, o.multi_pv, o.entering_king_rule),
            (16, 3, EnteringKingRule::None)
        );
        assert_eq!((o.max_moves_to_draw, o.draw_value), (256, [-50, 30]));
    }
}
