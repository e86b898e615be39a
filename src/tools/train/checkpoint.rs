//! Checkpoints: the float model, Adam's moments and the epoch count, so a
//! long run can stop and resume exactly. Layout (little-endian): magic
//! `GYOKUCKP`, version u32, inputs u32, factor rows u32, L1 u32,
//! piece-square path u32 (0 or 1), dynamic terms u32 (0 or 1), epochs done
//! u32, Adam steps u64, learning rate f32, then the model's parameters and
//! the optimiser's state as f32 arrays in [`Model`]/[`Adam`] order.

use super::adam::Adam;
use super::model::Model;

const MAGIC: &[u8; 8] = b"GYOKUCKP";
const VERSION: u32 = 2;

fn put_f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// Serialises a run's state.
pub fn write(model: &Model, adam: &Adam, epochs_done: usize) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    for v in [
        VERSION,
        model.inputs as u32,
        model.factor_rows as u32,
        model.l1 as u32,
        u32::from(model.has_psqt()),
        u32::from(model.dynamic_terms),
        epochs_done as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&adam.steps.to_le_bytes());
    out.extend_from_slice(&adam.config.learning_rate.to_le_bytes());
    let mut model = model.clone();
    put_f32s(&mut out, &model.ft_weights);
    put_f32s(&mut out, &model.factor_weights);
    for block in model.dense_mut() {
        put_f32s(&mut out, block);
    }
    for moments in adam.moments() {
        put_f32s(&mut out, moments);
    }
    out
}

/// Why a checkpoint could not be restored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckpointError {
    /// The file ends before the state does.
    Truncated,
    /// The file does not start with the checkpoint magic.
    NotACheckpoint,
    /// A format version this build cannot read (the version found).
    Version(u32),
    /// The model has another shape: (inputs, factor rows, L1, piece-square
    /// path, dynamic terms) found and expected.
    Shape {
        /// The checkpoint's shape.
        found: [u32; 5],
        /// The model's shape.
        expected: [u32; 5],
    },
    /// Bytes after the end of the state.
    TrailingBytes,
}

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckpointError::Truncated => write!(f, "checkpoint is truncated"),
            CheckpointError::NotACheckpoint => write!(f, "not a gyoku training checkpoint"),
            CheckpointError::Version(_) => write!(f, "unsupported checkpoint version"),
            CheckpointError::Shape { found, expected } => write!(
                f,
                "checkpoint shape {found:?} (inputs, factor rows, L1, piece-square path, dynamic terms) differs from {expected:?}"
            ),
            CheckpointError::TrailingBytes => write!(f, "checkpoint has trailing bytes"),
        }
    }
}

impl std::error::Error for CheckpointError {}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], CheckpointError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(CheckpointError::Truncated)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32, CheckpointError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn fill(&mut self, values: &mut [f32]) -> Result<(), CheckpointError> {
        let bytes = self.take(values.len() * 4)?;
        for (v, b) in values.iter_mut().zip(bytes.chunks_exact(4)) {
            *v = f32::from_le_bytes(b.try_into().expect("4 bytes"));
        }
        Ok(())
    }
}

/// Restores a run's state into `model` and `adam`, which must have been
/// made with the same shape; returns the epochs done.
pub fn read(bytes: &[u8], model: &mut Model, adam: &mut Adam) -> Result<usize, CheckpointError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(8)? != MAGIC {
        return Err(CheckpointError::NotACheckpoint);
    }
    let version = r.u32()?;
    if version != VERSION {
        return Err(CheckpointError::Version(version));
    }
    let found = [r.u32()?, r.u32()?, r.u32()?, r.u32()?, r.u32()?];
    let expected = [
        model.inputs,
        model.factor_rows,
        model.l1,
        usize::from(model.has_psqt()),
        usize::from(model.dynamic_terms),
    ]
    .map(|v| v as u32);
    if found != expected {
        return Err(CheckpointError::Shape { found, expected });
    }
    let epochs = r.u32()? as usize;
    adam.steps = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
    adam.config.learning_rate = f32::from_le_bytes(r.take(4)?.try_into().expect("4 bytes"));
    r.fill(&mut model.ft_weights)?;
    r.fill(&mut model.factor_weights)?;
    for block in model.dense_mut() {
        r.fill(block)?;
    }
    for moments in adam.moments_mut() {
        r.fill(moments)?;
    }
    if r.at != bytes.len() {
        return Err(CheckpointError::TrailingBytes);
    }
    Ok(epochs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::train::adam::AdamConfig;

    fn fresh(inputs: usize) -> (Model, Adam) {
        let model = Model::new(inputs, 5, 32, 1);
        let adam = Adam::new(&model, AdamConfig::default());
        (model, adam)
    }

    #[test]
    fn a_checkpoint_reads_back_and_damage_is_named() {
        let (model, mut adam) = fresh(10);
        adam.steps = 7;
        let bytes = write(&model, &adam, 3);
        let (mut m, mut a) = fresh(10);
        assert_eq!(read(&bytes, &mut m, &mut a), Ok(3));
        assert_eq!((a.steps, &m.factor_weights), (7, &model.factor_weights));

        let error = |bytes: &[u8], inputs| {
            let (mut m, mut a) = fresh(inputs);
            read(bytes, &mut m, &mut a).unwrap_err()
        };
        let damaged = |at: usize, byte: u8| {
            let mut b = bytes.clone();
            b[at] = byte;
            b
        };
        let longer = [&bytes[..], &[0]].concat();
        let cases = [
            (
                error(&bytes[..bytes.len() - 1], 10),
                "checkpoint is truncated",
            ),
            (
                error(&damaged(0, b'X'), 10),
                "not a gyoku training checkpoint",
            ),
            (error(&damaged(8, 9), 10), "unsupported checkpoint version"),
            (
                error(&bytes, 11),
                "checkpoint shape [10, 5, 32, 0, 0] (inputs, factor rows, L1, piece-square path, dynamic terms) differs from [11, 5, 32, 0, 0]",
            ),
            (error(&longer, 10), "checkpoint has trailing bytes"),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
        assert_eq!(error(&damaged(8, 9), 10), CheckpointError::Version(9));
    }
}
