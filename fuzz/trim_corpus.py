#!/usr/bin/env python3
"""Keeps at most N files (default 200) of a fuzz corpus: those that together cover the most
coverage edges, chosen greedily (each next file adds the most edges not yet covered). Run it
after `cargo +nightly fuzz cmin TARGET`, which keeps every edge but may keep many files.

    fuzz/trim_corpus.py TARGET [N]
"""
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
target = sys.argv[1]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 200
corpus = os.path.join(here, "corpus", target)
binary = os.path.join(here, "target/x86_64-unknown-linux-gnu/release", target)
files = sorted(os.listdir(corpus))
if len(files) <= limit:
    sys.exit(0)
with tempfile.TemporaryDirectory() as tmp:
    control = os.path.join(tmp, "control")
    empty = os.path.join(tmp, "out")
    os.mkdir(empty)
    # A merge into an empty folder runs every file and writes its edges (COV lines) to the
    # control file; the merge's own choice of files is ignored.
    subprocess.run([binary, "-merge=1", "-use_counters=0", "-use_value_profile=0",
                    "-timeout=30", f"-merge_control_file={control}", empty, corpus],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    lines = open(control).read().splitlines()
    n = int(lines[0])
    names = lines[2:2 + n]
    cov = {}
    for line in lines[2 + n:]:
        if line.startswith("COV "):
            parts = line.split()
            cov[names[int(parts[1])]] = set(parts[2:])
covered, keep = set(), []
while len(keep) < limit:
    best = max(cov, key=lambda f: (len(cov[f] - covered), -os.path.getsize(f)), default=None)
    if best is None or not cov[best] - covered:
        break
    keep.append(best)
    covered |= cov.pop(best)
kept = {os.path.basename(f) for f in keep}
for f in files:
    if f not in kept:
        os.remove(os.path.join(corpus, f))
all_edges = covered | set().union(*cov.values()) if cov else covered
print(f"{target}: kept {len(kept)} of {len(files)} files, {len(covered)} of {len(all_edges)} edges")
