#!/bin/sh
# Self-play data for `gyoku tune fit`, in chunks of games so a long run can
# be stopped and resumed; all chunks together equal one run with this seed.
# usage: tools/gen-selfplay.sh GYOKU_BINARY FIRST_CHUNK LAST_CHUNK [GAMES_PER_CHUNK]
set -e
bin=${1:?gyoku binary}; first=${2:?first chunk}; last=${3:?last chunk}; per=${4:-40}
mkdir -p tools/data
for chunk in $(seq "$first" "$last"); do
    "$bin" tune gen --games "$per" --first-game $((chunk * per)) --seed 1 --depth 3 \
        --nodes 30000 --threads 1 --out "tools/data/selfplay-$chunk.tsv"
done
