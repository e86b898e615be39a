#!/usr/bin/env python3
"""Relabel training positions with a teacher engine's search score.

Reads `gyoku tune gen` data (game, result, [score,] sfen per line), asks a
USI engine for `go nodes N` on every position and writes the same lines
with the score column replaced by the teacher's final score (centipawns,
side to move's view; mates as +-20000, gyoku's EVAL_LIMIT). `gyoku tune
fit --lambda 0` then fits the evaluation to these scores alone. A deeper
engine's score is a far less noisy label than the result of one fast game.

Positions are split over --jobs engine processes; each writes its own part
file (OUT.partJ), so a stopped run keeps what it labelled, and the parts
are joined into OUT in input order at the end.

usage: tools/label-scores.py --engine /usr/games/fairy-stockfish --nodes 8000
           --jobs 2 --out OUT IN [IN ...]
"""
import argparse
import itertools
import os
import sys
from multiprocessing import Process

from usi_engine import Engine

def read_lines(paths):
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    yield line.rstrip("\n").split("\t")


def label_part(args, job):
    engine = Engine(args.engine)
    part = f"{args.out}.part{job}"
    done = 0
    if os.path.exists(part):  # resume a stopped run
        with open(part) as f:
            done = sum(1 for _ in f)
    with open(part, "a") as out:
        for n, fields in enumerate(read_lines(args.inputs)):
            if n % args.jobs != job:
                continue
            if done > 0:
                done -= 1
                continue
            game, result, sfen = fields[0], fields[1], fields[-1]
            score, _ = engine.search(sfen, args.nodes)
            # An empty score keeps the line's place, so the parts can be
            # joined back in order; the join drops it.
            out.write(f"{game}\t{result}\t{'' if score is None else score}\t{sfen}\n")
            out.flush()
    engine.close()


def join_parts(args):
    """Deals lines back from the parts in turn, as label_part dealt them
    out, until a part runs dry (the end, or where a stopped run ended)."""
    parts = [open(f"{args.out}.part{j}") for j in range(args.jobs)]
    written = skipped = 0
    with open(args.out, "w") as out:
        for n in itertools.count():
            line = parts[n % args.jobs].readline()
            if not line:
                break
            if line.split("\t")[2] == "":
                skipped += 1
                continue
            out.write(line)
            written += 1
    for p in parts:
        p.close()
    print(f"{written} positions labelled, {skipped} without a score -> {args.out}",
          file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="teacher USI command")
    parser.add_argument("--nodes", type=int, default=8000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True)
    parser.add_argument("--join-only", action="store_true",
                        help="only join the part files of a stopped run")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()
    if not args.join_only:
        workers = [Process(target=label_part, args=(args, j)) for j in range(args.jobs)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    join_parts(args)


if __name__ == "__main__":
    main()
