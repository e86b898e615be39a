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
}
