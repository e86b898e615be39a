//! `gyoku nnue train`: fits an NNUE network to labelled positions on the
//! CPU (rayon; no Python, no GPU), then writes it in gyoku's net format.
//!
//! - Inputs: the sparse first layer touches only the rows of active
//!   features; a factorised "piece without king" table (one row per
//!   BonaPiece, shared by all king buckets) is trained alongside and
//!   folded into the real rows at export, which helps rare king squares
//!   when data is scarce.
//! - Loss: squared error in win probability between `sigmoid(eval / K)`
//!   and `lambda * sigmoid(score / K) + (1 - lambda) * result`.
//! - Optimiser: Adam, with sparse updates of the transformer rows.
//! - Validation: every n-th game held out whole.
//! - Checkpoints after every epoch; `--resume` continues a run exactly;
//!   `--init NET` starts from an exported net (its shape and optional
//!   parts replace `--l1`, `--psqt` and `--dynamic`).
//! - Quantisation-aware: hidden and output weights are kept inside what
//!   i8 can hold, so the exported integer net tracks the float one.
//!
//! A tool, not part of the engine: nothing under `search` or `usi` uses it.

mod adam;
mod checkpoint;
pub mod data;
pub mod export;
pub mod model;
pub mod trainer;

use crate::nnue::features::{FeatureSet, BONA_PIECE_END};
use crate::tools::tune::{flag, parse_flags, Flags};
use adam::{Adam, AdamConfig};
use model::Model;
use trainer::TrainConfig;

const USAGE: &str = "usage: gyoku nnue train --data FILE[,FILE...] --out NET [--l1 64]
         [--epochs 10] [--batch 16384] [--lr 0.001] [--lr-decay 0.9] [--lambda 0.7]
         [--sigmoid 600] [--seed 1] [--validation-every 10] [--quantised-epochs 1]
         [--bucket-lr 1.0] [--bucket-decay 0] [--psqt 0|1] [--dynamic 0|1] [--export best|last]
         [--checkpoint FILE] [--resume FILE] [--init NET] [--threads N]
  data: gensfen .bin records, or the tuner's text files (game, result, score, sfen)
       gyoku nnue export --format yaneuraou|gyoku IN OUT
  converts a net (either format) to a YaneuraOu nn.bin (HalfKP, L1 256 only) or to gyoku's
       gyoku nnue random OUT [SEED]
  a small random net (HalfKpMirror, L1 32), for tests";

/// Runs `gyoku nnue <args>`; returns the exit code.
pub fn run(args: &[String], threads: usize) -> i32 {
    let result = match args.first().map(String::as_str) {
        Some("random") => random_command(&args[1..]),
        Some("train") => parse_flags(&args[1..]).and_then(|flags| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| e.to_string())?;
            pool.install(|| train_command(&flags))
        }),
        Some("export") => export_command(&args[1..]),
        _ => Err("unknown nnue command".to_string()),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            2
        }
    }
}

/// `gyoku nnue random OUT [SEED]`: a small random network (HalfKpMirror,
/// L1 32) in gyoku's format, for tests that need an `EvalFile` without
/// training one (tools/windows/build.sh puts one beside gyoku.exe).
fn random_command(args: &[String]) -> Result<(), String> {
    let out = args.first().ok_or("nnue random needs an output file")?;
    let seed = match args.get(1) {
        Some(s) => s.parse().map_err(|_| format!("bad seed '{s}'"))?,
        None => 1,
    };
    let net = crate::nnue::Network::random(seed, FeatureSet::HalfKpMirror, 32);
    std::fs::write(out, net.write()).map_err(|e| format!("{out}: {e}"))
}

/// `gyoku nnue export --format yaneuraou|gyoku IN OUT`: reads a net in
/// either format and writes it in the one asked for.
fn export_command(args: &[String]) -> Result<(), String> {
    let mut format = None;
    let mut paths = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = Some(iter.next().ok_or("--format needs a value")?.as_str()),
            flag if flag.starts_with("--") => return Err(format!("unknown flag '{flag}'")),
            path => paths.push(path),
        }
    }
    let [input, output] = paths[..] else {
        return Err("export needs IN and OUT".into());
    };
    let bytes = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let net = crate::nnue::Network::read(&bytes).map_err(|e| format!("{input}: {e}"))?;
    let written = match format {
        Some("yaneuraou") => {
            crate::nnue::write_yaneuraou(&net).map_err(|e| format!("{input}: {e}"))?
        }
        Some("gyoku") => net.write(),
        Some(other) => return Err(format!("unknown --format '{other}' (yaneuraou or gyoku)")),
        None => return Err("--format is required (yaneuraou or gyoku)".into()),
    };
    std::fs::write(output, written).map_err(|e| format!("{output}: {e}"))?;
    eprintln!(
        "wrote {output} ({}, {:?}, L1 {})",
        format.unwrap_or_default(),
        net.feature_set(),
        net.l1()
    );
    Ok(())
}

/// The float model of the net at `path` (`--init`): its shape, piece-square
/// path and dynamic-terms flag come from the file, which must be in the
/// feature set the trainer writes and, with dynamic terms, match this
/// build's linear weights.
fn initial_model(path: &str, set: FeatureSet) -> Result<Model, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let net = crate::nnue::Network::read(&bytes).map_err(|e| format!("{path}: {e}"))?;
    if net.feature_set() != set {
        return Err(format!(
            "{path}: feature set {:?}, the trainer writes {set:?}",
            net.feature_set()
        ));
    }
    if net
        .dynamic_terms()
        .is_some_and(|f| f != crate::eval::dynamic_terms_fingerprint())
    {
        return Err(format!(
            "{path}: trained with other linear weights than this build's"
        ));
    }
    eprintln!("starting from {path} (L1 {})", net.l1());
    Ok(export::dequantise(&net))
}

fn train_command(flags: &Flags) -> Result<(), String> {
    let data: Vec<String> = flags
        .get("data")
        .ok_or("--data is required")?
        .split(',')
        .map(str::to_string)
        .collect();
    let out = flags.get("out").ok_or("--out is required")?.clone();
    let set = FeatureSet::HalfKpMirror;
    let l1: usize = flag(flags, "l1", 64)?;
    if !crate::nnue::is_valid_l1(l1) {
        return Err(format!("--l1 {l1}: must be a multiple of 32 in 32..=512"));
    }
    let defaults = TrainConfig::default();
    let config = TrainConfig {
        epochs: flag(flags, "epochs", defaults.epochs)?,
        batch: flag(flags, "batch", defaults.batch)?.max(1),
        adam: AdamConfig {
            learning_rate: flag(flags, "lr", defaults.adam.learning_rate)?,
            bucket_lr_scale: flag(flags, "bucket-lr", defaults.adam.bucket_lr_scale)?,
            bucket_decay: flag(flags, "bucket-decay", defaults.adam.bucket_decay)?,
            ..defaults.adam
        },
        lr_decay: flag(flags, "lr-decay", defaults.lr_decay)?,
        lambda: flag(flags, "lambda", defaults.lambda)?,
        sigmoid_scale: flag(flags, "sigmoid", defaults.sigmoid_scale)?,
        seed: flag(flags, "seed", defaults.seed)?,
        quantised_epochs: flag(flags, "quantised-epochs", defaults.quantised_epochs)?,
    };
    let every: u32 = flag(flags, "validation-every", 10)?;
    let start = std::time::Instant::now();
    let (samples, skipped) = data::read_any(&data, set).map_err(|e| e.to_string())?;
    let (train, valid) = samples.split_by_game(every);
    eprintln!(
        "{} training and {} validation positions ({skipped} lines skipped) in {:.1} s",
        train.len(),
        valid.len(),
        start.elapsed().as_secs_f64()
    );
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let mut model = match flags.get("init") {
        Some(path) => initial_model(path, set)?,
        None => {
            let mut model = Model::new(set.inputs(), BONA_PIECE_END, l1, config.seed);
            if flag(flags, "psqt", 0u32)? != 0 {
                model = model.with_psqt(&model::material_factor_init());
            }
            model.dynamic_terms = flag(flags, "dynamic", 0u32)? != 0;
            model
        }
    };
    let mut adam = Adam::new(&model, config.adam);
    let mut done = 0;
    if let Some(path) = flags.get("resume") {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        done =
            checkpoint::read(&bytes, &mut model, &mut adam).map_err(|e| format!("{path}: {e}"))?;
        eprintln!("resumed {path} after {done} epochs");
    }
    eprintln!(
        "epoch {done}: validation loss {:.6} (the linear evaluation's: {:.6})",
        trainer::validation_loss(&model, &valid, &config),
        trainer::linear_loss(&valid, &config)
    );
    let checkpoint_path = flags.get("checkpoint").cloned();
    let keep_best = match flags.get("export").map(String::as_str) {
        None | Some("best") => true,
        Some("last") => false,
        Some(other) => return Err(format!("--export {other}: best or last")),
    };
    // The epoch with the lowest held-out loss is the one exported (with
    // little data the later epochs overfit).
    let mut best: Option<(f64, usize, Model)> = None;
    let mut failure = None;
    trainer::train(
        &mut model,
        &mut adam,
        &train,
        &valid,
        &config,
        done,
        |model, adam, r| {
            eprintln!(
                "epoch {}: train loss {:.6}, validation loss {:.6}, {:.0} positions/s",
                r.epoch, r.train_loss, r.validation_loss, r.positions_per_second
            );
            if best
                .as_ref()
                .is_none_or(|(loss, _, _)| r.validation_loss < *loss)
            {
                best = Some((r.validation_loss, r.epoch, model.clone()));
            }
            if let Some(path) = &checkpoint_path {
                let bytes = checkpoint::write(model, adam, r.epoch);
                if let Err(e) = std::fs::write(path, bytes) {
                    failure = Some(format!("{path}: {e}"));
                }
            }
        },
    );
    if let Some(e) = failure {
        return Err(e);
    }
    let exported = match best {
        Some((loss, epoch, best_model)) if keep_best => {
            eprintln!("exporting epoch {epoch} (held-out loss {loss:.6})");
            best_model
        }
        _ => model,
    };
    let net = export::quantise(&exported, set).map_err(|e| e.to_string())?;
    std::fs::write(&out, net.write()).map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "wrote {out} ({set:?}, L1 {}{})",
        net.l1(),
        match (net.has_psqt(), net.dynamic_terms().is_some()) {
            (true, true) => ", piece-square weights, dynamic terms",
            (true, false) => ", piece-square weights",
            (false, true) => ", dynamic terms",
            (false, false) => "",
        }
    );
    Ok(())
}

#[cfg(test)]
mod tests;
