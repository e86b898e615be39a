//! The tuning pipeline behind `gyoku tune`:
//!
//! - `gyoku tune gen --games N --seed S --depth D --out FILE`: self-play
//!   games ([`selfplay`]), quiet positions labelled with the result ([`dataset`]);
//! - `gyoku tune fit --data FILE --seed S --out src/eval/weights.rs`: Texel
//!   tuning ([`texel`]) on all games but a held-out tenth (`--lambda X`
//!   blends the results with the recorded search scores), reporting the
//!   error before and after on the held-out games, then writing the weights
//!   as Rust source ([`source`]).
//! - `gyoku tune init --out FILE`: writes the untuned starting weights.

pub mod dataset;
pub mod selfplay;
pub mod source;
pub mod texel;

use crate::eval::features::{initial_weights, NUM_FEATURES};
use crate::eval::weights::WEIGHTS;
use std::collections::HashMap;
use std::time::Instant;

const USAGE: &str = "usage: gyoku tune gen --out FILE [--games N] [--first-game N] [--seed S] [--depth D] [--nodes N] [--max-plies N] [--threads T]
       gyoku tune fit --data FILE --out FILE [--seed S] [--epochs E] [--lr X] [--l2 X] [--batch N] [--holdout-every N] [--lambda X] [--init initial|production] [--freeze BLOCK,...] [--threads T]
       gyoku tune init --out FILE
       gyoku tune ablate --keep BLOCK,BLOCK... --out FILE   (production weights, other blocks zeroed; e.g. --keep material,hand)";

/// Runs `gyoku tune ...` (arguments after `tune`); returns the exit code.
pub fn run(args: &[String], threads: usize) -> i32 {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("cannot start threads: {e}");
            return 1;
        }
    };
    let result = match parse_flags(args.get(1..).unwrap_or_default()) {
        Err(e) => Err(e),
        Ok(flags) => match args.first().map(String::as_str) {
            Some("gen") => pool.install(|| generate(&flags)),
            Some("fit") => pool.install(|| fit(&flags)),
            Some("init") => write_weights(&flags, &initial_weights(), "untuned starting weights"),
            Some("ablate") => ablate(&flags),
            _ => Err("unknown tune command".to_string()),
        },
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            2
        }
    }
}

/// `--name value` pairs of a tool's command line.
pub(crate) type Flags = HashMap<String, String>;

/// Reads `--name value` pairs; anything else is an error.
pub(crate) fn parse_flags(args: &[String]) -> Result<Flags, String> {
    let mut flags = HashMap::new();
    let mut iter = args.iter();
    while let Some(name) = iter.next() {
        let key = name
            .strip_prefix("--")
            .ok_or_else(|| format!("expected a --flag, got '{name}'"))?;
        let value = iter.next().ok_or_else(|| format!("{name} needs a value"))?;
        flags.insert(key.to_string(), value.clone());
    }
    Ok(flags)
}

/// The value of `--name`, or `default` when it is not given.
pub(crate) fn flag<T: std::str::FromStr>(
    flags: &Flags,
    name: &str,
    default: T,
) -> Result<T, String> {
    match flags.get(name) {
        None => Ok(default),
        Some(v) => v
            .parse()
            .map_err(|_| format!("bad value '{v}' for --{name}")),
    }
}

fn required<'a>(flags: &'a Flags, name: &str) -> Result<&'a str, String> {
    flags
        .get(name)
        .map(String::as_str)
        .ok_or_else(|| format!("--{name} is required"))
}

fn generate(flags: &Flags) -> Result<(), String> {
    let defaults = selfplay::SelfPlayConfig::default();
    let config = selfplay::SelfPlayConfig {
        games: flag(flags, "games", defaults.games)?,
        first_game: flag(flags, "first-game", defaults.first_game)?,
        seed: flag(flags, "seed", defaults.seed)?,
        depth: flag(flags, "depth", defaults.depth)?,
        nodes: flags
            .get("nodes")
            .map(|v| v.parse())
            .transpose()
            .map_err(|_| "bad --nodes")?,
        max_plies: flag(flags, "max-plies", defaults.max_plies)?,
        ..defaults
    };
    let out = required(flags, "out")?;
    let start = Instant::now();
    let samples = selfplay::generate(&config);
    let wins = samples.iter().filter(|s| s.result == 1.0).count();
    let draws = samples.iter().filter(|s| s.result == 0.5).count();
    dataset::write(out, &samples).map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{} games, {} positions ({} side-to-move wins, {} draws) in {:.1} s -> {out}",
        config.games,
        samples.len(),
        wins,
        draws,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn fit(flags: &Flags) -> Result<(), String> {
    let data = required(flags, "data")?;
    required(flags, "out")?; // fail before the long work, not after
    let holdout_every: u32 = flag(flags, "holdout-every", 10)?;
    let lambda: f64 = flag(flags, "lambda", 1.0)?;
    if !(0.0..=1.0).contains(&lambda) {
        return Err("--lambda must be within 0..=1".to_string());
    }
    let defaults = texel::TuneConfig::default();
    let config = texel::TuneConfig {
        epochs: flag(flags, "epochs", defaults.epochs)?,
        batch: flag(flags, "batch", defaults.batch)?,
        learning_rate: flag(flags, "lr", defaults.learning_rate)?,
        l2: flag(flags, "l2", defaults.l2)?,
        seed: flag(flags, "seed", defaults.seed)?,
        frozen: frozen_features(flags.get("freeze").map_or("", String::as_str)),
    };
    let initial: Vec<i32> = match flags.get("init").map_or("initial", String::as_str) {
        "initial" => initial_weights(),
        "production" => WEIGHTS.iter().map(|&w| i32::from(w)).collect(),
        other => return Err(format!("bad --init '{other}'")),
    };
    let initial: Vec<f64> = initial.iter().map(|&w| f64::from(w)).collect();

    let start = Instant::now();
    let samples = dataset::read(data).map_err(|e| e.to_string())?;
    // Whole games are held out, so test positions are not near-copies of
    // training positions.
    let (test, train): (Vec<_>, Vec<_>) = samples
        .into_iter()
        .partition(|s| holdout_every > 0 && s.game % holdout_every == 0);
    let mut train = texel::FeatureSet::new(&train).map_err(|e| e.to_string())?;
    let mut test = texel::FeatureSet::new(&test).map_err(|e| e.to_string())?;
    println!(
        "{} training, {} held-out positions; features in {:.1} s",
        train.len(),
        test.len(),
        start.elapsed().as_secs_f64()
    );
    let k0 = train.fit_k(&initial);
    let results_before = test.result_mse(&initial, k0);
    train.blend_scores(k0, lambda);
    test.blend_scores(k0, lambda);
    let before = test.mse(&initial, k0);
    println!(
        "K = {k0:.6}; held-out MSE before {before:.6} (against results alone {results_before:.6})"
    );
    // Blended targets need their own scale; unblended ones have k0.
    let k = if lambda < 1.0 {
        train.fit_k(&initial)
    } else {
        k0
    };
    let tuned = texel::tune(&train, &initial, k, &config, |epoch, loss| {
        if epoch % 10 == 9 || epoch + 1 == config.epochs {
            println!("epoch {:4} train loss {loss:.6}", epoch + 1);
        }
    });
    let rounded: Vec<i32> = tuned
        .iter()
        .map(|&w| w.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i32)
        .collect();
    let as_f64: Vec<f64> = rounded.iter().map(|&w| f64::from(w)).collect();
    let k_after = train.fit_k(&as_f64);
    let after_same_k = test.mse(&as_f64, k);
    let after = test.mse(&as_f64, k_after);
    let results_after = test.result_mse(&as_f64, k);
    println!(
        "held-out MSE after {after_same_k:.6} (K = {k:.6}), {after:.6} (refitted K = {k_after:.6}); against results alone {results_after:.6}; {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let provenance = format!(
        "tuned on {data} ({} train / {} held-out positions), seed {}, {} epochs, lr {}, l2 {}, batch {}, lambda {lambda}, frozen [{}]; held-out MSE {before:.6} -> {after:.6} (results alone {results_before:.6} -> {results_after:.6})",
        train.len(),
        test.len(),
        config.seed,
        config.epochs,
        config.learning_rate,
        config.l2,
        config.batch,
        flags.get("freeze").map_or("", String::as_str)
    );
    write_weights(flags, &rounded, &provenance)
}

/// Production weights with every feature block not in `--keep` zeroed:
/// builds the baselines for measuring what each term is worth in games.
fn ablate(flags: &Flags) -> Result<(), String> {
    let keep: Vec<&str> = required(flags, "keep")?.split(',').collect();
    let weights: Vec<i32> = WEIGHTS
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            if keep.contains(&block_of(i).as_str()) {
                i32::from(w)
            } else {
                0
            }
        })
        .collect();
    write_weights(
        flags,
        &weights,
        &format!("production weights, only {}", keep.join(",")),
    )
}

/// Block names of the features (the first word of [`feature_name`]).
fn block_of(index: usize) -> String {
    let name = crate::eval::features::feature_name(index);
    name.split(' ').next().unwrap_or_default().to_string()
}

/// Which features `--freeze BLOCK,BLOCK...` keeps at their starting weight.
fn frozen_features(blocks: &str) -> Vec<bool> {
    let blocks: Vec<&str> = blocks.split(',').filter(|b| !b.is_empty()).collect();
    (0..NUM_FEATURES)
        .map(|i| blocks.contains(&block_of(i).as_str()))
        .collect()
}

fn write_weights(flags: &Flags, weights: &[i32], provenance: &str) -> Result<(), String> {
    assert_eq!(weights.len(), NUM_FEATURES);
    let out = required(flags, "out")?;
    std::fs::write(out, source::weights_source(weights, provenance))
        .map_err(|e| format!("{out}: {e}"))?;
    println!("weights written to {out}");
    Ok(())
}

#[cfg(test)]
mod tests;
