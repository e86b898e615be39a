#!/usr/bin/env python3
"""Soak test: many games of gyoku against itself and fairy-stockfish,
cycling through the time controls GUIs and runners use, to show that
nothing goes wrong over a long run and that memory does not creep.

Game i uses, in turn (all cycles are independent, so every combination
comes up): time control i % 8 of
    byoyomi 100 ms, 300 ms, 1 s; 10 s + 1 s byoyomi; 5 s + 0.2 s Fischer;
    10 s sudden death; movetime 300 ms; 20000 nodes,
the opponent (gyoku, or fairy-stockfish when installed) by i % 3, Threads=2
for gyoku in every third game, the opening book in half of them, a handicap start (lance, bishop, rook,
two pieces) in every fifth game and an even opening otherwise, and
MaxMovesToDraw=256 (with the runner's limit at 256) in every other game.
Two games run at once on 2 cores: deliberately oversubscribed.

Per game it records the result and reason, every move's time against what
the clock allowed (the largest overshoot), gyoku's resident memory (RSS)
when the game starts and ends, and every `info string error` gyoku printed.
The summary gives losses on time, illegal moves, crashes or hangs,
protocol errors, the largest overshoot per time control and the RSS growth
per 100 games of each gyoku process.

Pondering: in half the games (i % 4 in {0, 3}) gyoku runs with USI_Ponder
on and is driven as a GUI drives a pondering engine (match.py, which plays
the games, has none): after `bestmove M ponder P` it gets `position ... M P`
and `go ponder` with the clocks as they stand after M; when the opponent
plays P it gets `ponderhit` and its time counts from then, otherwise `stop`
(the stale bestmove is swallowed) and a normal `go`. The summary counts
ponder hits and misses.

usage: tools/soak.py GYOKU [--games 1000] [--first 1] [--concurrency 2] [--out DIR]
       tools/soak.py - --summarize DIR/results.txt [MORE/results.txt ...]
           [--fsf /usr/games/fairy-stockfish] [--seed 1]
Needs cshogi (pip) and ../shared/tools/match/match.py.
"""
import argparse
import collections
import os
import queue
import random
import re
import sys
import threading
import time
from types import SimpleNamespace

TIME_CONTROLS = ["byoyomi:0+100", "byoyomi:0+300", "byoyomi:0+1000", "byoyomi:10000+1000",
                 "inc:5000+200", "byoyomi:10000+0", "movetime:300", "nodes:20000"]
HANDICAPS = [
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",  # lance
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",    # bishop
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",    # rook
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",      # two pieces
]


def rss_kb(engine):
    try:
        with open(f"/proc/{engine.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, AttributeError):
        pass
    return None


class PonderingEngine:
    """Wraps a match.Engine for one game and ponders on the expected reply
    between moves, as a GUI does. `go` keeps match.Engine.go's signature, so
    match.play_game drives it unchanged; after a hit, the elapsed time counts
    from `ponderhit`."""

    def __init__(self, match, engine, tc, colour, counts):
        self.match, self.e, self.tc, self.colour, self.counts = match, engine, tc, colour, counts
        self.pondering = None  # the position command we ponder on

    def __getattr__(self, name):
        return getattr(self.e, name)

    def new_game(self):
        self.cancel()
        self.e.new_game()

    def cancel(self):
        """`stop` a ponder search and swallow its bestmove."""
        if self.pondering is not None:
            self.pondering = None
            self.e.send("stop")
            self.e.wait_for("bestmove", 10.0)

    def go(self, position_cmd, go_cmd, timeout):
        if self.pondering is not None and self.pondering == position_cmd:
            self.pondering = None
            self.counts["ponderhit"] += 1
            self.e.send("ponderhit")
        else:
            if self.pondering is not None:
                self.counts["pondermiss"] += 1
            self.cancel()
            self.e.send(position_cmd)
            self.e.send(go_cmd)
        mv, ponder, elapsed, score = self.wait_bestmove(time.monotonic(), timeout)
        if mv is not None and ponder and mv not in ("resign", "win"):
            self.start_ponder(position_cmd, go_cmd, mv, ponder, elapsed)
        return mv, elapsed, score

    def wait_bestmove(self, t0, timeout):
        deadline = t0 + timeout
        score = None
        while True:
            ts, line = self.e.readline(deadline)
            if line is None:
                return None, None, (time.monotonic() - t0) * 1000.0, score
            tok = line.split()
            if tok[:1] == ["info"] and "score" in tok:
                i = tok.index("score")
                score = " ".join(tok[i + 1:i + 3])
            elif tok[:1] == ["bestmove"]:
                ponder = tok[3] if len(tok) > 3 and tok[2] == "ponder" else None
                return (tok[1] if len(tok) > 1 else "(none)"), ponder, (ts - t0) * 1000.0, score

    def start_ponder(self, position_cmd, go_cmd, mv, ponder, elapsed):
        sep = " " if " moves " in position_cmd else " moves "
        self.pondering = f"{position_cmd}{sep}{mv} {ponder}"
        tok = go_cmd.split()
        key = ("btime", "wtime")[self.colour]
        if key in tok:
            # Our clock after this move, as the GUI sends it with `go ponder`.
            i = tok.index(key)
            tok[i + 1] = str(int(self.match.charge(self.tc, int(tok[i + 1]), elapsed)))
        self.e.send(self.pondering)
        self.e.send("go ponder " + " ".join(tok[1:]))


class Log:
    """Collects one game's engine I/O (for `info string error` lines)."""

    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.append(text)


def overshoots(match, tc, times, first_side, mover):
    """Per move of colour `mover`: elapsed - allowed (ms), replaying each
    side's clock (the runner measures from `go` to `bestmove`)."""
    clocks = [float(tc.main), float(tc.main)]
    out = []
    side = first_side
    for elapsed in times:
        allowed = match.allowed_ms(tc, clocks[side])
        if allowed is not None and side == mover:
            out.append(elapsed - allowed)
        clocks[side] = match.charge(tc, clocks[side], elapsed)
        side ^= 1
    return out


GAME_LINE = re.compile(
    r"game +(\d+) tc=(\S+) +vs=(\S+) threads=(\d+)(?: hash=(\d+))? limit=\S+ ponder=(\S+) start=\S+ (\S+) "
    r"\[(.*)\] plies=\d+ max_over=(-?\d+)ms rss=(\S+)->(\S+)kB errors=(\d+)")


def summarize(paths):
    """The summary of one or more results.txt files (chunks of one soak,
    or a soak that was stopped before it printed its own)."""
    games = 0
    results = collections.Counter()
    counts = collections.Counter()
    worst = {}
    rss = collections.defaultdict(list)  # threads -> [(game, rss_end_kb)]
    for path in paths:
        with open(path) as f:
            for line in f:
                m = GAME_LINE.match(line)
                if not m:
                    continue
                n, tc, vs, threads, hash_mb, ponder, result, reason, over, r0, r1, errors = m.groups()
                games += 1
                results[result] += 1
                ours = "gyoku" in reason or "died" in reason
                counts["time_losses"] += ours and "on time" in reason
                counts["illegal"] += ours and "illegal" in reason
                counts["crashes"] += ours and ("crash" in reason or "died" in reason)
                counts["errors"] += int(errors)
                counts["ponder_games"] += ponder == "on"
                counts["threads2_games"] += threads == "2"
                counts["vs_fsf"] += vs == "fsf"
                worst[tc] = max(worst.get(tc, -10**9), int(over))
                if r1 != "None":
                    rss[(threads, hash_mb or "64")].append((int(n), int(r1)))
    print(f"SUMMARY games={games} results={dict(results)} gyoku: time_losses={counts['time_losses']} "
          f"illegal={counts['illegal']} crashes_or_hangs={counts['crashes']} "
          f"info_string_errors={counts['errors']} (ponder on in {counts['ponder_games']}, "
          f"Threads=2 in {counts['threads2_games']}, vs fairy-stockfish in {counts['vs_fsf']})")
    for spec in TIME_CONTROLS:
        if spec in worst:
            print(f"  largest elapsed - allowed {spec}: {worst[spec]:+d} ms"
                  f"{' (never over)' if worst[spec] <= 0 else ''}")
    for (threads, hash_mb), series in sorted(rss.items()):
        series.sort()
        (g0, r0), (g1, r1) = series[0], series[-1]
        print(f"  RSS at game end, Threads={threads} USI_Hash={hash_mb}: game {g0} {r0} kB, game {g1} {r1} kB, "
              f"largest {max(r for _, r in series)} kB over {len(series)} games")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gyoku")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--first", type=int, default=1,
                    help="number of the first game (to resume a soak in chunks: the cycles follow the number)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-margin", type=int, default=1000)
    ap.add_argument("--openings", default=os.path.join(here, "../../shared/tools/match/openings.sfen"))
    ap.add_argument("--match-py", default=os.path.join(here, "../../shared/tools/match/match.py"))
    ap.add_argument("--out", help="folder for results.txt")
    ap.add_argument("--summarize", nargs="+", metavar="RESULTS",
                    help="only print the summary of these results.txt files (no games)")
    args = ap.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return 0
    sys.path.insert(0, os.path.dirname(os.path.abspath(args.match_py)))
    import match  # noqa: E402

    openings = match.load_openings(args.openings)
    random.Random(args.seed).shuffle(openings)
    have_fsf = os.path.exists(args.fsf)
    out = None
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        out = open(os.path.join(args.out, "results.txt"), "a", buffering=1)
    lock = threading.Lock()

    def emit(line):
        with lock:
            print(line, flush=True)
            if out:
                out.write(line + "\n")

    jobs = queue.Queue()
    for i in range(args.first - 1, args.first - 1 + args.games):
        jobs.put(i)
    stats = dict(games=0, time_losses=0, illegal=0, crashes=0, errors=0, results=collections.Counter(),
                 ponder=collections.Counter())
    worst = {}  # time control -> gyoku's largest (elapsed - allowed), ms
    rss_series = collections.defaultdict(list)  # worker -> [(game, rss_kb)]

    def worker(wid):
        engines = {}
        while True:
            try:
                i = jobs.get_nowait()
            except queue.Empty:
                break
            tc = match.TC(TIME_CONTROLS[i % len(TIME_CONTROLS)])
            versus_fsf = have_fsf and i % 3 == 2
            threads = 2 if i % 3 == 1 else 1
            limit = i % 2 == 0
            start = HANDICAPS[(i // 5) % len(HANDICAPS)] if i % 5 == 4 else openings[i % len(openings)]
            book = "true" if i % 4 < 2 else "false"
            ponder = i % 4 in (0, 3)
            hash_mb = 64 if (i // 7) % 2 == 0 else 32
            opts = [f"Threads={threads}", f"USI_Hash={hash_mb}", f"USI_OwnBook={book}",
                    f"MaxMovesToDraw={256 if limit else 0}", f"USI_Ponder={'true' if ponder else 'false'}"]
            # One gyoku process per role for the whole soak: its options
            # change between games (after gameover, then isready), as a GUI
            # changes them.
            key_a = ("gyoku-a",)
            key_b = ("fsf",) if versus_fsf else ("gyoku-b",)
            log = Log()
            for key in (key_a, key_b):
                e = engines.get(key)
                if e is None or not e.alive():
                    if e is not None:
                        e.quit()
                    if key[0] == "fsf":
                        e = match.Engine(args.fsf, "fsf", ["Threads=1", "Hash=64"])
                    else:
                        e = match.Engine(args.gyoku, key[0], opts)
                    e.start()
                    engines[key] = e
                elif key[0] != "fsf":
                    for o in opts:
                        name, _, value = o.partition("=")
                        e.send(f"setoption name {name} value {value}")
            a, b = engines[key_a], engines[key_b]
            a.log = log
            b.log = log if not versus_fsf else None
            rss_start = rss_kb(a)
            a_black = i % 2 == 0
            eng = [a, b] if a_black else [b, a]
            if ponder:
                eng = [e if e is b and versus_fsf else PonderingEngine(match, e, tc, c, stats["ponder"])
                       for c, e in enumerate(eng)]
            game_args = SimpleNamespace(max_plies=256 if limit else 320, time_margin=args.time_margin,
                                        nodes_timeout=60.0)
            t0 = time.time()
            try:
                g = match.play_game(eng, [tc, tc], start, game_args, log)
            except match.EngineDied as ex:
                g = dict(result="?", reason=f"died at start: {ex}", times=[], notes=[str(ex)], plies=0)
            for colour, e in enumerate(eng):
                if e is b and versus_fsf or not e.alive():
                    continue
                try:
                    if isinstance(e, PonderingEngine):
                        e.cancel()
                    mine = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
                    mine = mine if colour == 0 else 1.0 - mine
                    e.send("gameover " + {1.0: "win", 0.0: "lose"}.get(mine, "draw"))
                except match.EngineDied as ex:
                    g["reason"] += f"; gyoku died after the game: {ex}"
            rss_end = rss_kb(a)
            first_side = 0 if start.split()[1] == "b" else 1
            # gyoku-a's moves only (the other side may be another engine).
            over = overshoots(match, tc, g["times"], first_side, 0 if a_black else 1)
            gyoku_errors = [l for l in log.lines if "> info string error" in l]
            reason = g["reason"]
            with lock:
                stats["games"] += 1
                stats["results"][g["result"]] += 1
                # Reasons name the engine at fault: count gyoku's own only.
                ours = "gyoku" in reason or "died" in reason
                stats["time_losses"] += ours and "on time" in reason
                stats["illegal"] += ours and "illegal" in reason
                stats["crashes"] += ours and ("crash" in reason or "died" in reason)
                stats["errors"] += len(gyoku_errors)
                if over:
                    worst[tc.spec] = max(worst.get(tc.spec, -1e18), max(over))
                if rss_end:
                    rss_series[(wid, threads, hash_mb)].append((stats["games"], rss_end))
            emit(f"game {i + 1:4d} tc={tc.spec:<18} vs={'fsf' if versus_fsf else 'gyoku'} "
                 f"threads={threads} hash={hash_mb} limit={'256' if limit else '-'} ponder={'on' if ponder else 'off'} "
                 f"start={'handicap' if i % 5 == 4 else 'even'} {g['result']} [{reason}] "
                 f"plies={g['plies']} max_over={max(over) if over else 0:.0f}ms "
                 f"rss={rss_start}->{rss_end}kB errors={len(gyoku_errors)} t={time.time() - t0:.0f}s")
            for line in gyoku_errors[:3]:
                emit(f"   {line.strip()}")
            for note in g.get("notes", []):
                emit(f"   note: {note}")
            if not (a.alive() and b.alive()):
                for e in engines.values():
                    e.quit()
                engines = {}
        for e in engines.values():
            e.quit()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    emit(f"SUMMARY games={stats['games']} results={dict(stats['results'])} gyoku: time_losses={stats['time_losses']} "
         f"illegal={stats['illegal']} crashes_or_hangs={stats['crashes']} info_string_errors={stats['errors']} "
         f"ponderhit={stats['ponder']['ponderhit']} pondermiss={stats['ponder']['pondermiss']}")
    for spec in TIME_CONTROLS:
        if spec in worst:
            emit(f"  largest elapsed - allowed {spec}: {worst[spec]:+.0f} ms"
                 f"{' (never over)' if worst[spec] <= 0 else ''}")
    for key, series in sorted(rss_series.items(), key=lambda kv: str(kv[0])):
        if len(series) >= 2:
            (g0, r0), (g1, r1) = series[0], series[-1]
            per100 = (r1 - r0) * 100.0 / max(1, g1 - g0)
            emit(f"  RSS worker {key[0]} Threads={key[1]} USI_Hash={key[2]}: {r0} -> {r1} kB over games "
                 f"{g0}..{g1} ({per100:+.0f} kB per 100 games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
