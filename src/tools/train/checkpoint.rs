//! Checkpoints: the float model, Adam's moments and the epoch count, so a
//! long run can stop and resume exactly. Layout (little-endian): magic
//! `GYOKUCKP`, version u32, inputs u32, factor rows u32, L1 u32, epochs done
//! u32, Adam steps u64, learning rate f32, then the model's parameters and
//! the optimiser's state as f32 arrays in [`Model`]/[`Adam`] order.

use super::adam::Adam;
use super::model::Model;

const MAGIC: &[u8; 8] = b"GYOKUCKP";
const VERSION: u32 = 1;

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

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or("checkpoint is truncated")?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn fill(&mut self, values: &mut [f32]) -> Result<(), String> {
        let bytes = self.take(values.len() * 4)?;
        for (v, b) in values.iter_mut().zip(bytes.chunks_exact(4)) {
            *v = f32::from_le_bytes(b.try_into().expect("4 bytes"));
        }
        Ok(())
    }
}

/// Restores a run's state into `model` and `adam`, which must have been
/// made with the same shape; returns the epochs done.
pub fn read(bytes: &[u8], model: &mut Model, adam: &mut Adam) -> Result<usize, String> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(8)? != MAGIC {
        return Err("not a gyoku training checkpoint".into());
    }
    if r.u32()? != VERSION {
        return Err("unsupported checkpoint version".into());
    }
    let shape = [r.u32()?, r.u32()?, r.u32()?];
    let expected = [model.inputs, model.factor_rows, model.l1].map(|v| v as u32);
    if shape != expected {
        return Err(format!(
            "checkpoint shape {shape:?} (inputs, factor rows, L1) differs from {expected:?}"
        ));
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
        return Err("checkpoint has trailing bytes".into());
    }
    Ok(epochs)
}
