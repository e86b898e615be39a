#!/usr/bin/env python3
"""Cross-checks gyoku's game records against cshogi (pip install cshogi).

Plays random legal games with cshogi (from the even start, every handicap
cshogi knows, and crowded positions where identical pieces compete for the
same squares), then for each game:

  1. gyoku writes it as KIF (Shift_JIS .kif and UTF-8 .kifu), KI2 and CSA;
     cshogi's KIF, KI2 and CSA parsers read them back: the moves (and the
     start position) must be the same;
  2. every move of gyoku's KI2 is compared with cshogi.KI2.move_to_ki2
     (known, explained differences are counted apart, not failed);
  3. cshogi writes the game as KIF and CSA; gyoku converts those to USI:
     the moves must be the same;
  4. for the first few games, `gyoku analyse` writes an annotated KIF
     (Shift_JIS, `*#評価値=` comments under every move) that cshogi's KIF
     parser reads with the same moves and one comment per move.

Not part of `cargo test` (cshogi is not a build dependency). Usage:

    cargo build --release
    python3 tools/kifu-crosscheck.py --gyoku target/release/gyoku --games 200
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

import cshogi
import cshogi.CSA
import cshogi.KI2
import cshogi.KIF

CROWDED = [
    # Dragons, horses, golds and silvers that can reach the same squares.
    "l3k3l/1+R+R3+B+B1/p1sg1gs1p/9/2N3N2/9/P1SG1GS1P/9/L3K3L b Nn13p 1",
    "4k4/9/2G3G2/9/1+S1+S1+S1+S1/9/2g3g2/9/4K4 b 2R2B4N4L2P 1",
    "ln1gk1snl/1r1s2gb1/p1pppp1pp/6p2/1p7/2P6/PPSPPPPPP/1BG4R1/LN2KGSNL b - 1",
]


def random_game(rng, sfen, max_plies):
    board = cshogi.Board(sfen)
    moves = []
    while len(moves) < max_plies and not board.is_game_over():
        legal = list(board.legal_moves)
        # Prefer captures and promotions a little: more promoted pieces.
        weights = [3 if (cshogi.move_is_promotion(m) or cshogi.move_cap(m)) else 1 for m in legal]
        m = rng.choices(legal, weights)[0]
        moves.append(cshogi.move_to_usi(m))
        board.push(m)
    return moves


def run(gyoku, *args):
    p = subprocess.run([gyoku, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"gyoku {' '.join(args)}: {p.stderr.strip()}")
    return p.stdout


def usi_moves(moves):
    return [cshogi.move_to_usi(m) for m in moves]


def check_game(gyoku, tmp, n, sfen, moves, stats, analyse):
    base = os.path.join(tmp, f"g{n}")
    start = "position startpos" if sfen == cshogi.STARTING_SFEN else f"position sfen {sfen}"
    with open(base + ".usi", "w") as f:
        f.write(start + (" moves " + " ".join(moves) if moves else "") + "\n")
    for ext in ("kif", "kifu", "ki2", "csa"):
        run(gyoku, "convert", base + ".usi", f"{base}.{ext}")
    problems = []
    named = sfen in cshogi.KIF.Parser.HANDYCAP_SFENS.values()
    # 1. cshogi reads what gyoku wrote (cshogi reads no board diagrams).
    if named:
        for ext in ("kif", "kifu"):
            k = cshogi.KIF.Parser.parse_file(f"{base}.{ext}")
            if usi_moves(k.moves) != moves or k.sfen != sfen:
                problems.append(f"cshogi KIF parser disagrees on .{ext}")
        # cshogi's KI2 parser loses its place on lines of three or more
        # moves (it sets its offset to the end of the last match within the
        # rest of the line): give it our moves one at a time.
        with open(base + ".ki2", encoding="cp932") as f:
            tokens = [t for line in f if line[:1] in "▲△" for t in split_marks(line)]
        b = cshogi.Board(sfen)
        read = [m for t in tokens for m in cshogi.KI2.Parser.parse_move_str(t, b)]
        if usi_moves(read) != moves:
            problems.append("cshogi KI2 move parser disagrees")
    for c in cshogi.CSA.Parser.parse_file(base + ".csa"):
        if usi_moves(c.moves) != moves or cshogi.Board(c.sfen).sfen() != cshogi.Board(sfen).sfen():
            problems.append("cshogi CSA parser disagrees")
    # 2. Notation, move by move.
    with open(base + ".ki2", encoding="cp932") as f:
        ours = [t for line in f if line[:1] in "▲△" for t in split_marks(line)]
    board = cshogi.Board(sfen)
    for i, u in enumerate(moves):
        m = board.move_from_usi(u)
        theirs = cshogi.KI2.move_to_ki2(m, board)
        mine = ours[i] if i < len(ours) else "?"
        if mine == theirs:
            stats["same"] += 1
        elif mine.replace("竜", "龍") == theirs:
            stats["竜/龍"] += 1  # both names are standard; rules.md lists 竜 first
        elif mine.replace("同　", "同") == theirs.replace("同　", "同"):
            stats["dou spacing"] += 1  # cshogi omits the space before two-character pieces
        elif cshogi_ambiguous(board, m, theirs):
            stats["cshogi ambiguous"] += 1  # cshogi wrote 右/左 where two pieces are on that side
        elif pinned_twin(board, m):
            stats["pinned twin"] += 1  # cshogi counts a pinned twin; gyoku legal moves only
        else:
            stats["differ"] += 1
            problems.append(f"move {i + 1} {u} in {board.sfen()}: gyoku {mine} cshogi {theirs}")
        board.push(m)
    # 3. gyoku reads what cshogi wrote.
    if named:
        name = [k for k, v in cshogi.KIF.Parser.HANDYCAP_SFENS.items() if v == sfen][0]
        ex = cshogi.KIF.Exporter(base + "-cshogi.kif")
        ex.header(["a", "b"], handicap=name)
        b = cshogi.Board(sfen)
        for u in moves:
            m = b.move_from_usi(u)
            ex.move(m)
            b.push(m)
        ex.close()
        back = run(gyoku, "convert", base + "-cshogi.kif", "-", "--to", "usi").split()
        if (back[back.index("moves") + 1:] if "moves" in back else []) != moves:
            problems.append("gyoku reads cshogi's KIF differently")
    ex = cshogi.CSA.Exporter(base + "-cshogi.csa")
    ex.info(init_board=cshogi.Board(sfen), names=["a", "b"])
    b = cshogi.Board(sfen)
    for u in moves:
        m = b.move_from_usi(u)
        ex.move(m, time=1)
        b.push(m)
    ex.endgame("%TORYO")
    ex.close()
    back = run(gyoku, "convert", base + "-cshogi.csa", "-", "--to", "usi").split()
    if (back[back.index("moves") + 1:] if "moves" in back else []) != moves:
        problems.append("gyoku reads cshogi's CSA differently")
    if analyse:
        run(gyoku, "analyse", base + ".kif", "--nodes", "300", "--threads", "1", "--hash", "4",
            "--out", base + "-analysed.kif")
        k = cshogi.KIF.Parser.parse_file(base + "-analysed.kif")
        if usi_moves(k.moves) != moves or k.sfen != sfen:
            problems.append("cshogi KIF parser disagrees on the analysed record")
        elif sum(1 for c in k.comments if c and "#評価値=" in c) != len(moves):
            problems.append("analysed record: not one evaluation comment per move")
        else:
            stats["analysed"] += 1
    return problems


def split_marks(line):
    out, cur = [], ""
    for ch in line.strip():
        if ch in "▲△" and cur:
            out.append(cur.strip())
            cur = ""
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def cshogi_ambiguous(board, move, text):
    """Whether cshogi's text names a side (左/右) that two same-kind pieces
    able to make the move share, with no motion word to tell them apart."""
    if cshogi.move_is_drop(move) or text[-1:] in "上寄引" or not any(w in text for w in "左右"):
        return False
    word = "左" if "左" in text else "右"
    to = cshogi.move_to(move)
    kind = cshogi.move_from_piece_type(move)
    sides = set()
    count = 0
    for m in board.legal_moves:
        if cshogi.move_is_drop(m) or cshogi.move_to(m) != to or cshogi.move_from_piece_type(m) != kind:
            continue
        if cshogi.move_from(m) in sides:
            continue
        sides.add(cshogi.move_from(m))
        df = cshogi.move_from(m) // 9 - to // 9
        if board.turn == cshogi.WHITE:
            df = -df
        if (df > 0 and word == "左") or (df < 0 and word == "右"):
            count += 1
    return count >= 2


def pinned_twin(board, move):
    """Whether a same-kind piece could reach the square pseudo-legally but not legally."""
    to = cshogi.move_to(move)
    legal = {m for m in board.legal_moves}
    for m in board.pseudo_legal_moves:
        if m not in legal and cshogi.move_to(m) == to and not cshogi.move_is_drop(m) \
                and not cshogi.move_is_drop(move) \
                and cshogi.move_from_piece_type(m) == cshogi.move_from_piece_type(move):
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gyoku", default="target/release/gyoku")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plies", type=int, default=160)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--analyse", type=int, default=3, help="games to analyse (even starts only)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    starts = [s for s in cshogi.KIF.Parser.HANDYCAP_SFENS.values() if s] + CROWDED
    stats = {"same": 0, "竜/龍": 0, "dou spacing": 0, "pinned twin": 0, "cshogi ambiguous": 0, "differ": 0, "analysed": 0}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.games):
            sfen = cshogi.STARTING_SFEN if n % 3 == 0 else rng.choice(starts)
            moves = random_game(rng, sfen, args.plies)
            analyse = n % 3 == 0 and n // 3 < args.analyse
            problems = check_game(args.gyoku, tmp, n, sfen, moves, stats, analyse)
            for p in problems[:5]:
                print(f"game {n} ({sfen}): {p}")
            failures += bool(problems)
    print(f"{args.games} games, {failures} with problems; KI2 moves: {stats}")
    print(f"{args.games - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
