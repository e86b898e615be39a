//! Perft: counting the leaves of the legal move tree, the standard check of
//! a move generator. The last ply is bulk-counted with
//! [`Position::count_legal`] (popcounts of destination sets, no move list),
//! and the root can be split across a dedicated rayon pool.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use rayon::prelude::*;
use std::io::Write;
use std::time::Instant;

/// A rayon pool of `threads` threads for the root split (`None` if the
/// pool cannot be built: the caller's thread does the work).
pub fn thread_pool(threads: usize) -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()
}

/// Prints a divide in the format shared by `gyoku perft` and USI `go perft`
/// (one `move: nodes` line per root move, the total, time and nps).
pub fn print_divide(
    out: &mut dyn Write,
    pos: &Position,
    depth: u32,
    threads: usize,
) -> std::io::Result<u64> {
    let pool = thread_pool(threads);
    let start = Instant::now();
    let rows = divide(pos, depth, pool.as_ref());
    let total: u64 = if depth == 0 {
        1
    } else {
        rows.iter().map(|&(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    for (m, n) in &rows {
        writeln!(out, "{m}: {n}")?;
    }
    writeln!(out, "Nodes searched: {total}")?;
    let secs = elapsed.as_secs_f64();
    writeln!(
        out,
        "Time: {} ms, {:.0} nps",
        elapsed.as_millis(),
        if secs > 0.0 { total as f64 / secs } else { 0.0 }
    )?;
    Ok(total)
}

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    count_leaves(pos, depth)
}

fn count_leaves(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return pos.count_legal() as u64,
        _ => {}
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut nodes = 0;
    for &m in &list {
        pos.do_move(m);
        nodes += count_leaves(pos, depth - 1);
        pos.undo_move(m);
    }
    nodes
}

/// Leaf counts below each root move ("divide"), in generation order,
/// computed in parallel on `pool` (or the caller's thread when `None`).
pub fn divide(pos: &Position, depth: u32, pool: Option<&rayon::ThreadPool>) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let count = |&m: &Move| {
        let mut child = pos.clone();
        child.do_move(m);
        let nodes = count_leaves(&mut child, depth.saturating_sub(1));
        (m, nodes)
    };
    if depth == 0 {
        return Vec::new();
    }
    match pool {
        Some(pool) => pool.install(|| moves.par_iter().map(count).collect()),
        None => moves.iter().map(count).collect(),
    }
}

/// Total of a divide; equals [`perft`] for `depth >= 1`.
pub fn perft_parallel(pos: &Position, depth: u32, pool: Option<&rayon::ThreadPool>) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide(pos, depth, pool).iter().map(|&(_, n)| n).sum()
}

/// One row of a perft suite file: `sfen<TAB>depth<TAB>nodes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// Position.
    pub sfen: String,
    /// Depth in plies.
    pub depth: u32,
    /// Expected leaf count.
    pub nodes: u64,
}

/// A perft suite row that does not parse (lines are numbered from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuiteError {
    /// Fewer than three tab-separated fields.
    MissingFields {
        /// Line number.
        line: usize,
    },
    /// The depth field is not a number.
    BadDepth {
        /// Line number.
        line: usize,
        /// The field as written.
        text: String,
    },
    /// The node-count field is not a number.
    BadNodes {
        /// Line number.
        line: usize,
        /// The field as written.
        text: String,
    },
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SuiteError::MissingFields { line } => {
                write!(f, "line {line}: expected sfen<TAB>depth<TAB>nodes")
            }
            SuiteError::BadDepth { line, text } => write!(f, "line {line}: bad depth '{text}'"),
            SuiteError::BadNodes { line, text } => {
                write!(f, "line {line}: bad node count '{text}'")
            }
        }
    }
}

impl std::error::Error for SuiteError {}

/// Parses a perft suite: one `sfen<TAB>depth<TAB>nodes[<TAB>anything]`
/// row per line; blank lines, `#` comments and a `sfen` header are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') || line.starts_with("sfen\t") {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let number = i + 1;
        if fields.len() < 3 {
            return Err(SuiteError::MissingFields { line: number });
        }
        let depth = fields[1].trim().parse().map_err(|_| SuiteError::BadDepth {
            line: number,
            text: fields[1].to_string(),
        })?;
        let nodes = fields[2].trim().parse().map_err(|_| SuiteError::BadNodes {
            line: number,
            text: fields[2].to_string(),
        })?;
        entries.push(SuiteEntry {
            sfen: fields[0].trim().to_string(),
            depth,
            nodes,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_shallow_counts() {
        let mut pos = Position::startpos();
        assert_eq!(perft(&mut pos, 1), 30);
        assert_eq!(perft(&mut pos, 2), 900);
        assert_eq!(perft(&mut pos, 3), 25470);
        assert_eq!(pos.to_sfen(), crate::position::START_SFEN);
    }

    #[test]
    fn suite_lines_parse() {
        let text = "# comment\nsfen\tdepth\tnodes\n9/9/9/9/9/9/9/9/9 b - 1\t2\t900\tsource\n\n";
        let entries = parse_suite(text).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].depth, 2);
        assert!(parse_suite("x\ty\t1").is_err());
        let error = |text| parse_suite(text).unwrap_err().to_string();
        assert_eq!(
            error("# c\nx\t2"),
            "line 2: expected sfen<TAB>depth<TAB>nodes"
        );
        assert_eq!(error("x\ty \t1"), "line 1: bad depth 'y '");
        assert_eq!(error("x\t1\t-5"), "line 1: bad node count '-5'");
    }
}
