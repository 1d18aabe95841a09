#!/usr/bin/env python3
"""Any USI engine's `go mate` on a batch of tsume problems, for the README's comparisons.

Not part of the test suite (it needs the other engine). Used for KomoringHeights, built from its
source:

    python3 tests/usi_mate_batch.py ENGINE tests/data/tsume_classics.tsv 10 [NAME...]

sends `USI_Hash` 256 (Hayate's default) and `Threads` 1, then for each row (or only the rows
named) `position sfen ...` and `go mate <ms>`, and prints `name<TAB>result<TAB>plies<TAB>
nodes<TAB>seconds`, result being `mate`, `nomate`, `timeout` or whatever else the engine
answered after `checkmate`; nodes are the last `info ... nodes N` before the answer. One engine
process serves the whole batch, with `usinewgame` between problems. The seconds are the wall
time from `go mate` to the answer: an engine that answers at its limit with the best mate found
shows a time at or just over the limit.
"""

import subprocess
import sys
import time

NOT_A_MATE = {"nomate", "timeout", "notimplemented"}


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine closed its output before {prefix!r}")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines


def last_nodes(lines):
    for line in reversed(lines):
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words[:-1]:
            return words[words.index("nodes") + 1]
    return "-"


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: usi_mate_batch.py ENGINE FILE SECONDS [NAME...]")
    path, tsv, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    names = set(sys.argv[4:])
    engine = Engine(path)
    engine.send("usi")
    engine.until("usiok")
    engine.send("setoption name USI_Hash value 256")
    engine.send("setoption name Threads value 1")
    engine.send("isready")
    engine.until("readyok")
    solved = {}
    for row in open(tsv, encoding="utf-8"):
        if not row.strip() or row.startswith("#"):
            continue
        name, sfen = row.rstrip("\n").split("\t")[:2]
        if names and name not in names:
            continue
        engine.send("usinewgame")
        engine.send("isready")
        engine.until("readyok")
        engine.send("position sfen " + sfen.removeprefix("sfen "))
        start = time.time()
        engine.send(f"go mate {int(seconds * 1000)}")
        lines = engine.until("checkmate")
        elapsed = time.time() - start
        answer = lines[-1].split()[1:]
        if answer and answer[0] not in NOT_A_MATE:
            result, plies = "mate", len(answer)
        else:
            result, plies = (answer[0] if answer else "none"), 0
        print(f"{name}\t{result}\t{plies}\t{last_nodes(lines)}\t{elapsed:.2f}", flush=True)
        group = name.rstrip("0123456789h")
        solved.setdefault(group, [0, 0])
        solved[group][0] += result == "mate"
        solved[group][1] += 1
    engine.send("quit")
    for group, (mates, rows) in sorted(solved.items()):
        print(f"# {group}: {mates} of {rows} mate")


if __name__ == "__main__":
    main()
