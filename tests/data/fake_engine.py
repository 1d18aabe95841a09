#!/usr/bin/env python3
"""A misbehaving USI engine for the match runner's tests.

Usage: fake_engine.py MODE
  illegal        answers every go with an illegal move (5e5d from an empty square)
  crash          plays a pawn move, then exits on its second go
  silent         never answers go
  falsewin       answers bestmove win
  noreply        never answers usi
  script:M1,M2   plays the listed moves in turn (cycling), whatever the position
  sjis           writes its author and an info string in Shift_JIS (not UTF-8), then resigns
"""
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
script = mode.split(":", 1)[1].split(",") if mode.startswith("script:") else []
gos = 0
moves_seen = 0

def out(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()

def out_sjis(s):
    sys.stdout.buffer.write((s + "\n").encode("shift_jis"))
    sys.stdout.buffer.flush()

for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "usi":
        if mode == "noreply":
            continue
        out("id name fake-" + mode.split(":")[0])
        if mode == "sjis":
            out_sjis("id author 将棋の作者")
        out("usiok")
    elif cmd[0] == "position":
        moves_seen = len(cmd) - cmd.index("moves") - 1 if "moves" in cmd else 0
    elif cmd[0] == "isready":
        out("readyok")
    elif cmd[0] == "go":
        gos += 1
        if mode == "illegal":
            out("bestmove 5e5d")
        elif mode == "crash":
            # One legal pawn move from the start position, then a crash mid-game.
            if gos >= 2:
                sys.exit(3)
            black = moves_seen % 2 == 0
            out("info depth 1 score cp 0 pv " + ("1g1f" if black else "9c9d"))
            out("bestmove " + ("1g1f" if black else "9c9d"))
        elif mode == "silent":
            pass
        elif mode == "falsewin":
            out("bestmove win")
        elif mode == "sjis":
            out_sjis("info string 探索中です")
            out("bestmove resign")
        elif script:
            out("bestmove " + script[(gos - 1) % len(script)])
    elif cmd[0] == "quit":
        break
