#!/usr/bin/env python3
"""Find the moves that lost a game, as a stronger engine judges them.

Replays a CSA record (as match.py writes them), scores every position
with a reference engine (`go nodes N`) and, for each move of the chosen
side, prints what gyoku thought before it moved and what the move cost in
the reference engine's eyes: its score before the move minus its score
after it, both from the mover's side. Moves that cost more than
--threshold centipawns are marked with `!`; those are the positions to
study (a tactic the search missed, or an evaluation the tables get wrong).

usage: tools/blunder-check.py --csa GAME.csa --side b|w
           [--engine target/release/gyoku] [--reference /usr/games/fairy-stockfish]
           [--nodes 300000] [--threshold 200]

Needs `pip install cshogi`. Mates are shown as +-20000.
"""
import argparse
import cshogi
from cshogi import CSA
from usi_engine import Engine

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--csa", required=True)
    parser.add_argument("--side", required=True, choices=["b", "w"])
    parser.add_argument("--engine", default="target/release/gyoku")
    parser.add_argument("--reference", default="/usr/games/fairy-stockfish")
    parser.add_argument("--nodes", type=int, default=300000)
    parser.add_argument("--threshold", type=int, default=200)
    args = parser.parse_args()

    record = CSA.Parser.parse_file(args.csa)[0]
    board = cshogi.Board(record.sfen)
    ours = Engine(args.engine)
    reference = Engine(args.reference)
    sfens = []
    for move in record.moves:
        sfens.append(board.sfen())
        board.push(move)
    sfens.append(board.sfen())

    # The reference's score of every position, from the side to move.
    judged = [reference.search(sfen, args.nodes) for sfen in sfens]
    mover_is_black = cshogi.Board(record.sfen).turn == cshogi.BLACK
    print("ply  move      gyoku score/best       reference score/best   cost")
    for ply, move in enumerate(record.moves):
        if (mover_is_black == (ply % 2 == 0)) != (args.side == "b"):
            continue
        our_score, our_best = ours.search(sfens[ply], args.nodes)
        before, reference_best = judged[ply]
        after = judged[ply + 1][0]
        cost = None if before is None or after is None else before + after
        mark = "!" if cost is not None and cost > args.threshold else " "
        print(f"{ply + 1:3}  {cshogi.move_to_usi(move):8}  "
              f"{str(our_score):>6} {our_best:12}  "
              f"{str(before):>6} {reference_best:12}  {str(cost):>6} {mark}",
              flush=True)
    ours.close()
    reference.close()


if __name__ == "__main__":
    main()
