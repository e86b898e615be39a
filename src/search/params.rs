//! Every search constant worth tuning, in one table.
//!
//! Each row gives the accessor the search calls, the USI option name SPSA
//! sets, the value, the range, and the SPSA step (`c_end`: how far a
//! perturbation reaches at the end of a run). In a normal build each
//! accessor is the constant itself, so the search compiles as if the
//! number were written in place. Built with `--features tune`, the values
//! live in atomics, every row is declared as a USI spin option, and the
//! engine answers shogiarena's `usi_tunables` with the table as JSON
//! (`tune_manifest_json`), so `shogiarena run spsa` can tune them.

/// One tunable constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The USI option name (with `--features tune`).
    pub name: &'static str,
    /// The value the engine plays with.
    pub default: i32,
    /// The least value SPSA may try.
    pub min: i32,
    /// The greatest value SPSA may try.
    pub max: i32,
    /// SPSA's final perturbation size.
    pub step: i32,
}

macro_rules! search_params {
    ($( $(#[$doc:meta])* $accessor:ident, $name:literal, $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        /// The table: every tunable search constant, in order.
        pub const PARAMS: &[Param] = &[
            $( Param { name: $name, default: $default, min: $min, max: $max, step: $step }, )*
        ];

        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum Index { $( $accessor, )* }

        #[cfg(feature = "tune")]
        static VALUES: [std::sync::atomic::AtomicI32; PARAMS.len()] =
            [ $( std::sync::atomic::AtomicI32::new($default), )* ];

        $(
            $(#[$doc])*
            #[inline(always)]
            pub fn $accessor() -> i32 {
                value(Index::$accessor, $default)
            }
        )*
    };
}

search_params! {
    /// Razoring: margin below alpha at depth 0 (plus the next row x d²).
    razor_base, "RazorBase", 300, 0, 800, 40;
    /// Razoring: margin per depth squared.
    razor_depth_sq, "RazorDepthSq", 250, 50, 600, 30;
    /// Reverse futility: margin per depth.
    rfp_margin, "RfpMargin", 110, 40, 250, 12;
    /// Reverse futility: margin taken off when improving.
    rfp_improving, "RfpImproving", 50, 0, 150, 10;
    /// Reverse futility: deepest depth it applies at.
    rfp_max_depth, "RfpMaxDepth", 7, 3, 12, 1;
    /// Null move: base reduction.
    null_base, "NullBase", 4, 2, 7, 1;
    /// Null move: one more ply of reduction per this much depth.
    null_depth_div, "NullDepthDiv", 3, 2, 8, 1;
    /// Null move: one more ply per this much eval above beta (up to 3).
    null_eval_div, "NullEvalDiv", 200, 60, 500, 20;
    /// Late-move pruning: quiet moves kept at depth d are (this + d²),
    /// halved when not improving.
    lmp_base, "LmpBase", 3, 1, 10, 1;
    /// Futility pruning of quiet moves: base margin.
    futility_base, "FutilityBase", 150, 40, 350, 15;
    /// Futility pruning of quiet moves: margin per reduced depth.
    futility_depth, "FutilityDepth", 120, 40, 250, 12;
    /// SEE pruning of quiet moves: threshold per reduced depth squared.
    see_quiet_sq, "SeeQuietSq", 25, 5, 80, 4;
    /// SEE pruning of captures and checks: threshold per depth.
    see_noisy, "SeeNoisy", 340, 80, 600, 25;
    /// Singular extension: shallowest depth tested.
    singular_min_depth, "SingularMinDepth", 8, 5, 14, 1;
    /// Singular extension: margin below the hash score per depth.
    singular_margin, "SingularMargin", 2, 1, 8, 1;
    /// Singular extension: two plies when every other move fails this far
    /// below the lowered bound (non-PV nodes).
    singular_double_margin, "SingularDoubleMargin", 20, 0, 80, 5;
    /// Singular extension: most double extensions on one path.
    singular_double_limit, "SingularDoubleLimit", 6, 0, 16, 1;
    /// Late-move reductions: ln(d)·ln(n)/divisor + base, in hundredths.
    lmr_base, "LmrBase", 25, 0, 120, 8;
    /// Late-move reductions: the divisor, in hundredths.
    lmr_divisor, "LmrDivisor", 200, 120, 400, 15;
    /// Late-move reductions: one ply less per this much history.
    lmr_history_div, "LmrHistoryDiv", 12000, 4000, 40000, 1000;
    /// Aspiration: first half-window (plus |score|/64).
    aspiration_delta, "AspirationDelta", 30, 8, 80, 4;
    /// Quiescence delta pruning margin.
    qsearch_delta, "QsearchDelta", 200, 50, 500, 20;
    /// History bonus: per depth squared.
    history_depth_sq, "HistoryDepthSq", 16, 4, 40, 2;
    /// History bonus: per depth.
    history_depth, "HistoryDepth", 32, 0, 120, 8;
    /// History bonus: cap.
    history_max_bonus, "HistoryMaxBonus", 2000, 500, 4000, 150;
    /// Capture ordering: capture history divided by this is added to MVV-LVA.
    capture_history_div, "CaptureHistoryDiv", 2, 1, 8, 1;
    /// Time: a stable search stops at this percent of its soft target.
    stable_share_percent, "StableSharePercent", 85, 50, 100, 4;
    /// Time: main time is spread as if the game lasted this many plies.
    game_length_plies, "GameLengthPlies", 160, 80, 260, 10;
    /// Time: at least this many more moves of ours are planned for.
    min_moves_to_go, "MinMovesToGo", 20, 8, 50, 3;
}

#[inline(always)]
fn value(index: Index, default: i32) -> i32 {
    #[cfg(feature = "tune")]
    {
        let _ = default;
        VALUES[index as usize].load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(feature = "tune"))]
    {
        let _ = index;
        default
    }
}

/// The row named `name` (case-insensitive).
pub fn find(name: &str) -> Option<(usize, &'static Param)> {
    PARAMS
        .iter()
        .enumerate()
        .find(|(_, p)| p.name.eq_ignore_ascii_case(name))
}

/// Sets row `index` (tuning builds only; the caller checked the range).
#[cfg(feature = "tune")]
pub fn set(index: usize, value: i32) {
    VALUES[index].store(value, std::sync::atomic::Ordering::Relaxed);
    super::alphabeta::rebuild_reductions();
}

/// SPSA's final learning rate (`r_end`) for every row. Fishtest's 0.002
/// suits runs of tens of thousands of games; ours are a few thousand on
/// two cores. Every move scales with the rate: at 0.01, over the first
/// run here (900 updates of two pairs), noise alone moves a row by about
/// 0.9 steps, one standard deviation (the ratio of `tools/spsa/apply.py`'s
/// steps to its t); 0.002 would shrink every move, gradient and noise
/// alike, to a fifth of that.
const SPSA_R_END: f64 = 0.01;

/// The table as shogiarena's tunable manifest
/// (`shogiarena.usi_tunables.v1`), one line of JSON.
pub fn tune_manifest_json() -> String {
    let rows: Vec<String> = PARAMS
        .iter()
        .map(|p| {
            format!(
                "{{\"id\":\"{0}\",\"option\":\"{0}\",\"value_type\":\"int\",\"encoding\":\"integer\",\
                 \"default\":{1},\"min\":{2},\"max\":{3},\"schedule\":{{\"c_end\":{4},\"r_end\":{5}}}}}",
                p.name, p.default, p.min, p.max, p.step, SPSA_R_END
            )
        })
        .collect();
    format!(
        "{{\"schema_version\":\"shogiarena.usi_tunables.v1\",\"tunables\":[{}]}}",
        rows.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_sane_and_unique() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.step > 0 && p.step <= p.max - p.min, "{p:?}");
            assert_eq!(find(&p.name.to_lowercase()).map(|(j, _)| j), Some(i));
        }
        assert_eq!(razor_base(), PARAMS[Index::razor_base as usize].default);
        assert!(find("NoSuchParam").is_none());
    }

    /// Tuning builds: a set value reaches the accessor and the LMR table.
    /// (Run alone, `cargo test --features tune params`: it changes the
    /// process-wide values other tests' searches would read.)
    #[cfg(feature = "tune")]
    #[test]
    fn set_values_reach_the_search() {
        let (index, param) = find("LmrDivisor").unwrap();
        let before = super::super::alphabeta::reduction_for_test(20, 20);
        set(index, param.max);
        assert_eq!(lmr_divisor(), param.max);
        let after = super::super::alphabeta::reduction_for_test(20, 20);
        set(index, param.default);
        assert!(after < before, "{after} >= {before}");
        assert_eq!(super::super::alphabeta::reduction_for_test(20, 20), before);
    }

    #[test]
    fn manifest_lists_every_row() {
        let json = tune_manifest_json();
        assert!(json.starts_with("{\"schema_version\":\"shogiarena.usi_tunables.v1\""));
        for p in PARAMS {
            assert!(
                json.contains(&format!("\"id\":\"{}\"", p.name)),
                "{}",
                p.name
            );
        }
        assert_eq!(json.matches("\"id\"").count(), PARAMS.len());
        // Well nested: every brace and bracket closes, none too early
        // (a stray `}` in the format string once slipped past the checks
        // above and only shogiarena's JSON parser caught it).
        let mut depth = 0i32;
        for c in json.chars() {
            match c {
                '{' | '[' => depth += 1,
                '}' | ']' => depth -= 1,
                _ => {}
            }
            assert!(depth >= 0, "closes too early: {json}");
        }
        assert_eq!(depth, 0, "{json}");
        for p in PARAMS {
            let schedule = format!(
                "\"max\":{},\"schedule\":{{\"c_end\":{},\"r_end\":{}}}}}",
                p.max, p.step, SPSA_R_END
            );
            assert!(json.contains(&schedule), "{schedule}");
        }
    }
}
