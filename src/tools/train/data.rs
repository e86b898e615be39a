//! Training positions in memory: each position's active inputs from both
//! sides (side to move first), its search score and its game result, kept
//! in flat arrays so that millions fit and batches read them fast.

use crate::nnue::features::{active_features, FeatureList, FeatureSet};
use crate::position::Position;
use crate::tools::datagen::packed::{PackedSfenValue, RECORD_BYTES};
use crate::tools::tune::dataset::{self, DatasetError};

/// Why training data could not be read.
#[derive(Debug)]
pub enum DataError {
    /// A text file of the tuner's that cannot be read.
    Text(DatasetError),
    /// A packed file that cannot be read.
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// A packed file whose size is not a whole number of records.
    PartialRecord {
        /// The file.
        path: String,
        /// Its size in bytes.
        bytes: usize,
    },
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataError::Text(e) => e.fmt(f),
            DataError::Io { path, error } => write!(f, "{path}: {error}"),
            DataError::PartialRecord { path, bytes } => write!(
                f,
                "{path}: {bytes} bytes is not a whole number of {RECORD_BYTES}-byte records"
            ),
        }
    }
}

impl std::error::Error for DataError {}

impl From<DatasetError> for DataError {
    fn from(e: DatasetError) -> DataError {
        DataError::Text(e)
    }
}

/// Positions ready for training.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Inputs of all positions, concatenated: a position's side-to-move
    /// list then its other-side list.
    features: Vec<u32>,
    /// Start of each position's lists in `features`, plus one end marker.
    starts: Vec<u32>,
    /// Length of each position's side-to-move list.
    us_len: Vec<u8>,
    /// Search score for the side to move (centipawn-like units).
    pub score: Vec<f32>,
    /// Game result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: Vec<f32>,
    /// Which game each position comes from (for the validation split).
    pub game: Vec<u32>,
    /// The linear evaluation of each position, as a baseline to beat.
    pub linear: Vec<f32>,
    /// The linear evaluation's dynamic terms alone, which a model trained
    /// with them adds to its own value.
    pub dynamic: Vec<f32>,
}

impl Samples {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.score.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    /// Adds `pos` with its labels.
    pub fn push(&mut self, pos: &Position, set: FeatureSet, score: f32, result: f32, game: u32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let mut list = FeatureList::new();
        let us = pos.side_to_move();
        active_features(pos, us, set, &mut list);
        self.us_len.push(list.len() as u8);
        self.features.extend_from_slice(&list);
        active_features(pos, us.flip(), set, &mut list);
        self.features.extend_from_slice(&list);
        self.starts.push(self.features.len() as u32);
        self.score.push(score);
        self.result.push(result);
        self.game.push(game);
        self.linear.push(crate::eval::evaluate(pos) as f32);
        self.dynamic.push(crate::eval::dynamic_terms(pos) as f32);
    }

    /// The inputs of position `i`: (side to move, other side).
    pub fn features(&self, i: usize) -> (&[u32], &[u32]) {
        let start = self.starts[i] as usize;
        let end = self.starts[i + 1] as usize;
        let split = start + usize::from(self.us_len[i]);
        (&self.features[start..split], &self.features[split..end])
    }

    /// Splits off the positions of every `every`-th game (by game number)
    /// as a validation set: whole games, so no near-copies cross over.
    pub fn split_by_game(&self, every: u32) -> (Samples, Samples) {
        let mut train = Samples::default();
        let mut valid = Samples::default();
        for i in 0..self.len() {
            let target = if every > 0 && self.game[i].is_multiple_of(every) {
                &mut valid
            } else {
                &mut train
            };
            target.copy_from(self, i);
        }
        (train, valid)
    }

    fn copy_from(&mut self, other: &Samples, i: usize) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let (us, them) = other.features(i);
        self.us_len.push(us.len() as u8);
        self.features.extend_from_slice(us);
        self.features.extend_from_slice(them);
        self.starts.push(self.features.len() as u32);
        self.score.push(other.score[i]);
        self.result.push(other.result[i]);
        self.game.push(other.game[i]);
        self.linear.push(other.linear[i]);
        self.dynamic.push(other.dynamic[i]);
    }
}

/// Reads the tuner's text files (`game<TAB>result<TAB>score<TAB>sfen`, see
/// [`dataset`]); positions without a score are skipped. Returns the samples
/// and the number of lines skipped.
pub fn read_text(paths: &[String], set: FeatureSet) -> Result<(Samples, usize), DataError> {
    let mut samples = Samples::default();
    let mut skipped = 0;
    for path in paths {
        for sample in dataset::read(path)? {
            let Some(score) = sample.score else {
                skipped += 1;
                continue;
            };
            let Ok(pos) = Position::from_sfen(&sample.sfen) else {
                skipped += 1;
                continue;
            };
            samples.push(&pos, set, score as f32, sample.result, sample.game);
        }
    }
    Ok((samples, skipped))
}

/// Reads gensfen's packed records (see [`crate::tools::datagen`]). Keeps the
/// positions a static evaluation is asked about: not in check, and whose
/// best move is neither a capture nor a promotion; drops mate scores and
/// records that do not validate. A new game starts wherever the move number
/// does not grow, which numbers games for the validation split. Returns the
/// samples and the number of records skipped.
pub fn read_packed(paths: &[String], set: FeatureSet) -> Result<(Samples, usize), DataError> {
    let mut samples = Samples::default();
    let mut skipped = 0;
    let mut game = 0u32;
    for path in paths {
        let bytes = std::fs::read(path).map_err(|error| DataError::Io {
            path: path.clone(),
            error,
        })?;
        if bytes.len() % RECORD_BYTES != 0 {
            return Err(DataError::PartialRecord {
                path: path.clone(),
                bytes: bytes.len(),
            });
        }
        let mut last_ply = u16::MAX;
        for chunk in bytes.chunks_exact(RECORD_BYTES) {
            let record = PackedSfenValue::from_bytes(chunk.try_into().expect("record size"));
            if record.game_ply <= last_ply {
                game += 1;
            }
            last_ply = record.game_ply;
            let Ok((pos, best)) = record.validate() else {
                skipped += 1;
                continue;
            };
            let quiet = !pos.in_check() && !best.is_promotion() && !pos.is_capture(best);
            if !quiet || i32::from(record.score).abs() >= MATE_SCORES {
                skipped += 1;
                continue;
            }
            let result = (f32::from(record.game_result) + 1.0) / 2.0;
            samples.push(&pos, set, f32::from(record.score), result, game);
        }
    }
    Ok((samples, skipped))
}

/// Scores at or beyond this are mates (gensfen writes them near +-32000).
const MATE_SCORES: i32 = 30_000;

/// Reads every file in `paths`: `.bin` files as packed records, the rest
/// as the tuner's text format.
pub fn read_any(paths: &[String], set: FeatureSet) -> Result<(Samples, usize), DataError> {
    let (packed, text): (Vec<String>, Vec<String>) =
        paths.iter().cloned().partition(|p| p.ends_with(".bin"));
    let (mut samples, mut skipped) = read_packed(&packed, set)?;
    let (more, more_skipped) = read_text(&text, set)?;
    for i in 0..more.len() {
        samples.copy_from(&more, i);
    }
    skipped += more_skipped;
    Ok((samples, skipped))
}
