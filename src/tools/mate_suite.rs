//! `gyoku mate-suite`: solves a file of tsume problems and checks the
//! answers against their known lengths.
//!
//! Rows are `sfen<TAB>plies<TAB>source...`; `#` starts a comment line and
//! plies `-` means the position has no mate.

use crate::mate::{
    is_valid_mate, tsume_position, MateResult, MateSolver, SolveStats, SOLVER_STACK,
};
use crate::position::Position;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const USAGE: &str = "gyoku mate-suite <file> [--time-ms N] [--nodes N] [--hash-mb N] [--out FILE]";

/// One problem of a suite.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The position, attacker to move.
    pub sfen: String,
    /// Known shortest mate length in plies; `None` for "no mate".
    pub plies: Option<usize>,
}

/// A suite row that does not parse (lines are numbered from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuiteError {
    /// A row with no plies column.
    MissingPlies {
        /// Line number.
        line: usize,
    },
    /// A plies column that is neither a number nor `-`.
    BadPlies {
        /// Line number.
        line: usize,
        /// The column as written (trimmed).
        text: String,
    },
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SuiteError::MissingPlies { line } => write!(f, "line {line}: missing plies column"),
            SuiteError::BadPlies { line, text } => write!(f, "line {line}: bad plies '{text}'"),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Parses suite text; errors name the offending line.
pub fn parse_suite(text: &str) -> Result<Vec<Problem>, SuiteError> {
    let mut problems = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let sfen = fields.next().unwrap_or_default().trim().to_string();
        let plies = match fields.next().map(str::trim) {
            Some("-") => None,
            Some(p) => Some(p.parse().map_err(|_| SuiteError::BadPlies {
                line: n + 1,
                text: p.to_string(),
            })?),
            None => return Err(SuiteError::MissingPlies { line: n + 1 }),
        };
        problems.push(Problem { sfen, plies });
    }
    Ok(problems)
}

/// How one problem went.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Ok,
    WrongLength,
    /// A valid mate longer than the known one, which the solver did not
    /// claim shortest (time ran out while shortening): a partial answer.
    Longer,
    /// A valid mate shorter than the known one, not claimed shortest, from
    /// a proof no shorter than the known length: the line's defence is not
    /// the longest (its replies are read by stored bounds), a partial
    /// answer. A proof shorter than the known length is `WrongLength`.
    WeakDefence,
    Timeout,
    False,
}

struct Options {
    file: String,
    /// Per problem; `None` with `--nodes` alone (nodes then end each solve).
    time_ms: Option<u64>,
    nodes: Option<u64>,
    hash_mb: usize,
    out: Option<String>,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut file = None;
    let mut options = Options {
        file: String::new(),
        time_ms: None,
        nodes: None,
        hash_mb: 64,
        out: None,
    };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| iter.next().cloned().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--time-ms" => {
                let v = value("--time-ms")?;
                options.time_ms = Some(v.parse().map_err(|_| format!("bad --time-ms '{v}'"))?);
            }
            "--nodes" => {
                let v = value("--nodes")?;
                options.nodes = Some(v.parse().map_err(|_| format!("bad --nodes '{v}'"))?);
            }
            "--hash-mb" => {
                let v = value("--hash-mb")?;
                options.hash_mb = v.parse().map_err(|_| format!("bad --hash-mb '{v}'"))?;
            }
            "--out" => options.out = Some(value("--out")?),
            _ if file.is_none() => file = Some(arg.clone()),
            _ => return Err(format!("unexpected argument '{arg}'")),
        }
    }
    options.file = file.ok_or("missing suite file")?;
    // 5 s a problem by default; a node limit alone is not cut by a clock,
    // so its answers are the same on any machine.
    if options.nodes.is_none() {
        options.time_ms.get_or_insert(5000);
    }
    Ok(options)
}

/// Runs the subcommand; returns the exit code (non-zero on any false
/// result or wrong length). The solves run on a thread with the solver's
/// stack ([`SOLVER_STACK`]): long problems recurse deeper than a main
/// thread's stack allows (1 MB on Windows).
pub fn run(args: &[String]) -> i32 {
    let args = args.to_vec();
    std::thread::Builder::new()
        .name("mate-suite".into())
        .stack_size(SOLVER_STACK)
        .spawn(move || run_suite(&args))
        .map_or(2, |handle| handle.join().unwrap_or(2))
}

fn run_suite(args: &[String]) -> i32 {
    let options = match parse_args(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}\nusage: {USAGE}");
            return 2;
        }
    };
    let problems = match std::fs::read_to_string(&options.file)
        .map_err(|e| format!("{}: {e}", options.file))
        .and_then(|text| parse_suite(&text).map_err(|e| e.to_string()))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let mut out = match options
        .out
        .as_deref()
        .map(std::fs::File::create)
        .transpose()
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot create output file: {e}");
            return 2;
        }
    };
    let mut solver = MateSolver::new(options.hash_mb);
    solver.set_node_limit(options.nodes);
    let mut verdicts = Vec::new();
    let mut times = Vec::new();
    for (i, problem) in problems.iter().enumerate() {
        let pos = match tsume_position(&problem.sfen) {
            Ok(p) => p,
            Err(e) => {
                println!("SKIP #{:<4} bad sfen ({e}): {}", i + 1, problem.sfen);
                continue;
            }
        };
        solver.clear();
        let start = Instant::now();
        let deadline = options.time_ms.map(|ms| start + Duration::from_millis(ms));
        let result = solver.solve(&pos, deadline, &AtomicBool::new(false));
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let stats = solver.stats();
        let (verdict, found) = judge(&pos, problem.plies, &result, &stats);
        let known = problem.plies.map_or("-".to_string(), |p| p.to_string());
        let tag = if verdict == Verdict::Ok {
            "ok  "
        } else {
            "FAIL"
        };
        println!(
            "{tag} #{:<4} {:>7} found {found:>7} known {known:>3} {ms:>9.1} ms {:>10} nodes \
             (first proof {} plies at {}, proven {}, shrink {}, line {}{})",
            i + 1,
            format!("{verdict:?}"),
            solver.nodes(),
            stats.first_len,
            stats.proof_nodes,
            stats.proven_len,
            stats.shrink_nodes,
            stats.line_nodes,
            if stats.shortest { ", shortest" } else { "" }
        );
        if let (Some(file), MateResult::Mate(line)) = (out.as_mut(), &result) {
            let moves: Vec<String> = line.iter().map(ToString::to_string).collect();
            // A failed write only loses the side file, not the verdicts.
            let _ = writeln!(file, "{}\t{known}\t{}", problem.sfen, moves.join(" "));
        }
        verdicts.push(verdict);
        times.push(ms);
    }
    summarize(&verdicts, &mut times)
}

/// Checks `result` against the known length and the rules of tsume.
fn judge(
    pos: &Position,
    known: Option<usize>,
    result: &MateResult,
    stats: &SolveStats,
) -> (Verdict, String) {
    match result {
        MateResult::Timeout => (Verdict::Timeout, "timeout".into()),
        MateResult::NoMate if known.is_none() => (Verdict::Ok, "nomate".into()),
        MateResult::NoMate => (Verdict::False, "nomate".into()),
        MateResult::Mate(line) => {
            if !is_valid_mate(pos, line) {
                return (Verdict::False, format!("bad:{}", line.len()));
            }
            match known {
                None => (Verdict::False, line.len().to_string()),
                Some(k) if k == line.len() => (Verdict::Ok, k.to_string()),
                Some(k) if k < line.len() && !stats.shortest => {
                    (Verdict::Longer, format!("{}?", line.len()))
                }
                Some(k) if !stats.shortest && stats.proven_len >= k as i32 => {
                    (Verdict::WeakDefence, format!("{}<", line.len()))
                }
                Some(_) => (Verdict::WrongLength, line.len().to_string()),
            }
        }
    }
}

fn summarize(verdicts: &[Verdict], times: &mut [f64]) -> i32 {
    let count = |v: Verdict| verdicts.iter().filter(|&&x| x == v).count();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let max = times.last().copied().unwrap_or(0.0);
    println!(
        "summary: {} problems, {} ok, {} wrong length, {} longer (not shortened in time), \
         {} shorter lines from longer proofs (weak defence), {} timeouts, {} false; \
         median {median:.1} ms, max {max:.1} ms",
        verdicts.len(),
        count(Verdict::Ok),
        count(Verdict::WrongLength),
        count(Verdict::Longer),
        count(Verdict::WeakDefence),
        count(Verdict::Timeout),
        count(Verdict::False)
    );
    i32::from(count(Verdict::False) + count(Verdict::WrongLength) > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_rows_parse_and_bad_ones_name_their_line() {
        let text =
            "# comment\n\n4k4/9/4P4/9/9/9/9/9/9 b G 1\t1\tsource\n9/9/9/9/9/9/9/9/9 b - 1\t-\n";
        let problems = parse_suite(text).unwrap();
        assert_eq!(problems.len(), 2);
        assert_eq!((problems[0].plies, problems[1].plies), (Some(1), None));
        let error = |text| parse_suite(text).unwrap_err();
        assert_eq!(error("x\n"), SuiteError::MissingPlies { line: 1 });
        assert_eq!(error("x\n").to_string(), "line 1: missing plies column");
        assert_eq!(error("#\nx\t 3x ").to_string(), "line 2: bad plies '3x'");
    }

    #[test]
    fn a_node_limit_alone_is_not_cut_by_the_default_clock() {
        let args = |a: &[&str]| parse_args(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let nodes = args(&["f.tsv", "--nodes", "2000000"]).unwrap();
        assert_eq!((nodes.time_ms, nodes.nodes), (None, Some(2_000_000)));
        assert_eq!(args(&["f.tsv"]).unwrap().time_ms, Some(5000));
        let both = args(&["--time-ms", "700", "f.tsv", "--nodes", "9"]).unwrap();
        assert_eq!((both.time_ms, both.nodes), (Some(700), Some(9)));
    }
}
