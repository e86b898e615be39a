//! Writes a small random NNUE network (gyoku's format) to the given path,
//! for tests that need an `EvalFile` without training one:
//! `cargo run --example random_net -- OUT [SEED]`. tools/windows/build.sh
//! puts one beside gyoku.exe to check that relative `EvalFile` paths are
//! found in the executable's folder.

use gyoku::nnue::{FeatureSet, Network};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(out) = args.first() else {
        eprintln!("usage: random_net OUT [SEED]");
        std::process::exit(2);
    };
    let seed = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let net = Network::random(seed, FeatureSet::HalfKpMirror, 32);
    if let Err(e) = std::fs::write(out, net.write()) {
        eprintln!("{out}: {e}");
        std::process::exit(1);
    }
}
