#!/usr/bin/env python3
"""SPRT between two USI engines over game pairs (pentanomial statistics).

Every opening is played twice, colours swapped, by the same worker; a pair
scores 0, 0.5, 1, 1.5 or 2 for engine A. The test is a normalised-Elo GSPRT
(as fishtest): with t = (mean pair score - 0.5) / (sqrt(2) * sd of the pair
score) and nElo = t * 800 / ln(10), after N pairs

    LLR = 2 N (t1 - t0) (t - (t0 + t1) / 2)

against the bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). It
stops by itself when either bound is crossed (or after --max-games), and
prints W-D-L, the pentanomial counts, logistic Elo and normalised Elo with
95% error bars, and the LLR, after every pair.

Games are played by match.py (../shared/tools/match, needs cshogi): its
rules, adjudication, time checks and crash handling apply unchanged.

usage:
  tools/sprt.py -a NEW -b BASE [--opt-a NAME=VALUE ...] [--opt-b ...]
      [--tc byoyomi:0+1000 | nodes:N | movetime:MS | inc:MAIN+INC]
      [--elo0 0 --elo1 5] [--alpha 0.05 --beta 0.05] [--max-games 2000]
      [--openings FILE] [--concurrency 2] [--out DIR [--resume]] [--fixed]
  tools/sprt.py --selftest

--resume goes on with the run whose results.txt is in --out: the pairs it
finished are skipped (the same --seed gives the same openings) and its
counts carried over, so a long match can run in chunks across sessions.
It refuses a file whose engines, options, time control or bounds differ.

--fixed plays all --max-games games: the LLR and verdict are reported
but do not stop the run (a fixed-length match, such as a release's
comparison with an old version, where the engines are so far apart
that the SPRT would stop after a few dozen games). With --resume it
also goes on with a run that had stopped at a verdict.
"""
import argparse
import math
import os
import queue
import random
import re
import shlex
import sys
import threading
import time
from types import SimpleNamespace

NELO_PER_T = 800.0 / math.log(10.0)


def pair_stats(penta):
    """Mean and variance of the pair score (scaled to 0..1) from counts of
    pair outcomes 0, 0.5, 1, 1.5, 2 (as scores of A)."""
    n = sum(penta)
    if n == 0:
        return 0.5, 0.0
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    mean = sum(c * v for c, v in zip(penta, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(penta, values)) / n
    return mean, var


def normalised(penta):
    """(t, nElo, 95% error of nElo) from pentanomial counts."""
    n = sum(penta)
    mean, var = pair_stats(penta)
    if n == 0 or var <= 0:
        return 0.0, 0.0, float("inf")
    sd = math.sqrt(var)
    t = (mean - 0.5) / (math.sqrt(2.0) * sd)
    err_t = 1.96 / math.sqrt(2.0 * n)  # sd of t-hat is about 1 / sqrt(2 N)
    return t, t * NELO_PER_T, err_t * NELO_PER_T


def llr(penta, nelo0, nelo1):
    n = sum(penta)
    t, _, _ = normalised(penta)
    if n == 0 or not math.isfinite(t):
        return 0.0
    t0, t1 = nelo0 / NELO_PER_T, nelo1 / NELO_PER_T
    return 2.0 * n * (t1 - t0) * (t - (t0 + t1) / 2.0)


def logistic_elo(w, d, l):
    """Elo and 95% error from game results (trinomial)."""
    n = w + d + l
    if n == 0:
        return 0.0, float("inf")
    s = (w + 0.5 * d) / n
    if s <= 0 or s >= 1:
        # All won or all lost: the logistic Elo is unbounded that way.
        return math.copysign(float("inf"), s - 0.5), float("inf")
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
    elo = -400 * math.log10(1 / s - 1)
    lo = s - 1.96 * math.sqrt(var / n)
    hi = s + 1.96 * math.sqrt(var / n)
    to_elo = lambda x: -400 * math.log10(1 / min(max(x, 1e-6), 1 - 1e-6) - 1)
    return elo, (to_elo(hi) - to_elo(lo)) / 2


PAIR_LINE = re.compile(r"^pair +(\d+): games \d+ W-D-L (\d+)-(\d+)-(\d+) penta \[([\d, ]+)\]")


def finished_pairs(lines):
    """The pairs a results.txt records, from its cumulative lines: each
    pair's index (from 0), its pentanomial slot and its W-D-L, as the
    change from the line before. Lines that are not pair results (the
    header, comments, a final summary) are skipped."""
    pairs = []
    last_penta, last_wdl = [0] * 5, [0, 0, 0]
    for line in lines:
        m = PAIR_LINE.match(line)
        if not m:
            continue
        wdl = [int(m.group(k)) for k in (2, 3, 4)]
        penta = [int(x) for x in m.group(5).split(",")]
        step = [a - b for a, b in zip(penta, last_penta)]
        if sorted(step) != [0, 0, 0, 0, 1] or any(a < b for a, b in zip(wdl, last_wdl)):
            raise ValueError(f"not one pair more than the line before: {line.strip()}")
        pairs.append((int(m.group(1)) - 1, step.index(1), [a - b for a, b in zip(wdl, last_wdl)]))
        last_penta, last_wdl = penta, wdl
    return pairs


def run_settings(header):
    """What a results.txt header says about the run, less the resume note."""
    return header.split(" # resumed")[0].strip()


def stops(value, lower, upper, fixed):
    """Whether an LLR ends the run: at either bound, unless --fixed."""
    return not fixed and (value >= upper or value <= lower)


def selftest():
    # Resuming: each cumulative line is one pair more than the last.
    lines = [
        "# A=a []; B=b []; tc=nodes:1000; ...",
        "pair    2: games 2 W-D-L 1-0-1 penta [0, 0, 1, 0, 0] Elo ...",
        "pair    1: games 4 W-D-L 3-0-1 penta [0, 0, 1, 0, 1] Elo ...",
        "# pair 3: an engine died at game start (x); pair not counted",
        "pair    4: games 6 W-D-L 3-1-2 penta [0, 1, 1, 0, 1] Elo ...",
        "SPRT nElo [0.0, 5.0] inconclusive: ...",
    ]
    assert finished_pairs(lines) == [(1, 2, [1, 0, 1]), (0, 4, [2, 0, 0]), (3, 1, [0, 1, 1])]
    try:
        finished_pairs(lines[:2] + ["pair    3: games 6 W-D-L 4-0-2 penta [0, 0, 2, 0, 1] Elo ..."])
        raise AssertionError("a jump of two pairs was accepted")
    except ValueError:
        pass
    assert run_settings("# A=a; tc=x # resumed after 3 pairs") == run_settings("# A=a; tc=x")

    # A pure coin flip between equal engines: t = 0, and the LLR of
    # [0, 5] is negative (evidence for H0).
    even = [10, 40, 100, 40, 10]
    t, nelo, _ = normalised(even)
    assert abs(t) < 1e-12 and abs(nelo) < 1e-9, (t, nelo)
    assert llr(even, 0, 5) < 0
    # A clearly better engine: positive nElo, LLR grows with N.
    better = [5, 30, 100, 50, 15]
    _, nelo_b, _ = normalised(better)
    assert nelo_b > 0
    assert llr([2 * c for c in better], 0, 5) > llr(better, 0, 5) > 0
    # Symmetry: swapping A and B flips the sign.
    _, nelo_r, _ = normalised(list(reversed(better)))
    assert abs(nelo_r + nelo_b) < 1e-9
    # Logistic Elo of 75% is about +191.
    elo, _ = logistic_elo(75, 0, 25)
    assert abs(elo - 190.85) < 0.1, elo
    assert logistic_elo(3, 0, 0)[0] == float("inf") and logistic_elo(0, 0, 3)[0] == -float("inf")
    # --fixed: a bound crossed ends an SPRT but not a fixed-length match.
    assert stops(3.0, -2.94, 2.94, False) and stops(-3.0, -2.94, 2.94, False)
    assert not stops(1.0, -2.94, 2.94, False)
    assert not stops(3.0, -2.94, 2.94, True) and not stops(-3.0, -2.94, 2.94, True)
    print("selftest ok")


def load_match(path):
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    import match  # noqa: E402  (match.py from ../shared/tools/match)
    return match


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("-a", "--engine-a", help="the new engine (command line)")
    ap.add_argument("-b", "--engine-b", help="the base engine (command line)")
    ap.add_argument("--opt-a", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--opt-b", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--tc", default="byoyomi:0+1000")
    ap.add_argument("--elo0", type=float, default=0.0, help="H0 bound, normalised Elo")
    ap.add_argument("--elo1", type=float, default=5.0, help="H1 bound, normalised Elo")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--max-games", type=int, default=2000)
    ap.add_argument("--openings", default=os.path.join(here, "../../shared/tools/match/openings.sfen"))
    ap.add_argument("--seed", type=int, default=1, help="opening order")
    ap.add_argument("--max-plies", type=int, default=320)
    ap.add_argument("--time-margin", type=int, default=1000)
    ap.add_argument("--nodes-timeout", type=float, default=120.0)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--match-py", default=os.path.join(here, "../../shared/tools/match/match.py"))
    ap.add_argument("--out", help="folder for results.txt")
    ap.add_argument("--resume", action="store_true",
                    help="go on with the run in --out (same settings), skipping its finished pairs")
    ap.add_argument("--fixed", action="store_true",
                    help="play all --max-games games; the LLR does not stop the run")
    args = ap.parse_args()
    if args.selftest:
        selftest()
        return 0
    if not args.engine_a or not args.engine_b:
        ap.error("-a and -b are required")
    match = load_match(args.match_py)
    openings = match.load_openings(args.openings)
    random.Random(args.seed).shuffle(openings)
    tc = match.TC(args.tc)
    game_args = SimpleNamespace(max_plies=args.max_plies, time_margin=args.time_margin,
                                nodes_timeout=args.nodes_timeout)
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    header = (f"# A={args.engine_a} {args.opt_a}; B={args.engine_b} {args.opt_b}; tc={args.tc}; "
              f"nElo bounds [{args.elo0}, {args.elo1}], alpha {args.alpha}, beta {args.beta}; "
              f"LLR bounds [{lower:.2f}, {upper:.2f}]")
    # Headers before --resume existed lack these; they are compared only
    # where the file has them.
    header_more = f"; openings seed {args.seed}, time margin {args.time_margin}"
    done_pairs = []
    out = None
    if args.resume and not args.out:
        ap.error("--resume needs --out")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "results.txt")
        if args.resume and os.path.exists(path):
            with open(path) as f:
                lines = f.readlines()
            headers = [l for l in lines if l.startswith("# A=")] or [header + header_more]
            expected = header + header_more if "; openings seed" in headers[0] else header
            if run_settings(headers[0]) != expected:
                sys.exit(f"--resume: {path} is another run:\n  {headers[0].strip()}\n  {expected}")
            if not args.fixed and any(l.startswith("SPRT ") and "inconclusive" not in l for l in lines):
                sys.exit(f"--resume: {path} ended with a verdict already (--fixed goes on past it)")
            try:
                done_pairs = finished_pairs(lines)
            except ValueError as e:
                sys.exit(f"--resume: {path}: {e}")
        elif os.path.exists(path) and os.path.getsize(path) > 0:
            sys.exit(f"{path} exists: use --resume to go on with it, or another --out")
        out = open(path, "a", buffering=1)

    def emit(line):
        print(line, flush=True)
        if out:
            out.write(line + "\n")

    name_a = os.path.basename(shlex.split(args.engine_a)[0]) + "-A"
    name_b = os.path.basename(shlex.split(args.engine_b)[0]) + "-B"
    emit(header + header_more + (f" # resumed after {len(done_pairs)} pairs" if done_pairs else ""))
    state = dict(penta=[0] * 5, wdl=[0, 0, 0], done=False, reasons={})
    for _, slot, wdl in done_pairs:
        state["penta"][slot] += 1
        state["wdl"] = [a + b for a, b in zip(state["wdl"], wdl)]
    skip = {i for i, _, _ in done_pairs}
    pairs = queue.Queue()
    for i in range(args.max_games // 2):
        if i not in skip:
            pairs.put(i)
    lock = threading.Lock()
    if done_pairs:
        value = llr(state["penta"], args.elo0, args.elo1)
        state["done"] = stops(value, lower, upper, args.fixed) or pairs.empty()

    def play_pair(engines, opening):
        """Scores of A in the two games of one opening."""
        scores = []
        for a_black in (True, False):
            eng = [engines[0], engines[1]] if a_black else [engines[1], engines[0]]
            g = match.play_game(eng, [tc, tc], opening, game_args, None)
            s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["result"]]
            s = s if a_black else 1.0 - s
            for e, mine in ((engines[0], s), (engines[1], 1 - s)):
                if e.alive():
                    try:
                        e.send("gameover " + ("draw" if mine == 0.5 else ("win" if mine == 1 else "lose")))
                    except match.EngineDied:
                        pass
            scores.append((s, g["reason"]))
        return scores

    def worker():
        engines = [None, None]
        while not state["done"]:
            try:
                i = pairs.get_nowait()
            except queue.Empty:
                return
            for k, (cmd, opts, name) in enumerate(((args.engine_a, args.opt_a, name_a),
                                                   (args.engine_b, args.opt_b, name_b))):
                if engines[k] is not None and not engines[k].alive():
                    engines[k].quit()
                    engines[k] = None
                if engines[k] is None:
                    engines[k] = match.Engine(cmd, name, opts)
                    engines[k].start()
            try:
                scores = play_pair(engines, openings[i % len(openings)])
            except match.EngineDied as ex:
                with lock:
                    emit(f"# pair {i + 1}: an engine died at game start ({ex}); pair not counted")
                for e in engines:
                    if e is not None:
                        e.quit()
                engines = [None, None]
                continue
            with lock:
                if state["done"]:
                    break
                total = sum(s for s, _ in scores)
                state["penta"][int(round(total * 2))] += 1
                for s, reason in scores:
                    state["wdl"][0 if s == 1 else (1 if s == 0.5 else 2)] += 1
                    key = reason.replace(name_a, "A").replace(name_b, "B")
                    state["reasons"][key] = state["reasons"].get(key, 0) + 1
                report(i)
        for e in engines:
            if e is not None:
                e.quit()

    def report(i):
        penta, (w, d, l) = state["penta"], state["wdl"]
        _, nelo, nerr = normalised(penta)
        elo, err = logistic_elo(w, d, l)
        value = llr(penta, args.elo0, args.elo1)
        emit(f"pair {i + 1:4d}: games {w + d + l} W-D-L {w}-{d}-{l} penta {penta} "
             f"Elo {elo:+.1f} +/- {err:.1f} nElo {nelo:+.1f} +/- {nerr:.1f} LLR {value:+.2f}")
        if stops(value, lower, upper, args.fixed):
            state["done"] = True

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.concurrency))]
    start = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    penta, (w, d, l) = state["penta"], state["wdl"]
    value = llr(penta, args.elo0, args.elo1)
    verdict = "H1 accepted" if value >= upper else ("H0 accepted" if value <= lower else "inconclusive")
    _, nelo, nerr = normalised(penta)
    elo, err = logistic_elo(w, d, l)
    emit("# reasons: " + ", ".join(f"{k}: {v}" for k, v in sorted(state["reasons"].items(), key=lambda x: -x[1])))
    emit(f"SPRT nElo [{args.elo0}, {args.elo1}] {verdict}: LLR {value:+.2f} [{lower:.2f}, {upper:.2f}], "
         f"games {w + d + l} (W-D-L {w}-{d}-{l}, penta {penta}), Elo {elo:+.1f} +/- {err:.1f}, "
         f"nElo {nelo:+.1f} +/- {nerr:.1f}, {time.time() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
