#!/usr/bin/env python3
"""Writes an SPSA run's current values into src/search/params.rs.

Reads the values after the run's last committed update, rounds each
tuned row to the nearest integer, prints the old and new values, and with
--write replaces the value column of those rows in the table (range and
step stay). The result still has to pass an
SPRT before it lands (README, "Tuning search constants: SPSA").

    tools/spsa/apply.py                      # show what would change
    tools/spsa/apply.py --write              # edit params.rs
    tools/spsa/apply.py --run /tmp/gyoku-spsa/run --write
"""

import argparse
import json
import re
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PARAMS_RS = ROOT / "src" / "search" / "params.rs"
# One row of the `search_params!` table: accessor, "Name", value, min, max, step;
ROW = re.compile(
    r'^(?P<head>\s*\w+,\s*"(?P<name>\w+)",\s*)(?P<value>-?\d+)'
    r"(?P<tail>,\s*(?P<min>-?\d+),\s*(?P<max>-?\d+),\s*-?\d+;)\s*$"
)


def load_theta(run_dir: Path) -> dict[str, float]:
    """The values after the run's last committed update.

    The ledger has them as each update commits; `current.json` is only
    rewritten when a run starts or ends, so it is the fallback."""
    ledger = run_dir / "spsa" / "ledger.sqlite3"
    if ledger.exists():
        try:
            con = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
            row = con.execute(
                "select update_idx, theta_final_json from updates "
                "where state = 'COMMITTED' and theta_final_json is not null "
                "order by update_idx desc limit 1"
            ).fetchone()
        except sqlite3.Error as err:
            sys.exit(f"cannot read {ledger}: {err}")
        if row is not None:
            print(f"{ledger}: after update {row[0]}")
            return as_theta(json.loads(row[1]))
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


def apply(text: str, theta: dict[str, float]) -> tuple[str, list[tuple[str, int, float, int]]]:
    """Returns the new table text and (name, old, tuned, new) per tuned row."""
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
            new = min(max(round(tuned), int(m["min"])), int(m["max"]))
            changes.append((name, old, tuned, new))
            body = f"{m['head']}{new}{m['tail']}"
            line = body + ("\n" if line.endswith("\n") else "")
        lines.append(line)
    missing = sorted(set(theta) - seen)
    if missing:
        sys.exit(f"rows not in {PARAMS_RS.name}: {', '.join(missing)}")
    return "".join(lines), changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, default=Path("/tmp/gyoku-spsa/run"), help="shogiarena run directory")
    parser.add_argument("--write", action="store_true", help="edit src/search/params.rs")
    args = parser.parse_args()

    theta = load_theta(args.run)
    text = PARAMS_RS.read_text()
    new_text, changes = apply(text, theta)
    print(f"{'row':<22}{'now':>8}{'tuned':>11}{'new':>8}")
    for name, old, tuned, new in changes:
        mark = "" if new == old else "  *"
        print(f"{name:<22}{old:>8}{tuned:>11.2f}{new:>8}{mark}")
    if args.write:
        PARAMS_RS.write_text(new_text)
        print(f"wrote {PARAMS_RS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
