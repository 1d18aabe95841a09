#!/usr/bin/env python3
"""Double-king (双玉) tsume against an independent oracle: cshogi's move generator and DfPn.

Not part of CI (it needs cshogi from PyPI). Run it after changing the mate solver:

    python3 -m venv /tmp/peers/venv && /tmp/peers/venv/bin/pip install cshogi
    cargo build --release
    /tmp/peers/venv/bin/python tests/tsume_oracle.py [--count 300] [--seed 1] [--nodes 200000]

It makes random positions with both kings on the board, the attacker (Black) to move, often with
pieces that can check Black back, and asks three judges whether Black mates:
  - `hayate mate` (df-pn, with the line it finds),
  - cshogi's DfPn,
  - an exhaustive AND/OR search written here on cshogi's move generator, for mates of up to
    --plies plies (default 5): it settles every case where the two solvers disagree.
Under the rules, the attacker must give check with every move; when the defender's reply checks
the attacker's king, the attacker must escape with a move that also gives check.
Every line Hayate reports is replayed with cshogi: each move legal, each attacker move a check,
and the last position mate. Hayate's verdicts must agree with the exhaustive search wherever that
search decides; the script prints each disagreement and exits 1 if there is one.
"""
import argparse
import os
import random
import subprocess
import sys

import cshogi

HAYATE = "target/release/hayate"

# Piece letters (SFEN) a side may have on the board or in hand, with the ranks (1 = a, from
# Black's side) where each may stand without being stuck.
BOARD_PIECES = ["P", "L", "N", "S", "G", "B", "R", "+P", "+S", "+B", "+R"]
HAND_PIECES = ["P", "L", "N", "S", "G", "B", "R"]
LIMIT = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}


def base(p):
    return p[-1].upper()


def allowed(piece, rank, black):
    """Whether a piece may stand on `rank` (1..9 from the top of the board)."""
    r = rank if black else 10 - rank
    b = piece.upper()
    if b in ("P", "L"):
        return r > 1
    if b == "N":
        return r > 2
    return True


def random_position(rng):
    board = {}
    used = {k: 0 for k in LIMIT}
    # The defender's king near the top edge, the attacker's within reach of counter-checks.
    wk = (rng.randint(1, 9), rng.randint(1, 3))
    bk = (rng.randint(1, 9), rng.randint(3, 7))
    if abs(wk[0] - bk[0]) <= 1 and abs(wk[1] - bk[1]) <= 1:
        return None
    board[wk] = "k"
    board[bk] = "K"
    pawn_files = {True: set(), False: set()}

    def place(black, near):
        for _ in range(20):
            p = rng.choice(BOARD_PIECES)
            if used[base(p)] >= LIMIT[base(p)]:
                continue
            f = min(9, max(1, near[0] + rng.randint(-3, 3)))
            r = min(9, max(1, near[1] + rng.randint(-2, 3)))
            if (f, r) in board or not allowed(p.lstrip("+"), r, black):
                continue
            if p == "P":
                if f in pawn_files[black]:
                    continue
                pawn_files[black].add(f)
            used[base(p)] += 1
            board[(f, r)] = p if black else p.lower()
            return

    for _ in range(rng.randint(1, 4)):
        place(True, wk)
    # The defender's pieces: guards near its king, and checkers near the attacker's.
    for _ in range(rng.randint(0, 2)):
        place(False, wk)
    for _ in range(rng.randint(1, 3)):
        place(False, bk)
    hand = []
    for _ in range(rng.randint(1, 3)):
        p = rng.choice(HAND_PIECES)
        if used[p] < LIMIT[p]:
            used[p] += 1
            hand.append(p)
    rows = []
    for r in range(1, 10):
        row, empty = "", 0
        for f in range(9, 0, -1):
            p = board.get((f, r))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        rows.append(row + (str(empty) if empty else ""))
    # SFEN counts repeated pieces ("2P", not "PP"), in the order R B G S N L P.
    hand_text = "".join(
        (str(hand.count(p)) if hand.count(p) > 1 else "") + p for p in "RBGSNLP" if p in hand
    ) or "-"
    sfen = "/".join(rows) + f" b {hand_text} 1"
    # The defender may not stand in check with the attacker to move; the attacker may (then its
    # first move must escape and check).
    if cshogi.Board(sfen.replace(" b ", " w ")).is_check() or not quietly(cshogi.Board(sfen).is_ok):
        return None
    return sfen


def quietly(f):
    """Calls f with the process's stdout closed: cshogi prints a board it finds inconsistent."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            return f()
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def mated(b):
    return b.is_check() and not any(True for _ in b.legal_moves)


class Exhaustive:
    """Plain AND/OR search within a ply bound, on cshogi's move generator."""

    def __init__(self):
        self.known = {}

    def attack(self, b, bound):
        """Whether Black, to move, mates within `bound` plies."""
        if bound <= 0:
            return False
        key = (b.sfen().rsplit(" ", 1)[0], bound)
        if key in self.known:
            return self.known[key]
        found = False
        for m in b.legal_moves:
            b.push(m)
            found = b.is_check() and self.defend(b, bound - 1)
            b.pop()
            if found:
                break
        self.known[key] = found
        return found

    def defend(self, b, bound):
        """Whether every reply of White (in check) loses within `bound` plies."""
        moves = list(b.legal_moves)
        if not moves:
            return True
        if bound <= 0:
            return False
        for m in moves:
            b.push(m)
            ok = self.attack(b, bound - 1)
            b.pop()
            if not ok:
                return False
        return True

    def shortest(self, sfen, plies):
        self.known.clear()
        b = cshogi.Board(sfen)
        for n in range(1, plies + 1, 2):
            if self.attack(b, n):
                return n
        return None


def hayate_mate(sfen, nodes):
    out = subprocess.run(
        [HAYATE, "mate", "--nodes", str(nodes), "--hash", "32", sfen],
        capture_output=True, text=True, timeout=120,
    ).stdout
    for line in out.splitlines():
        if line.startswith("mate in"):
            usi = next((l for l in out.splitlines() if l.startswith("usi:")), "usi:")
            return "mate", usi.split()[1:]
        if line.startswith("no mate"):
            return "nomate", None
    return "unknown", None


def check_line(sfen, line):
    """Replays Hayate's line with cshogi: None if it is a correct mate, else why not."""
    b = cshogi.Board(sfen)
    for i, u in enumerate(line):
        m = b.move_from_usi(u)
        if m == 0 or not b.is_legal(m):
            return f"ply {i + 1}: {u} is illegal"
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return f"ply {i + 1}: {u} does not check"
    if not mated(b):
        return "the line does not end in mate"
    return None


def cshogi_dfpn(sfen, nodes):
    d = cshogi.DfPn()
    d.set_max_search_node(nodes)
    d.set_max_depth(31)
    return "mate" if d.search(cshogi.Board(sfen)) else "nomate-or-unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=200000)
    ap.add_argument("--plies", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    ex = Exhaustive()
    stats = {"positions": 0, "attacker in check": 0, "mate": 0, "nomate": 0, "unknown": 0,
             "cshogi agrees": 0, "exhaustive decided": 0}
    failures = []
    while stats["positions"] < args.count:
        sfen = random_position(rng)
        if sfen is None:
            continue
        stats["positions"] += 1
        if cshogi.Board(sfen).is_check():
            stats["attacker in check"] += 1
        verdict, line = hayate_mate(sfen, args.nodes)
        stats[verdict] += 1
        if verdict == "mate":
            why = check_line(sfen, line)
            if why:
                failures.append(f"{sfen}: Hayate's line {' '.join(line)}: {why}")
        theirs = cshogi_dfpn(sfen, args.nodes)
        if (verdict == "mate") == (theirs == "mate"):
            stats["cshogi agrees"] += 1
        # The exhaustive search settles disagreements, and checks that a short line is shortest.
        if (verdict == "mate") != (theirs == "mate") or (verdict == "mate" and len(line) <= args.plies):
            shortest = ex.shortest(sfen, args.plies)
            if shortest is not None:
                stats["exhaustive decided"] += 1
                if verdict != "mate":
                    failures.append(f"{sfen}: mate in {shortest} exists, Hayate says {verdict}")
                elif len(line) != shortest:
                    failures.append(f"{sfen}: shortest mate {shortest}, Hayate's line {len(line)}")
            elif verdict == "mate" and len(line) <= args.plies:
                failures.append(f"{sfen}: no mate within {args.plies}, Hayate says {len(line)}")
        if theirs == "mate" and verdict != "mate":
            print(f"note: cshogi mates, Hayate says {verdict}: {sfen}")
        elif verdict == "mate" and theirs != "mate":
            print(f"note: Hayate mates ({len(line)} plies, line checked), cshogi does not: {sfen}")
    print(", ".join(f"{k} {v}" for k, v in stats.items()))
    for f in failures:
        print("FAIL", f)
    print(f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
