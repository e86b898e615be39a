#!/usr/bin/env python3
"""Writes an SPSA run's current values into src/search/params.rs.

Reads the values after the run's last committed update, rounds each
tuned row to the nearest integer, prints the old and new values, and with
--write replaces the value column of those rows in the table (range and
step stay). The result still has to pass an
SPRT before it lands (README, "Tuning search constants: SPSA").

Beside each row it prints how far the run moved it, in SPSA steps
(`c_end`), and a t statistic: the mean of the row's per-update moves over
their standard error. A row the games do not care about still wanders,
but its moves average to zero (each update's sign for the row is a coin
independent of the result), so |t| stays near 1; a real gradient grows
|t| with the square root of the updates. With many rows a few reach 2 by
chance. --min-t writes only the rows at or above a threshold and keeps
the table's values for the others.

    tools/spsa/apply.py                      # show what would change
    tools/spsa/apply.py --write              # edit params.rs
    tools/spsa/apply.py --min-t 2 --write    # only rows with |t| >= 2
    tools/spsa/apply.py --run /tmp/gyoku-spsa/run --write
    tools/spsa/apply.py --selftest
"""

import argparse
import json
import math
import re
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
PARAMS_RS = ROOT / "src" / "search" / "params.rs"
# One row of the `search_params!` table: accessor, "Name", value, min, max, step;
ROW = re.compile(
    r'^(?P<head>\s*\w+,\s*"(?P<name>\w+)",\s*)(?P<value>-?\d+)'
    r"(?P<tail>,\s*(?P<min>-?\d+),\s*(?P<max>-?\d+),\s*-?\d+;)\s*$"
)


class Ledger(NamedTuple):
    """What the run's ledger (`spsa/ledger.sqlite3`) says, read once."""

    path: Path
    # Each row's SPSA step (`c_end`).
    steps: dict[str, float]
    # (update index, values before, values after) per committed update, in order.
    updates: list[tuple[int, dict[str, float], dict[str, float]]]


def read_ledger(run_dir: Path) -> Ledger | None:
    """The run's ledger, or None where the run has none."""
    path = run_dir / "spsa" / "ledger.sqlite3"
    if not path.exists():
        return None
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        steps = {
            name: float(json.loads(schedule)["c_end"])
            for name, schedule in con.execute("select option_name, schedule_json from parameters")
        }
        rows = con.execute(
            "select update_idx, theta_before_json, theta_final_json from updates "
            "where state = 'COMMITTED' and theta_final_json is not null order by update_idx"
        ).fetchall()
        updates = [(idx, as_theta(json.loads(before)), as_theta(json.loads(final))) for idx, before, final in rows]
    except (sqlite3.Error, json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        sys.exit(f"cannot read {path}: {err}")
    return Ledger(path, steps, updates)


def load_theta(run_dir: Path, ledger: Ledger | None) -> dict[str, float]:
    """The values after the run's last committed update.

    The ledger has them as each update commits; `current.json` is only
    rewritten when a run starts or ends, so it is the fallback."""
    if ledger is not None and ledger.updates:
        idx, _, final = ledger.updates[-1]
        print(f"{ledger.path}: after update {idx}")
        return final
    path = run_dir / "spsa" / "current.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        sys.exit(f"cannot read {path}: {err}")
    theta = data.get("theta")
    if not isinstance(theta, dict) or not theta:
        sys.exit(f"{path} has no theta")
    print(f"{path}: update {data.get('update_idx')}, pairs {data.get('pair_index_end')}")
    return as_theta(theta)


def as_theta(values: dict) -> dict[str, float]:
    return {str(k): float(v) for k, v in values.items()}


def load_drift(ledger: Ledger | None) -> dict[str, tuple[float, float]]:
    """Per row: its total move in SPSA steps over the committed updates and
    the t statistic of its per-update moves (empty without a ledger)."""
    if ledger is None:
        return {}
    moves: dict[str, list[float]] = {}
    for _, before, final in ledger.updates:
        for name, value in final.items():
            moves.setdefault(name, []).append(value - before.get(name, value))
    return {name: (sum(m) / ledger.steps.get(name, 1.0), t_statistic(m)) for name, m in moves.items()}


def t_statistic(moves: list[float]) -> float:
    """Mean over standard error; 0 for fewer than two moves or no spread."""
    n = len(moves)
    if n < 2:
        return 0.0
    mean = sum(moves) / n
    var = sum((m - mean) ** 2 for m in moves) / (n - 1)
    return mean / math.sqrt(var / n) if var > 0 else 0.0


def apply(
    text: str, theta: dict[str, float], keep: frozenset[str] = frozenset()
) -> tuple[str, list[tuple[str, int, float, int]]]:
    """Returns the new table text and (name, old, tuned, new) per tuned row;
    the rows in `keep` are listed but keep their values."""
    changes = []
    seen = set()
    lines = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        m = ROW.match(body)
        if m and m["name"] in theta:
            name = m["name"]
            seen.add(name)
            old = int(m["value"])
            tuned = theta[name]
            # Clamp into the row's range: SPSA keeps inside it, but a hand-edited
            # run directory need not.
            new = old if name in keep else min(max(round(tuned), int(m["min"])), int(m["max"]))
            changes.append((name, old, tuned, new))
            body = f"{m['head']}{new}{m['tail']}"
            line = body + ("\n" if line.endswith("\n") else "")
        lines.append(line)
    missing = sorted(set(theta) - seen)
    if missing:
        sys.exit(f"rows not in {PARAMS_RS.name}: {', '.join(missing)}")
    return "".join(lines), changes


def report(run_dir: Path, text: str, min_t: float) -> tuple[str, list[str]]:
    """The new table text and the lines that show it, row by row."""
    ledger = read_ledger(run_dir)
    theta = load_theta(run_dir, ledger)
    drift = load_drift(ledger)
    if min_t > 0 and not drift:
        sys.exit("--min-t needs the run's ledger (spsa/ledger.sqlite3)")
    keep = frozenset(n for n in theta if abs(drift.get(n, (0.0, 0.0))[1]) < min_t) if min_t > 0 else frozenset()
    new_text, changes = apply(text, theta, keep)
    lines = [f"{'row':<22}{'now':>8}{'tuned':>11}{'new':>8}{'steps':>8}{'t':>7}"]
    for name, old, tuned, new in changes:
        steps, t = drift.get(name, (math.nan, math.nan))
        mark = "  kept" if name in keep else "" if new == old else "  *"
        lines.append(f"{name:<22}{old:>8}{tuned:>11.2f}{new:>8}{steps:>+8.2f}{t:>+7.2f}{mark}")
    return new_text, lines


def selftest() -> None:
    """A made-up ledger: row A climbs one unit an update with a little
    noise, row B alternates; only A passes --min-t 2."""
    table = (
        '    a, "RowA", 10, 0, 50, 2;\n'
        '    b, "RowB", 20, 0, 50, 4;\n'
        '    c, "RowC", 30, 0, 50, 1;\n'
    )
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp)
        (run / "spsa").mkdir()
        con = sqlite3.connect(run / "spsa" / "ledger.sqlite3")
        con.execute("create table parameters (option_name text, schedule_json text)")
        con.execute("create table updates (update_idx int, state text, theta_before_json text, theta_final_json text)")
        con.executemany(
            "insert into parameters values (?, ?)",
            [("RowA", '{"c_end":2.0,"r_end":0.01}'), ("RowB", '{"c_end":4.0,"r_end":0.01}')],
        )
        a, b = 10.0, 20.0
        for k in range(1, 21):
            before = {"RowA": a, "RowB": b}
            a += 1.0 + (0.5 if k % 2 else -0.5)
            b += 1.0 if k % 2 else -1.0
            state = "COMMITTED" if k < 20 else "GAMES_RUNNING"
            final = {"RowA": a, "RowB": b} if k < 20 else None
            con.execute(
                "insert into updates values (?, ?, ?, ?)",
                (k, state, json.dumps(before), json.dumps(final) if final else None),
            )
        con.commit()
        con.close()

        drift = load_drift(read_ledger(run))
        # RowA moved 19 + 0.5 (ten +1.5, nine +0.5) over its step of 2.
        assert abs(drift["RowA"][0] - 19.5 / 2) < 1e-9, drift
        assert drift["RowA"][1] > 5, drift
        # RowB: ten +1, nine -1: total +1 over its step of 4; t small.
        assert abs(drift["RowB"][0] - 0.25) < 1e-9, drift
        assert abs(drift["RowB"][1]) < 1, drift
        assert t_statistic([1.0]) == 0.0 and t_statistic([2.0, 2.0]) == 0.0

        text, lines = report(run, table, 0.0)
        assert '"RowA", 30,' in text and '"RowB", 21,' in text and '"RowC", 30,' in text, text
        text, lines = report(run, table, 2.0)
        assert '"RowA", 30,' in text and '"RowB", 20,' in text, text
        assert lines[2].endswith("kept") and not lines[1].endswith("kept"), lines
    print("selftest ok")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, default=Path("/tmp/gyoku-spsa/run"), help="shogiarena run directory")
    parser.add_argument("--write", action="store_true", help="edit src/search/params.rs")
    parser.add_argument(
        "--min-t", type=float, default=0.0, metavar="T", help="write only rows whose |t| is at least T"
    )
    parser.add_argument("--selftest", action="store_true", help="check this script on a made-up ledger")
    args = parser.parse_args()
    if args.selftest:
        selftest()
        return

    new_text, lines = report(args.run, PARAMS_RS.read_text(), args.min_t)
    print("\n".join(lines))
    if args.write:
        PARAMS_RS.write_text(new_text)
        print(f"wrote {PARAMS_RS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
