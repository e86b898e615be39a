#!/bin/bash
# Device check for issue 4 (16-core machine): Lazy SMP time-to-depth at
# 1/4/8/16 threads, then matches vs fairy-stockfish and sjaakii, 1 thread each.
# Prepare here, in an ignored folder that the device tool carries (.devicekit/):
#   the release gyoku, /usr/games/{fairy-stockfish,sjaakii}, libreadline.so.8 and
#   libtinfo.so.6 (sjaakii needs them), ../shared/tools/match/{match.py,openings.sfen},
#   and cp312 wheels of cshogi 1.1.0 and numpy 1.26.4 (pip download, see the device README).
# Copy this script into .devicekit/ too (it reads the kit beside itself) and
# run on the device: .devicekit/device-check.sh $OUT 16 480 13 2
# usage: device-check.sh OUT BENCH_DEPTH MATCH_SECONDS FSF_CONCURRENCY SJAAKII_CONCURRENCY
OUT=$1; DEPTH=$2; SECS=$3; FC=$4; SC=$5
K=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$K:$LD_LIBRARY_PATH PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site $K/*.whl && export PYTHONPATH=/tmp/site
chmod +x $K/gyoku $K/fairy-stockfish $K/sjaakii
nproc; python3 -c "import cshogi; print('cshogi ok')"
{
for t in 1 1 1 4 4 4 8 8 8 16 16 16; do
  echo "== threads $t"; $K/gyoku bench $DEPTH --threads $t --hash 256 2>&1 | tail -3
done
} | tee $OUT/scaling.txt
cd $K
timeout $SECS python3 match.py -a $K/gyoku -b $K/fairy-stockfish --opt-a USI_Hash=256 --opt-b Threads=1 --opt-b Hash=256 \
  --tc byoyomi:0+1000 --time-margin 1000 --games 200 --openings openings.sfen --concurrency $FC --out $OUT/fsf > $OUT/fsf.txt 2>&1 &
timeout $SECS python3 match.py -a $K/gyoku -b "$K/sjaakii -usi" --at-drops-b --opt-a USI_Hash=256 \
  --tc-a byoyomi:0+1000 --tc-b movetime:1000 --time-margin 1000 --games 200 --openings openings.sfen --concurrency $SC --out $OUT/sj > $OUT/sj.txt 2>&1 &
wait
for f in fsf sj; do echo "== $f"; grep -c "^Game" $OUT/$f.txt; grep -E "^Game" $OUT/$f.txt | grep -oE "\| A [0-9]+W-[0-9]+D-[0-9]+L" | tail -1; grep -E "note|SUMMARY|reasons" $OUT/$f.txt | tail -5; done
rm -rf $OUT/fsf $OUT/sj
