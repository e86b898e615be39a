#!/usr/bin/env python3
"""Seeded random openings for data generation: 8 to 16 random legal moves
from the start position (for variety, not balance), skipping positions
where the side to move is in check.

usage: tools/random-openings.py --count N [--seed S] > openings.sfen
"""
import argparse
import random

import cshogi


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    made = 0
    while made < args.count:
        board = cshogi.Board()
        for _ in range(rng.randint(8, 16)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_check() or board.is_game_over():
            continue
        print(board.sfen())
        made += 1


if __name__ == "__main__":
    main()
