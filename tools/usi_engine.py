"""A USI engine driven over pipes, for the Python tools in this folder.

`search` returns the last `info score` of a `go nodes N` (bound-only
lines skipped, centipawns clamped, mates as +-MATE_SCORE, gyoku's
EVAL_LIMIT) and the best move.
"""
import subprocess

MATE_SCORE = 20000


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(
            command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.wait_for("usiok")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return line

    def search(self, sfen, nodes):
        """(last reported score or None, best move) of `go nodes`."""
        self.send("position sfen " + sfen)
        self.send(f"go nodes {nodes}")
        score = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            words = line.split()
            if words[:1] == ["bestmove"]:
                return score, words[1] if len(words) > 1 else "-"
            if words[:1] != ["info"] or "score" not in words:
                continue
            if "lowerbound" in words or "upperbound" in words:
                continue
            at = words.index("score")
            kind, value = words[at + 1], int(words[at + 2])
            if kind == "cp":
                score = max(-MATE_SCORE, min(MATE_SCORE, value))
            elif kind == "mate":
                score = MATE_SCORE if value > 0 else -MATE_SCORE

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)
