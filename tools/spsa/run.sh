#!/usr/bin/env bash
# SPSA-tunes gyoku's search constants with shogiarena (pip install
# shogiarena): builds the tuning engine (--features tune), writes the
# openings without their comments, and runs tools/spsa/spsa.yaml. Extra
# arguments go to `shogiarena run spsa` (e.g. --spsa num_updates=50
# num_workers=2). The run resumes where it stopped unless --no-resume.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --features tune --target-dir target/tune
mkdir -p /tmp/gyoku-spsa
sed -e 's/ *#.*//' -e '/^$/d' ../shared/tools/match/openings.sfen > /tmp/gyoku-spsa/openings.sfen
exec shogiarena run spsa tools/spsa/spsa.yaml --run-dir /tmp/gyoku-spsa/run "$@"
