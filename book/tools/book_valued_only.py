# Keeps only searched moves (with a value) and positions that still have moves: the step that
# turns the working book (record moves included) into the shipped one.
# Usage: book_valued_only.py IN.db OUT.db
import sys
src, dst = sys.argv[1], sys.argv[2]
out = []
pending = None
for line in open(src):
    if line.startswith('#') or not line.strip():
        out.append(line); continue
    if line.startswith('sfen '):
        pending = line; continue
    f = line.split()
    if len(f) >= 3 and f[2] != 'none':
        if pending: out.append(pending); pending = None
        out.append(line)
open(dst, 'w').writelines(out)
