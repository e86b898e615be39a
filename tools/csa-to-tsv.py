#!/usr/bin/env python3
"""Training data for `gyoku tune fit` from finished games in CSA files
(e.g. the records match.py writes with --out): every quiet position (side
to move not in check, last move not a capture) labelled with the game's
result for the side to move, in the `game<TAB>result<TAB>sfen` format.
Games without a decisive or drawn result are skipped.

usage: tools/csa-to-tsv.py [--first-game N] FILE.csa... > data.tsv
Needs `pip install cshogi`.
"""
import argparse
import sys

import cshogi
import cshogi.CSA


def quiet_positions(record):
    """(side to move, sfen) of every quiet position of one game."""
    board = cshogi.Board(record.sfen)
    captured_last = False
    for move in record.moves:
        if not captured_last and not board.is_check():
            yield board.turn, board.sfen()
        captured_last = (not cshogi.move_is_drop(move)) and board.piece(cshogi.move_to(move)) != 0
        board.push(move)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-game", type=int, default=0,
                        help="number of the first game (keep sets apart when merging)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    game = args.first_game
    kept = skipped = 0
    for path in args.files:
        for record in cshogi.CSA.Parser.parse_file(path):
            # cshogi: win 1 = Black (sente), 2 = White, 0 = draw
            if record.win not in (0, 1, 2) or not record.moves:
                skipped += 1
                continue
            for turn, sfen in quiet_positions(record):
                if record.win == 0:
                    result = "0.5"
                else:
                    winner = cshogi.BLACK if record.win == 1 else cshogi.WHITE
                    result = "1" if turn == winner else "0"
                print(f"{game}\t{result}\t{sfen}")
                kept += 1
            game += 1
    print(f"{game - args.first_game} games, {kept} positions, {skipped} records skipped",
          file=sys.stderr)


if __name__ == "__main__":
    main()
