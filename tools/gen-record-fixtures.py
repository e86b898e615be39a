#!/usr/bin/env python3
"""Writes the game records in tests/data/records/ with cshogi's writers
(pip install cshogi), so that gyoku's readers are tested on files another
program wrote: CSA exactly as shared/tools/match/match.py writes it, KIF
(Shift_JIS and UTF-8) as cshogi.KIF.Exporter writes it. Each record has a
`.usi` twin holding its start and moves. The games are random legal games
that prefer captures and promotions, so that they reach the
crowded middlegames and recaptures real games have.

    python3 tools/gen-record-fixtures.py tests/data/records
"""
import os
import random
import sys
from datetime import datetime

import cshogi
import cshogi.CSA
import cshogi.KIF


def game(rng, sfen, plies):
    board = cshogi.Board(sfen)
    moves = []
    while len(moves) < plies and not board.is_game_over():
        legal = list(board.legal_moves)
        w = [4 if cshogi.move_cap(m) or cshogi.move_is_promotion(m) else 1 for m in legal]
        m = rng.choices(legal, w)[0]
        moves.append(m)
        board.push(m)
    return moves


def usi_twin(path, sfen, moves):
    start = "position startpos" if sfen == cshogi.STARTING_SFEN else f"position sfen {sfen}"
    with open(path, "w") as f:
        f.write(start + " moves " + " ".join(cshogi.move_to_usi(m) for m in moves) + "\n")


def match_csa(path, sfen, moves, rng, end, result):
    # shared/tools/match/match.py, write_csa()
    b = cshogi.Board(sfen)
    ex = cshogi.CSA.Exporter(path)
    ex.info(init_board=b, names=["gyoku-a", "gyoku-b"], var_info={"EVENT": "match.py", "TIME_LIMIT": "byoyomi 1000ms"})
    for m in moves:
        ex.move(m, time=rng.randint(0, 3))
        b.push(m)
    ex.endgame(end)
    ex.f.write(f"'result {result} (sente view): fixture\n")
    ex.close()


def cshogi_kif(path, handicap, sfen, moves, rng):
    ex = cshogi.KIF.Exporter(path)
    ex.header(["先手さん", "後手さん"], starttime=datetime(2024, 5, 1, 10, 0, 0), handicap=handicap)
    total = [0, 0]
    for i, m in enumerate(moves):
        t = rng.randint(0, 90)
        total[i % 2] += t
        ex.move(m, t, total[i % 2])
    ex.end("resign", 5, total[len(moves) % 2] + 5)
    ex.close()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/records"
    rng = random.Random(34)
    two = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    lance = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    specs = [
        ("match-even.csa", cshogi.STARTING_SFEN, 130, "%TORYO", "1-0"),
        ("match-two-piece.csa", two, 110, "%SENNICHITE", "1/2-1/2"),
        ("match-long.csa", cshogi.STARTING_SFEN, 200, "%JISHOGI", "1/2-1/2"),
    ]
    for name, sfen, plies, end, result in specs:
        moves = game(rng, sfen, plies)
        match_csa(os.path.join(out, name), sfen, moves, rng, end, result)
        usi_twin(os.path.join(out, name.rsplit(".", 1)[0] + ".usi"), sfen, moves)
    for name, handicap, sfen, plies in [
        ("cshogi-even.kif", "平手", cshogi.STARTING_SFEN, 120),
        ("cshogi-lance.kifu", "香落ち", lance, 90),
    ]:
        moves = game(rng, sfen, plies)
        cshogi_kif(os.path.join(out, name), handicap, sfen, moves, rng)
        usi_twin(os.path.join(out, name.rsplit(".", 1)[0] + ".usi"), sfen, moves)


if __name__ == "__main__":
    main()
