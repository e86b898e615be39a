//! Training positions on disk: one line per position,
//! `game<TAB>result<TAB>sfen`, where `result` is the game result from the
//! side to move's point of view (1 win, 0.5 draw, 0 loss) and `game`
//! numbers the self-play game it came from (for splitting by game).

use std::io::{BufRead, BufWriter, Write};

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Index of the game the position comes from.
    pub game: u32,
    /// Result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// The position.
    pub sfen: String,
}

/// Writes `samples` to `path`.
pub fn write(path: &str, samples: &[Sample]) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    for s in samples {
        writeln!(out, "{}\t{}\t{}", s.game, s.result, s.sfen)?;
    }
    out.flush()
}

/// Reads samples written by [`write`]; `#` lines and blank lines are skipped.
pub fn read(path: &str) -> Result<Vec<Sample>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut samples = Vec::new();
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{path}: {e}"))?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        samples.push(parse_line(&line).ok_or_else(|| format!("{path}:{}: bad line", n + 1))?);
    }
    Ok(samples)
}

fn parse_line(line: &str) -> Option<Sample> {
    let mut fields = line.splitn(3, '\t');
    let game = fields.next()?.parse().ok()?;
    let result = fields.next()?.parse().ok()?;
    let sfen = fields.next()?.to_string();
    Some(Sample { game, result, sfen })
}
