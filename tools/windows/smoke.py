#!/usr/bin/env python3
"""Smoke tests for a Windows gyoku.exe, run under wine (or natively).

Usage: smoke.py [--wine CMD] [--sjis] DIR

DIR holds gyoku.exe and test.nnue (any network gyoku reads); the engine is
started from another working directory, DIR/cwd, so that `EvalFile test.nnue`
must be found in the executable's folder. Every line sent ends in CRLF, as
Windows GUIs send them. With --sjis (wine running with the ANSI code page
932, e.g. LANG=ja_JP.UTF-8) an `EvalFile` name is also sent in Shift_JIS.

Prints one PASS/FAIL/SKIP line per check and exits 1 if any failed.
"""

import argparse
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time

# A 1-ply tsume: G*5b mates (the pawn on 5c guards the gold).
TSUME_1 = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
JAPANESE_NAME = "評価.nnue"

failures = 0


def report(status, name, detail):
    global failures
    if status == "FAIL":
        failures += 1
    print(f"{status:4} {name:26} {detail}", flush=True)


class Engine:
    def __init__(self, command, cwd):
        self.proc = subprocess.Popen(
            command,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        data = line if isinstance(line, bytes) else line.encode("utf-8")
        self.proc.stdin.write(data + b"\r\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix, seconds):
        """Lines up to and including the first starting with prefix."""
        seen = []
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no '{prefix}' in {seconds} s; got {seen[-5:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EOFError(f"engine exited before '{prefix}'; got {seen[-5:]}")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def exit_code(self, seconds):
        try:
            return self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


def info_strings(lines):
    return [l[len("info string "):] for l in lines if l.startswith("info string ")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", help="folder with gyoku.exe and test.nnue")
    parser.add_argument("--wine", default="wine", help="command prefix ('' to run natively)")
    parser.add_argument("--sjis", action="store_true", help="also send a Shift_JIS EvalFile name")
    args = parser.parse_args()

    folder = os.path.abspath(args.dir)
    exe = os.path.join(folder, "gyoku.exe")
    cwd = os.path.join(folder, "cwd")
    os.makedirs(cwd, exist_ok=True)
    shutil.copyfile(os.path.join(folder, "test.nnue"), os.path.join(folder, JAPANESE_NAME))
    command = shlex.split(args.wine) + [exe]

    e = Engine(command, cwd)
    try:
        started = time.monotonic()
        e.send("usi")
        lines = e.wait_for("usiok", 60)
        if any(l.startswith("id name gyoku") for l in lines):
            report("PASS", "usi", f"usiok {time.monotonic() - started:.1f} s after usi")
        else:
            report("FAIL", "usi", f"no 'id name gyoku' in {lines[:3]}")

        # The memory guard: refused unless the machine has over 87 GB.
        e.send("setoption name USI_Hash value 65536")
        e.send("setoption name USI_Hash value 16")
        e.send("isready")
        notes = info_strings(e.wait_for("readyok", 60))
        refused = [n for n in notes if "would take" in n]
        if refused:
            report("PASS", "physical-memory", refused[0].split("; ")[0])
        else:
            report("SKIP", "physical-memory", f"64 GB accepted (memory unknown or huge): {notes}")
        pages = [n for n in notes if n.startswith("USI_Hash 16 MB in")]
        if pages:
            report("PASS", "hash-pages", pages[0])
        else:
            report("FAIL", "hash-pages", f"no page report in {notes}")

        e.send("usinewgame")
        e.send("position startpos moves 7g7f 3c3d")
        e.send("go depth 6")
        best = e.wait_for("bestmove", 60)[-1]
        if best.split()[1] not in ("resign", "win"):
            report("PASS", "go-depth", best)
        else:
            report("FAIL", "go-depth", best)

        e.send(f"position sfen {TSUME_1}")
        e.send("go mate 5000")
        answer = e.wait_for("checkmate", 30)[-1]
        report("PASS" if answer == "checkmate G*5b" else "FAIL", "go-mate", answer)

        names = [("evalfile-exe-folder", b"test.nnue"), ("evalfile-utf8", JAPANESE_NAME.encode("utf-8"))]
        if args.sjis:
            names.append(("evalfile-shift-jis", JAPANESE_NAME.encode("cp932")))
        if args.wine:
            # An absolute Windows path with spaces; wine's Z: is the Unix root.
            spaced = os.path.join(folder, "nets dir")
            os.makedirs(spaced, exist_ok=True)
            shutil.copyfile(os.path.join(folder, "test.nnue"), os.path.join(spaced, "test net.nnue"))
            windows_path = "Z:" + os.path.join(spaced, "test net.nnue").replace("/", "\\")
            names.append(("evalfile-absolute-spaces", windows_path.encode("utf-8")))
        for check, name in names:
            e.send(b"setoption name EvalFile value " + name)
            e.send("isready")
            notes = info_strings(e.wait_for("readyok", 60))
            loaded = [n for n in notes if n.startswith("EvalFile ") and "network" in n]
            if loaded and not any(n.startswith("error") for n in notes):
                report("PASS", check, loaded[0])
            else:
                report("FAIL", check, f"{notes}")
        e.send("position startpos")
        e.send("go depth 4")
        best = e.wait_for("bestmove", 60)[-1]
        report("PASS", "go-with-evalfile", best)
        e.send("setoption name EvalFile value <empty>")

        e.send("quit")
        code = e.exit_code(20)
        report("PASS" if code == 0 else "FAIL", "quit", f"exit code {code}")
    except (TimeoutError, EOFError) as err:
        report("FAIL", "session", str(err))
        e.exit_code(0)

    # A GUI that closes without `quit`: end of input mid-search.
    e = Engine(command, cwd)
    try:
        e.send("usi")
        e.wait_for("usiok", 60)
        e.send("setoption name USI_Hash value 16")
        e.send("isready")
        e.wait_for("readyok", 60)
        e.send("position startpos")
        e.send("go infinite")
        e.wait_for("info depth", 30)
        e.proc.stdin.close()
        closed = time.monotonic()
        code = e.exit_code(20)
        took = time.monotonic() - closed
        report("PASS" if code == 0 else "FAIL", "stdin-closed", f"exit code {code}, {took:.1f} s after end of input")
    except (TimeoutError, EOFError) as err:
        report("FAIL", "stdin-closed", str(err))
        e.exit_code(0)

    print(f"smoke: {'0 failed' if failures == 0 else f'{failures} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
