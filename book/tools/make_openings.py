# Balanced opening positions for `hayate match`: Fairy-Stockfish plays both sides, picking at
# random among its MultiPV moves that are close to its best; the position reached after 8-24
# plies is kept when Hayate's own deep search (fixed depth, one thread) scores it within 150 cp.
#
# Usage (with cshogi installed): make_openings.py SEED COUNT OUT_FILE HAYATE_BINARY [DEPTH]
# e.g. python book/tools/make_openings.py 1 130 openings.sfen target/release/hayate 12
# One engine of each kind, one thread each: it keeps to about one core.
import random, subprocess, sys
import cshogi

seed, want, out_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
hayate_bin = sys.argv[4]
depth = int(sys.argv[5]) if len(sys.argv) > 5 else 12
rng = random.Random(seed)

class Engine:
    def __init__(self, cmd, opts):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send('usi'); self.until('usiok')
        for k, v in opts: self.send(f'setoption name {k} value {v}')
        self.send('isready'); self.until('readyok')
    def send(self, s): self.p.stdin.write(s + '\n'); self.p.stdin.flush()
    def until(self, prefix):
        lines = []
        while True:
            l = self.p.stdout.readline()
            if not l: raise SystemExit('engine died')
            lines.append(l.strip())
            if l.startswith(prefix): return lines

def score_of(l):
    if ' score cp ' in l: return int(l.split(' score cp ')[1].split()[0])
    if ' score mate ' in l: return 30000 if not l.split(' score mate ')[1].startswith('-') else -30000
    return None

fsf = Engine('/usr/games/fairy-stockfish', [('Threads', 1), ('Hash', 16), ('USI_Variant', 'shogi'), ('MultiPV', 5)])
hay = Engine(hayate_bin, [('Threads', 1), ('USI_Hash', 64)])
seen = set()
kept = 0
out = open(out_path, 'a')
while kept < want:
    b = cshogi.Board(); moves = []
    plies = rng.randint(8, 24)
    ok = True
    for ply in range(plies):
        fsf.send('position startpos moves ' + ' '.join(moves) if moves else 'position startpos')
        fsf.send('go nodes 30000')
        lines = fsf.until('bestmove')
        cands = {}
        for l in lines:
            if ' multipv ' in l and ' pv ' in l:
                k = int(l.split(' multipv ')[1].split()[0]); s = score_of(l)
                cands[k] = (s, l.split(' pv ')[1].split()[0])
        if not cands: ok = False; break
        best = cands[min(cands)][0]
        # Wider choice early on, where many moves are playable.
        slack = 60 if ply < 6 else 35
        choice = [m for s, m in cands.values() if s is not None and s >= best - slack]
        m = rng.choice(choice)
        b.push_usi(m); moves.append(m)
        if b.is_game_over(): ok = False; break
    if not ok: continue
    sfen = b.sfen()
    key = ' '.join(sfen.split()[:3])
    if key in seen: continue
    seen.add(key)
    hay.send('usinewgame'); hay.send('position startpos moves ' + ' '.join(moves))
    hay.send(f'go depth {depth}')
    lines = hay.until('bestmove')
    hs = None
    for l in lines:
        s = score_of(l)
        if s is not None and ' depth ' in l and 'bound' not in l: hs = s
    fs = cands[min(cands)][0]
    print(f'ply {plies} hayate {hs} fsf {fs}', flush=True)
    if hs is None or abs(hs) >= 150 or fs is None or abs(fs) >= 300: continue
    out.write(f'# ply {plies}, Hayate depth {depth}: {hs:+d} cp, Fairy-Stockfish: {fs:+d} cp; startpos moves {" ".join(moves)}\n')
    out.write(f'sfen {sfen}\n'); out.flush()
    kept += 1
