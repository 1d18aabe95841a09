#!/usr/bin/env python3
"""cshogi's df-pn on a batch of tsume problems, for the side-by-side table in the README.

Not part of the test suite (it needs cshogi, which the peers' install script puts in a venv):

    python tests/cshogi_mate_batch.py tests/data/tsume_classics.tsv 10

prints `name<TAB>result<TAB>plies<TAB>seconds<TAB>nodes` per row, result being `mate`,
`nomate` (cshogi's search returned no mate) or `timeout`, and a summary per set.

Each problem runs in a process of its own, killed a second after the limit: cshogi's
`DfPn.stop()` called from a timer thread does not stop a search, which holds the interpreter.
A mate counts as solved within the limit when cshogi's own clock says so, so the start-up of
the process is not charged to it.
"""

import subprocess
import sys
import time


def solve_one(sfen):
    import cshogi

    board = cshogi.Board(sfen)
    dfpn = cshogi.DfPn()
    dfpn.set_max_search_node(2**31 - 1)
    dfpn.set_max_depth(2000)
    start = time.time()
    found = dfpn.search(board)
    seconds = time.time() - start
    plies = len(dfpn.get_pv(board)) if found else 0
    print(f"{'mate' if found else 'nomate'}\t{plies}\t{seconds:.2f}\t{dfpn.searched_node}")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        solve_one(sys.argv[2])
        return
    if len(sys.argv) != 3:
        sys.exit("usage: cshogi_mate_batch.py FILE.tsv SECONDS")
    path, limit = sys.argv[1], float(sys.argv[2])
    solved, total = {}, {}
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        name, sfen = line.rstrip("\n").split("\t")[:2]
        try:
            out = subprocess.run(
                [sys.executable, __file__, "--one", sfen],
                capture_output=True,
                text=True,
                timeout=limit + 1,
            ).stdout.strip()
        except subprocess.TimeoutExpired:
            out = ""
        fields = out.split("\t") if out else ["timeout", "0", f"{limit + 1:.2f}", "-"]
        if fields[0] == "mate" and float(fields[2]) > limit:
            fields[0] = "timeout"
        print(name + "\t" + "\t".join(fields), flush=True)
        group = name.rstrip("0123456789h") or name
        total[group] = total.get(group, 0) + 1
        solved[group] = solved.get(group, 0) + (fields[0] == "mate")
    for group in sorted(total):
        print(f"# {group}: {solved[group]} of {total[group]} within {limit:g} s")


if __name__ == "__main__":
    main()
