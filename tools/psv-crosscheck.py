#!/usr/bin/env python3
"""Check gyoku's PackedSfenValue records against cshogi, both ways.

1. Every record of FILE (written by `gyoku gensfen`) is decoded by cshogi:
   its position and move must equal what `gyoku gensfen-info --dump`
   prints, and cshogi must re-pack the position to the same 32 bytes.
2. Positions of --games random games (captures preferred, so that hands
   fill up) are packed by cshogi, with a random legal move each, and
   decoded by gyoku: the SFENs and moves must agree.

Needs the cshogi and numpy Python packages (`pip install cshogi`).

usage: tools/psv-crosscheck.py --gyoku target/release/gyoku FILE [--games 40]
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

import cshogi
import numpy as np


def dump(gyoku, path):
    """gyoku's (sfen without move number, move) for each record of path."""
    out = subprocess.run([gyoku, "gensfen-info", "--dump", path], check=True,
                         capture_output=True, text=True).stdout
    rows = [line.split("\t") for line in out.splitlines()]
    return [(r[0].rsplit(" ", 1)[0], r[1]) for r in rows]


def check_ours(gyoku, path):
    records = np.fromfile(path, dtype=cshogi.PackedSfenValue)
    ours = dump(gyoku, path)
    assert len(records) == len(ours), (len(records), len(ours))
    board, bad = cshogi.Board(), 0
    for record, (sfen, move) in zip(records, ours):
        board.set_psfen(record["sfen"])
        repacked = np.zeros(1, dtype=cshogi.PackedSfen)
        board.to_psfen(repacked)
        m = board.move_from_psv(int(record["move"]))
        if (board.sfen().rsplit(" ", 1)[0] != sfen
                or repacked[0]["sfen"].tobytes() != record["sfen"].tobytes()
                or cshogi.move_to_usi(m) != move or not board.is_legal(m)):
            bad += 1
            print(f"mismatch: cshogi {board.sfen()} {cshogi.move_to_usi(m)}, "
                  f"gyoku {sfen} {move}")
    print(f"{path}: {len(records)} records read by cshogi, {bad} mismatches")
    return bad


def check_theirs(gyoku, games):
    rng, board = random.Random(5), cshogi.Board()
    records, expected = [], []
    for _ in range(games):
        board.reset()
        for _ in range(250):
            moves = list(board.legal_moves)
            if not moves:
                break
            takes = [m for m in moves if not cshogi.move_is_drop(m)
                     and board.piece(cshogi.move_to(m)) != 0]
            m = rng.choice(takes if takes and rng.random() < 0.5 else moves)
            record = np.zeros(1, dtype=cshogi.PackedSfenValue)
            board.to_psfen(record)
            record[0]["move"] = cshogi.move16_to_psv(cshogi.move16(m))
            record[0]["gamePly"] = board.move_number
            records.append(record)
            expected.append((board.sfen().rsplit(" ", 1)[0], cshogi.move_to_usi(m)))
            board.push(m)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cshogi.bin")
        np.concatenate(records).tofile(path)
        ours = dump(gyoku, path)
    bad = sum(1 for a, b in zip(expected, ours) if a != b) + abs(len(expected) - len(ours))
    print(f"{len(expected)} cshogi-packed positions read by gyoku, {bad} mismatches")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gyoku", default="target/release/gyoku")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    bad = sum(check_ours(args.gyoku, f) for f in args.files)
    bad += check_theirs(args.gyoku, args.games)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
