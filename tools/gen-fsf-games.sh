#!/bin/sh
# Games between two copies of fairy-stockfish at a fixed node count, from
# random (seeded) openings, as training data that is not our own play:
# tools/csa-to-tsv.py turns the records into `gyoku tune fit` input.
# usage: tools/gen-fsf-games.sh OUT_DIR GAMES [NODES] [CONCURRENCY] [SEED]
# Needs fairy-stockfish (Debian package), python3 and `pip install cshogi`.
set -e
out=${1:?output directory}; games=${2:?number of games}
nodes=${3:-5000}; conc=${4:-2}; seed=${5:-1}
here=$(dirname "$0")
match=${MATCH_PY:-$here/../../shared/tools/match/match.py}
mkdir -p "$out"
python3 "$here/random-openings.py" --count $(( (games + 1) / 2 )) --seed "$seed" > "$out/openings.sfen"
python3 "$match" -a /usr/games/fairy-stockfish -b /usr/games/fairy-stockfish \
    --opt-a Threads=1 --opt-b Threads=1 --tc "nodes:$nodes" --games "$games" \
    --concurrency "$conc" --openings "$out/openings.sfen" --out "$out" > "$out/match.log"
python3 "$here/csa-to-tsv.py" --first-game $(( seed * 1000000 )) "$out"/game*.csa > "$out/positions.tsv"
