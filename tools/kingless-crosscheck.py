#!/usr/bin/env python3
"""Cross-check gyoku's move generation on king-less (tsume) positions
against cshogi's, which also allows a side without a king.

Positions: the tsume SFENs of the given files whose attacker has no king,
plus positions made by removing the side-to-move's king from random
games; from each, a random playout in which every node's legal move set
is compared (gyoku's from `go perft 1` over USI). Needs `pip install cshogi`.

usage: tools/kingless-crosscheck.py ENGINE [--seed N] [--playouts N] [--plies N] TSV...
"""
import argparse
import random
import subprocess
import sys

import cshogi


class Gyoku:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.read_until("usiok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.rstrip("\n")
            if line.startswith(prefix):
                return lines
            lines.append(line)

    def legal_moves(self, sfen):
        self.send(f"position sfen {sfen}")
        self.send("go perft 1")
        lines = self.read_until("Time:")
        return sorted(l.split(":")[0] for l in lines
                      if ": " in l and not l.startswith(("info", "Nodes")))


def kingless(board, side):
    king = "K" if side == "b" else "k"
    return king not in board


def random_game_positions(rng, count):
    """Positions from random games with the side to move's king removed."""
    out = []
    while len(out) < count:
        b = cshogi.Board()
        for _ in range(rng.randrange(10, 80)):
            moves = list(b.legal_moves)
            if not moves or b.is_game_over():
                break
            b.push(rng.choice(moves))
        if b.is_check():
            continue
        board, side, hands, ply = b.sfen().split()
        king = "K" if side == "b" else "k"
        out.append(" ".join([board.replace(king, "1"), side, hands, ply]))
    return [normalise(s) for s in out]


def normalise(sfen):
    b = cshogi.Board()
    b.set_sfen(sfen)
    return b.sfen()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("tsv", nargs="*")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random", type=int, default=100, help="positions from random games")
    ap.add_argument("--plies", type=int, default=40)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    starts = []
    for path in args.tsv:
        for line in open(path, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            sfen = line.split("\t")[0].strip()
            f = sfen.split()
            if kingless(f[0], f[1]):
                starts.append(sfen)
    starts += random_game_positions(rng, args.random)
    engine = Gyoku(args.engine)
    nodes = mismatches = 0
    for sfen in starts:
        b = cshogi.Board()
        b.set_sfen(sfen)
        for _ in range(args.plies):
            expected = sorted(cshogi.move_to_usi(m) for m in b.legal_moves)
            got = engine.legal_moves(b.sfen())
            nodes += 1
            if got != expected:
                mismatches += 1
                print("MISMATCH", b.sfen(), "gyoku-only", sorted(set(got) - set(expected)),
                      "cshogi-only", sorted(set(expected) - set(got)))
                break
            if not expected:
                break
            b.push_usi(rng.choice(expected))
    print(f"{len(starts)} start positions, {nodes} nodes compared, {mismatches} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
