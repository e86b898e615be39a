//! The trainer learns, and the exported integer net tracks the float one.

use super::adam::{Adam, AdamConfig};
use super::data::Samples;
use super::export::quantise;
use super::model::{material_factor_init, Model, SampleFeatures, OUTPUT_SCALE};
use super::trainer::{train, validation_loss, TrainConfig};
use crate::eval::{evaluate, EVAL_LIMIT};
use crate::nnue::features::{FeatureSet, BONA_PIECE_END};
use crate::nnue::Kernel;
use crate::position::Position;
use crate::util::rng::SplitMix64;

/// Positions along seeded random games, labelled with the linear
/// evaluation (a smooth target a small net can learn) and a fake result.
fn labelled_positions(games: u64, set: FeatureSet) -> (Samples, Vec<Position>) {
    let mut samples = Samples::default();
    let mut positions = Vec::new();
    for game in 0..games {
        let mut rng = SplitMix64::new(game + 100);
        let mut pos = Position::startpos();
        for ply in 0..64 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves[rng.below(moves.len())]);
            if ply >= 8 && ply % 4 == 0 && !pos.in_check() {
                let score = evaluate(&pos).clamp(-3000, 3000) as f32;
                let result = if score > 0.0 { 1.0 } else { 0.0 };
                samples.push(&pos, set, score, result, game as u32);
                positions.push(pos.clone());
            }
        }
    }
    (samples, positions)
}

#[test]
fn training_lowers_the_held_out_loss_and_export_keeps_the_values() {
    train_and_check_export(false, false);
}

#[test]
fn with_piece_square_weights_too() {
    train_and_check_export(true, false);
}

#[test]
fn with_piece_square_weights_and_dynamic_terms_too() {
    train_and_check_export(true, true);
}

fn train_and_check_export(psqt: bool, dynamic: bool) {
    let set = FeatureSet::HalfKpMirror;
    let (samples, positions) = labelled_positions(400, set);
    let (train_set, valid) = samples.split_by_game(5);
    assert!(
        train_set.len() > 2000 && valid.len() > 400,
        "{}",
        samples.len()
    );
    let config = TrainConfig {
        epochs: 12,
        batch: 256,
        adam: AdamConfig {
            learning_rate: 3e-3,
            ..AdamConfig::default()
        },
        lr_decay: 0.9,
        lambda: 1.0,
        ..TrainConfig::default()
    };
    let mut model = Model::new(set.inputs(), BONA_PIECE_END, 32, 7);
    if psqt {
        model = model.with_psqt(&material_factor_init());
    }
    model.dynamic_terms = dynamic;
    let mut adam = Adam::new(&model, config.adam);
    let before = validation_loss(&model, &valid, &config);
    let mut reports = Vec::new();
    train(
        &mut model,
        &mut adam,
        &train_set,
        &valid,
        &config,
        0,
        |_, _, r| reports.push(r.clone()),
    );
    let after = validation_loss(&model, &valid, &config);
    assert_eq!(reports.len(), 12);
    assert!(after < before * 0.7, "held-out loss {before} -> {after}");

    let net = quantise(&model, set).expect("a valid shape");
    assert_eq!(net.has_psqt(), psqt);
    assert_eq!(net.dynamic_terms().is_some(), dynamic);
    let net_arc = std::sync::Arc::new(net.clone());
    let reread = crate::nnue::Network::read(&net.write()).expect("round trip");
    assert_eq!(net, reread);
    let mut worst = 0.0f32;
    for pos in positions.iter().step_by(7) {
        let us = pos.side_to_move();
        let mut lists = [Default::default(), Default::default()];
        crate::nnue::features::active_features(pos, us, set, &mut lists[0]);
        crate::nnue::features::active_features(pos, us.flip(), set, &mut lists[1]);
        let x = SampleFeatures {
            us: &lists[0],
            them: &lists[1],
        };
        let float = model.forward(&x).out * OUTPUT_SCALE;
        let integer = net.evaluate_from_scratch(pos, Kernel::SCALAR) as f32;
        // The engine's evaluation adds the dynamic terms to the net's value.
        let mut stack = crate::eval::EvalStack::with_network(Some(net_arc.clone()));
        stack.reset(pos);
        let added = if dynamic {
            crate::eval::dynamic_terms(pos)
        } else {
            0
        };
        let engine_value = (integer as i32 + added).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        assert_eq!(stack.evaluate(pos), engine_value, "{}", pos.to_sfen());
        // The export is exact: the model's integer simulation gives the
        // net's value; the float model differs by the rounding.
        assert_eq!(
            model.forward_quantised(&x),
            f64::from(integer),
            "{}",
            pos.to_sfen()
        );
        worst = worst.max((float - integer).abs());
    }
    // The float model's own value differs by its rounding to the integer
    // grids (tens of units at this output scale: why the last epochs of a
    // run train on the integer value, see TrainConfig::quantised_epochs).
    println!("worst float/integer gap: {worst:.2}");
}

/// `gyoku nnue export` converts both ways and refuses what an nn.bin
/// cannot hold.
#[test]
fn export_converts_between_formats() {
    let dir = std::env::temp_dir().join(format!("gyoku-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let net = crate::nnue::Network::random(9, FeatureSet::HalfKp, 256);
    std::fs::write(path("ours.net"), net.write()).unwrap();
    let to_yo = args(&["--format", "yaneuraou", &path("ours.net"), &path("nn.bin")]);
    assert_eq!(super::export_command(&to_yo), Ok(()));
    let bin = std::fs::read(path("nn.bin")).unwrap();
    assert_eq!(crate::nnue::read_yaneuraou(&bin).as_ref(), Ok(&net));
    let back = args(&["--format", "gyoku", &path("nn.bin"), &path("back.net")]);
    assert_eq!(super::export_command(&back), Ok(()));
    assert_eq!(std::fs::read(path("back.net")).unwrap(), net.write());
    let small = crate::nnue::Network::random(9, FeatureSet::HalfKpMirror, 32);
    std::fs::write(path("small.net"), small.write()).unwrap();
    let refused = args(&["--format", "yaneuraou", &path("small.net"), &path("x.bin")]);
    let err = super::export_command(&refused).unwrap_err();
    assert!(err.contains("L1 256 only"), "{err}");
    assert!(super::export_command(&args(&["--format", "onnx", "a", "b"])).is_err());
    assert!(super::export_command(&args(&["a", "b"])).is_err());
    assert!(super::export_command(&args(&["--format", "gyoku", "a"])).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A network trained with the dynamic terms loads only into a build with
/// the same linear weights, and says so otherwise.
#[test]
fn a_network_with_dynamic_terms_needs_this_builds_weights() {
    let dir = std::env::temp_dir().join(format!("gyoku-dynamic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = crate::nnue::Network::random(5, FeatureSet::HalfKpMirror, 32);
    let ours = dir.join("ours.nn");
    let fingerprint = crate::eval::dynamic_terms_fingerprint();
    std::fs::write(&ours, base.clone().with_dynamic_terms(fingerprint).write()).unwrap();
    let loaded = crate::eval::load_network(ours.to_str().unwrap()).expect("loads");
    assert_eq!(loaded.dynamic_terms(), Some(fingerprint));
    let other = dir.join("other.nn");
    std::fs::write(&other, base.with_dynamic_terms(fingerprint ^ 1).write()).unwrap();
    let err = crate::eval::load_network(other.to_str().unwrap()).unwrap_err();
    assert!(
        err.to_string().contains("retrain it with this build"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bucket_decay_shrinks_touched_rows_and_the_per_input_psqt_only() {
    let set = FeatureSet::HalfKpMirror;
    let mut model =
        Model::new(set.inputs(), BONA_PIECE_END, 32, 3).with_psqt(&material_factor_init());
    model.psqt.iter_mut().for_each(|w| *w = 1.0);
    let config = AdamConfig {
        learning_rate: 0.01,
        bucket_decay: 10.0,
        ..AdamConfig::default()
    };
    let run = |decay: f32| {
        let mut model = model.clone();
        let mut adam = Adam::new(
            &model,
            AdamConfig {
                bucket_decay: decay,
                ..config
            },
        );
        let mut grad = model.zero_gradients();
        // Row 5 is touched with a zero gradient: Adam moves nothing, so
        // only the decay can change it.
        grad.touched.push(5);
        adam.step(&mut model, &mut grad);
        model
    };
    let (plain, decayed) = (run(0.0), run(10.0));
    let l1 = model.l1;
    let keep = 1.0 - 0.01 * 10.0;
    for k in 5 * l1..6 * l1 {
        assert_eq!(plain.ft_weights[k], model.ft_weights[k]);
        assert!((decayed.ft_weights[k] - model.ft_weights[k] * keep).abs() < 1e-6);
    }
    // Untouched rows and the shared factor stay as they were.
    assert_eq!(
        decayed.ft_weights[6 * l1..7 * l1],
        model.ft_weights[6 * l1..7 * l1]
    );
    assert_eq!(decayed.factor_weights, plain.factor_weights);
    assert_eq!(decayed.psqt_factor, plain.psqt_factor);
    assert!(plain.psqt.iter().all(|&w| w == 1.0));
    assert!(decayed.psqt.iter().all(|&w| (w - keep).abs() < 1e-6));
}

/// A net read back into a float model exports to the same net, so a run
/// started from it (`--init`) begins exactly where the net is.
#[test]
fn dequantised_nets_export_unchanged() {
    let set = FeatureSet::HalfKpMirror;
    let plain = crate::nnue::Network::random(3, set, 32);
    let full = crate::nnue::Network::random(4, set, 64)
        .with_random_psqt(5)
        .with_dynamic_terms(crate::eval::dynamic_terms_fingerprint());
    for net in [plain, full] {
        let model = super::export::dequantise(&net);
        let back = quantise(&model, set).unwrap();
        assert!(back == net, "{net:?}");
    }
}
