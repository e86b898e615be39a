#!/bin/sh
# Self-play data for `gyoku tune fit`, in chunks of games so a long run can
# be stopped and resumed; all chunks together equal one run with this seed
# (game i always gets the same random opening and search limits).
# usage: tools/gen-selfplay.sh GYOKU_BINARY FIRST_CHUNK LAST_CHUNK [GAMES_PER_CHUNK] [THREADS]
set -e
bin=${1:?gyoku binary}; first=${2:?first chunk}; last=${3:?last chunk}
per=${4:-250}; threads=${5:-2}
mkdir -p tools/data
for chunk in $(seq "$first" "$last"); do
    "$bin" tune gen --games "$per" --first-game $((chunk * per)) --seed 3 --depth 30 \
        --nodes 8000 --threads "$threads" --out "tools/data/selfplay-$chunk.tsv"
done
