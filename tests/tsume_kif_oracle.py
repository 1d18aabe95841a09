#!/usr/bin/env python3
"""`hayate tsume check --kif` read back by tsshogi, the record library ShogiHome is built on.

Not part of CI (it needs Node.js and tsshogi from the npm registry). Run it after changing the
KIF writer or the report's KIF:

    mkdir -p /tmp/tss && (cd /tmp/tss && npm install tsshogi)
    cargo build --release
    python3 tests/tsume_kif_oracle.py PROBLEMS.tsv [--nodes 500000] [--tsshogi /tmp/tss]

For each row (name<TAB>sfen) it runs `hayate tsume check --json --kif FILE.kifu` and has tsshogi
read FILE.kifu as a tree. Every line from the start to a leaf of that tree, as USI moves, must
be one that the JSON report speaks of: the main line (or the line within the proven bound, or
for 不詰 the first check with its refutation), and each alternative (余詰, 最終手余詰, 成生非限定,
打ち場所非限定, 迂回, 手順前後, 変同; with --verbose 早詰 too) as the main line up to its ply and its own line from there,
each ending in tsshogi's mate; the unsettled checks and drops as their lines; the other
refutations. Lines that never leave the main line are not variations, and one that is the
beginning of another is part of it in the tree. The script prints each row whose tree differs
and exits 1 if there is one.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HAYATE = "target/release/hayate"

# tsshogi's reading of a record: every root-to-leaf line, with how it ends.
WALK = r"""
const fs = require("fs");
const { importKIF, Move } = require(process.argv[3]);
const record = importKIF(fs.readFileSync(process.argv[2], "utf-8"));
if (record instanceof Error) { console.log(JSON.stringify({ error: record.message })); process.exit(0); }
const lines = [];
function walk(node, path) {
  for (let n = node; n; n = n.branch) {
    const move = n.move instanceof Move;
    const p = move ? path.concat([n.move.usi]) : path;
    if (n.next) walk(n.next, p);
    else lines.push({ moves: p, end: move ? null : n.move.type });
  }
}
if (record.first.next) walk(record.first.next, []);
console.log(JSON.stringify({ sfen: record.initialPosition.sfen, lines }));
"""

MATING = [
    "cooks",
    "last_move_alternatives",
    "promotion_choices",
    "drop_choices",
    "detours",
    "transpositions",
    "equal_variations",
]


def expected(report, verbose):
    """The lines (tuples of USI moves) the KIF of `report` must hold, and those of them that
    end in mate."""
    main = report["main_line"]
    if not main and report.get("length_at_most"):
        # The line within the proven bound.
        main = report["solver_line"]
    refuted = [[r["check"]] + ([r["refutation"]] if r.get("refutation") else [])
               for r in report.get("refutations", [])]
    if not main and report["verdict"] == "nomate" and refuted:
        main = refuted[0]
    lines = [tuple(main)] if main else []
    mates = set(lines) if report["verdict"] != "nomate" else set()
    for key in MATING + (["early_mates"] if verbose else []):
        for a in report.get(key, []):
            line = tuple(report["main_line"][: a["ply"] - 1] + a["line"])
            lines.append(line)
            mates.add(line)
    others = [tuple(l) for key in ("unsettled_checks", "unsettled_drops", "drops_proven_useless")
              for l in report.get(key, [])]
    if report["verdict"] == "nomate" and not report["main_line"]:
        others += [tuple(l) for l in refuted[1:]]
    for line in others:
        lines.append(line)
    # A line that never leaves the main line (or leaves it only past its end) is no variation.
    tmain = tuple(main)
    kept = []
    for line in lines:
        k = 0
        while k < min(len(line), len(tmain)) and line[k] == tmain[k]:
            k += 1
        if line == tmain or (k < len(line) and k < len(tmain)):
            kept.append(line)
    # The record is a tree: a line that is the beginning of another is part of it, not a leaf
    # of its own, and a line given twice is one.
    kept = set(kept)
    leaves = [l for l in kept if not any(len(o) > len(l) and o[: len(l)] == l for o in kept)]
    return leaves, mates


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("problems")
    ap.add_argument("--nodes", type=int, default=500000)
    ap.add_argument("--tsshogi", default="/tmp/tss")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    module = os.path.join(os.path.abspath(args.tsshogi), "node_modules", "tsshogi")
    work = tempfile.mkdtemp(prefix="tsume-kif-")
    walker = os.path.join(work, "walk.cjs")
    with open(walker, "w") as f:
        f.write(WALK)
    bad = 0
    rows = 0
    variations = 0
    for row in open(args.problems, encoding="utf-8"):
        cols = row.rstrip("\n").split("\t")
        if len(cols) < 2 or row.startswith("#"):
            continue
        name, sfen = cols[0], cols[1]
        kif = os.path.join(work, name + ".kifu")
        cmd = [HAYATE, "tsume", "check", "--nodes", str(args.nodes), "--json", "--kif", kif, sfen]
        if args.verbose:
            cmd.insert(3, "--verbose")
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{name}: hayate failed: {out.stderr.strip()}")
            bad += 1
            continue
        report = json.loads(out.stdout)
        want, mates = expected(report, args.verbose)
        read = json.loads(subprocess.run(["node", walker, kif, module], capture_output=True,
                                         text=True).stdout)
        rows += 1
        if "error" in read:
            print(f"{name}: tsshogi refused the KIF: {read['error']}")
            bad += 1
            continue
        got = [tuple(l["moves"]) for l in read["lines"]]
        problems = []
        if sorted(got) != sorted(want):
            problems.append(f"lines differ: tsshogi {sorted(got)} against {sorted(want)}")
        for l in read["lines"]:
            if tuple(l["moves"]) in mates and l["end"] != "mate":
                problems.append(f"{' '.join(l['moves'])} ends in {l['end']}, not mate")
        if read["sfen"].split(" ")[:3] != report["sfen"].split(" ")[:3]:
            problems.append(f"start {read['sfen']} against {report['sfen']}")
        if problems:
            bad += 1
            print(f"{name}: " + "; ".join(problems))
        variations += max(len(got) - 1, 0)
    print(f"{rows} records, {variations} variations read by tsshogi; {bad} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
