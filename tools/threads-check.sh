#!/bin/bash
# Device check for issue 35 (16 cores): Lazy SMP time-to-depth at 1/2/4/8/16
# threads, then 2 threads against 1 thread at equal wall time (byoyomi).
# Prepare a folder (the kit) with the release gyoku, tools/sprt.py,
# ../shared/tools/match/{match.py,openings.sfen}, this script, and cp312
# wheels of cshogi 1.1.0 and numpy 1.26.4 (pip download, see the device
# README); the script reads the kit beside itself. As run on 2026-12-06:
#   .devicekit/threads-check.sh $OUT 15 420 7 byoyomi:0+100
# usage: threads-check.sh OUT BENCH_DEPTH MATCH_SECONDS CONCURRENCY TC
OUT=$1; DEPTH=$2; SECS=$3; CONC=$4; TC=$5
K=$(cd "$(dirname "$0")" && pwd)
export PYTHONUNBUFFERED=1
chmod +x $K/gyoku
nproc; grep -m1 "model name" /proc/cpuinfo
if ls $K/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site $K/*.whl && export PYTHONPATH=/tmp/site
fi
python3 -c "import cshogi; print('cshogi ok')" 2>&1 | tail -1
{
for t in 1 2 2 4 4 8 8 16 16; do
  echo "== threads $t"; $K/gyoku bench $DEPTH --threads $t --hash 256 2>&1 | tail -3
done
} | tee $OUT/scaling.txt
mkdir -p $OUT/m
timeout $SECS python3 $K/sprt.py --match-py $K/match.py --openings $K/openings.sfen \
  -a $K/gyoku -b $K/gyoku --opt-a Threads=2 --opt-a USI_Hash=64 --opt-b Threads=1 --opt-b USI_Hash=64 \
  --tc $TC --elo0 -5 --elo1 5 --alpha 0.001 --beta 0.001 --max-games 400 --concurrency $CONC \
  --out $OUT/m > $OUT/threads-match.txt 2>&1
echo "== match"; grep -v "^#" $OUT/threads-match.txt | tail -4
