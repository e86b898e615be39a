//! Training positions on disk: one line per position,
//! `game<TAB>result<TAB>score<TAB>sfen`, where `result` is the game result
//! from the side to move's point of view (1 win, 0.5 draw, 0 loss), `score`
//! what the self-play search thought of the position (centipawns, side to
//! move's view; mates as ±[`EVAL_LIMIT`]) and `game` numbers the self-play
//! game it came from (for splitting by game). Files without the score
//! column (`game<TAB>result<TAB>sfen`) are read too.

use crate::eval::EVAL_LIMIT;

use std::io::{BufRead, BufWriter, Write};

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Index of the game the position comes from.
    pub game: u32,
    /// Result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f32,
    /// The self-play search's score for the side to move, if recorded.
    pub score: Option<i32>,
    /// The position.
    pub sfen: String,
}

/// Writes `samples` to `path`.
pub fn write(path: &str, samples: &[Sample]) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    for s in samples {
        match s.score {
            Some(score) => writeln!(out, "{}\t{}\t{}\t{}", s.game, s.result, score, s.sfen)?,
            None => writeln!(out, "{}\t{}\t{}", s.game, s.result, s.sfen)?,
        }
    }
    out.flush()
}

/// Why a data file could not be read.
#[derive(Debug)]
pub enum DatasetError {
    /// The file cannot be opened or read.
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// A line that is not `game<TAB>result[<TAB>score]<TAB>sfen`.
    BadLine {
        /// The file.
        path: String,
        /// Line number, from 1.
        line: usize,
    },
}

impl std::fmt::Display for DatasetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatasetError::Io { path, error } => write!(f, "{path}: {error}"),
            DatasetError::BadLine { path, line } => write!(f, "{path}:{line}: bad line"),
        }
    }
}

impl std::error::Error for DatasetError {}

/// Reads samples written by [`write()`]; `#` lines and blank lines are skipped.
pub fn read(path: &str) -> Result<Vec<Sample>, DatasetError> {
    let io = |error| DatasetError::Io {
        path: path.to_string(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut samples = Vec::new();
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io)?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        samples.push(parse_line(&line).ok_or_else(|| DatasetError::BadLine {
            path: path.to_string(),
            line: n + 1,
        })?);
    }
    Ok(samples)
}

fn parse_line(line: &str) -> Option<Sample> {
    let fields: Vec<&str> = line.split('\t').collect();
    let (game, result, score, sfen) = match fields[..] {
        [game, result, sfen] => (game, result, None, sfen),
        [game, result, score, sfen] => (game, result, Some(score), sfen),
        _ => return None,
    };
    let score = match score {
        Some(text) => Some(text.parse::<i32>().ok()?.clamp(-EVAL_LIMIT, EVAL_LIMIT)),
        None => None,
    };
    Some(Sample {
        game: game.parse().ok()?,
        result: result.parse().ok()?,
        score,
        sfen: sfen.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_and_without_scores_round_trip() {
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let with = parse_line(&format!("7\t1\t-35\t{sfen}")).unwrap();
        assert_eq!((with.game, with.result, with.score), (7, 1.0, Some(-35)));
        assert_eq!(with.sfen, sfen);
        let without = parse_line(&format!("8\t0.5\t{sfen}")).unwrap();
        assert_eq!(
            (without.game, without.result, without.score),
            (8, 0.5, None)
        );
        assert!(parse_line("8\t0.5").is_none());
        assert!(parse_line(&format!("8\t0.5\tx\t{sfen}")).is_none());
    }

    #[test]
    fn read_names_the_file_and_line() {
        let dir = std::env::temp_dir().join(format!("gyoku-dataset-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.tsv").display().to_string();
        let sample = Sample {
            game: 3,
            result: 0.5,
            score: Some(12),
            sfen: crate::position::START_SFEN.to_string(),
        };
        write(&path, std::slice::from_ref(&sample)).unwrap();
        assert_eq!(read(&path).unwrap(), vec![sample]);
        std::fs::write(&path, "# header\n1\t1\tx\ty\tz\n").unwrap();
        let error = read(&path).unwrap_err();
        assert!(
            matches!(error, DatasetError::BadLine { line: 2, .. }),
            "{error}"
        );
        assert_eq!(error.to_string(), format!("{path}:2: bad line"));
        std::fs::remove_dir_all(&dir).unwrap();
        let missing = dir.join("missing.tsv").display().to_string();
        let error = read(&missing).unwrap_err();
        assert!(matches!(error, DatasetError::Io { .. }));
        assert!(
            error.to_string().starts_with(&format!("{missing}: ")),
            "{error}"
        );
    }
}
