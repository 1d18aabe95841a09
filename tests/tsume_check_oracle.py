#!/usr/bin/env python3
"""The composer's check (`hayate tsume check`) held against an independent oracle: cshogi.

Not part of CI (it needs cshogi from PyPI). It reads the reports of a batch in JSON Lines,

    cargo build --release
    target/release/hayate tsume check --batch problems.tsv --json > reports.jsonl
    /tmp/peers/venv/bin/python tests/tsume_check_oracle.py reports.jsonl [--nodes 2000000]

and checks every claim that can be checked without Hayate's own search, with cshogi's move
generator (every move legal, every attacker move a check) and its df-pn solver (`DfPn`), the
defender holding every piece not on the board or in the attacker's hand (as the checker gives
him, unless `--as-given` was used; pass `--as-given` here too then):

  - the main line: it replays, and it ends in mate, or in a check that leaves the defender only
    drops after which cshogi proves the mate (the tsume convention leaves useless
    interpositions out of the line); the pieces left in the attacker's hand are the report's
    駒余り;
  - 余詰: the move is a check, another move than the main line's at that turn, and its mating
    line replays to a mate that passes through no position of the main line from that turn on;
    where the line is short (`--plies`), an exhaustive AND/OR search that counts every position
    of the main line from that turn on as a failure shows that a mate keeping off the main line
    exists; otherwise cshogi proves a mate after it, and its proof, walked with every defence,
    shows one when none of its positions is on the main line (its solver cannot be told to
    avoid them, so when its proof passes through one this is left unchecked);
  - 最終手余詰: the move mates at once;
  - 成生非限定, 打ち場所非限定, 手順前後 and 迂回: the move is a check after which cshogi proves
    a mate;
  - 変同: the defence is legal, its line replays to a mate as long as the main line's, with
    nothing left in the attacker's hand;
  - 不詰: cshogi proves no mate, and after each check with a refutation, the refutation is legal
    and cshogi proves no mate after it;
  - sound: cshogi proves the mate;
  - at every attacker turn of the main line that the report looked at (those before the ply
    where the budget ran out on the walk, `alternatives_stopped_at`, or all when it did not;
    none of an incomplete report from before 2026-12-07), each check the report does
    not list as an alternative or as unsettled: cshogi must not prove a mate after it (at the
    last turn: it must not mate at once). This is what "sound" rests on;
  - each check an incomplete report names as unsettled (`unsettled_checks`): another check than
    the main line's at one of its attacker turns; whether cshogi finds a mate after it is
    printed for a look.

cshogi's solver is an oracle of its own kind: it does not know the 無駄合 convention (which changes
lengths, never whether a mate exists), it leaves some non-promotions out of its move generation
(so it has answered "no mate" for a mate, muso031h, and "mate" where only a defender's
non-promotion refutes, muso071 after ▲9八飛), and it counts positions of a board's history as
repetitions (so it is always given a board without history). So a disagreement with it is
printed for a look; a claim is shown false only by a line that does not replay, an exhaustive
search, or a mate of cshogi's whose proof holds when it is walked with every defence
(`proof_holds`). The script exits 1 on one.
"""
import argparse
import json
import sys

import cshogi

LIMIT = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
ORDER = "RBGSNLP"


def complete_hands(sfen):
    """The SFEN with every piece not on the board or in the attacker's hand in the defender's
    (the reports give the position so completed already, unless the batch kept the hands as
    given)."""
    board, side, hands, *rest = sfen.split()
    count = {k: 0 for k in LIMIT}
    for c in board:
        if c.upper() in count:
            count[c.upper()] += 1
    attacker = {k: 0 for k in LIMIT}
    n = ""
    for c in hands:
        if c.isdigit():
            n += c
            continue
        if c == "-":
            continue
        k = int(n) if n else 1
        n = ""
        if c.isupper() == (side == "b"):
            attacker[c.upper()] += k
    # Whatever the defender was given, he holds the rest.
    defender = {k: LIMIT[k] - count[k] - attacker[k] for k in LIMIT}

    def text(h, upper):
        s = ""
        for p in ORDER:
            if h[p] > 0:
                s += (str(h[p]) if h[p] > 1 else "") + (p if upper else p.lower())
        return s

    black, white = (attacker, defender) if side == "b" else (defender, attacker)
    hand = text(black, True) + text(white, False) or "-"
    return " ".join([board, side, hand] + (rest or ["1"]))


def position_key(b):
    """The position without its move number: board, side to move, hands."""
    return b.sfen().rsplit(" ", 1)[0]


def attacker_hand(b, attacker):
    """The attacker's hand as Hayate prints a spare hand ("2N", "LP", "-")."""
    hands = b.pieces_in_hand[attacker]
    # cshogi's hand order: P L N S G B R.
    names = "PLNSGBR"
    counts = dict(zip(names, hands))
    s = "".join((str(counts[p]) if counts[p] > 1 else "") + p for p in ORDER if counts[p] > 0)
    return s or "-"


def parse_hand(text):
    """A hand as text ("2N", "LP", "-") into counts."""
    h = {k: 0 for k in LIMIT}
    n = ""
    for c in text:
        if c.isdigit():
            n += c
        elif c.upper() in h:
            h[c.upper()] += int(n) if n else 1
            n = ""
    return h


class Oracle:
    def __init__(self, nodes, plies, exhaustive_nodes, unlisted_nodes, proof_positions=3000):
        self.proof_positions = proof_positions
        self.nodes = nodes
        self.unlisted_nodes = unlisted_nodes
        self.plies = plies
        self.exhaustive_nodes = exhaustive_nodes

    def dfpn(self, b, and_node):
        """cshogi's verdict from `b`: 'mate', 'nomate' (searched to the end within the budget)
        or 'unknown'."""
        d = cshogi.DfPn()
        d.set_max_search_node(self.nodes)
        d.set_max_depth(1000)
        # A board without the moves that led to it: cshogi's solver counts a position of the
        # game's history met again as a repetition, and a detour (迂回) goes back to one.
        b = cshogi.Board(b.sfen())
        found = d.search_andnode(b) if and_node else d.search(b)
        if found:
            return "mate"
        return "nomate" if d.searched_node < self.nodes else "unknown"

    def proof_holds(self, b, and_node, budget, path=None, avoid=frozenset()):
        """Walks cshogi's proof of a mate from `b` with every defence: at an attacker turn the
        move its solver gives, at a defender turn every legal reply, non-promotions included
        (its solver leaves some of them out, so its "mate" can be wrong: muso071, after ▲9八飛
        at the first move, where only the rook's non-promotion △6九飛 refutes ▲6九桂). True when
        the whole tree holds, False when a defence that cshogi itself cannot mate is found,
        None when `budget` (positions) runs out, the walk comes round to a position again, or
        it reaches one of `avoid` (a proof through them is no proof that a mate keeps off
        them)."""
        path = set() if path is None else path
        key = position_key(b)
        if key in path or key in avoid:
            return None
        budget[0] -= 1
        if budget[0] < 0:
            return None
        path.add(key)
        try:
            if and_node:
                for r in list(b.legal_moves):
                    b.push(r)
                    v = self.proof_holds(b, False, budget, path, avoid)
                    b.pop()
                    if v is not True:
                        return v
                return True
            fresh = cshogi.Board(b.sfen())
            d = cshogi.DfPn()
            d.set_max_search_node(self.nodes)
            d.set_max_depth(1000)
            if not d.search(fresh):
                return False if d.searched_node < self.nodes else None
            m = b.move_from_usi(cshogi.move_to_usi(d.get_move(fresh)))
            b.push(m)
            v = self.proof_holds(b, True, budget, path, avoid) if b.is_check() else False
            b.pop()
            return v
        finally:
            path.discard(key)

    def mate_that_holds(self, b, and_node):
        """cshogi's verdict as `dfpn` gives it, but a "mate" only when its proof holds against
        every defence ("mate?" when the walk could not finish, "no mate: a defence cshogi's
        solver leaves out" when it found one)."""
        v = self.dfpn(b, and_node)
        if v != "mate":
            return v
        held = self.proof_holds(b.copy(), and_node, [self.proof_positions])
        if held is True:
            return "mate"
        return "mate?" if held is None else "no mate: a defence cshogi's solver leaves out"

    def ends_in_mate(self, b):
        """Whether the position after the attacker's last move is mate, or a check from which
        cshogi proves it (the line stopped before useless drops)."""
        if not b.is_check():
            return "no check"
        moves = list(b.legal_moves)
        if not moves:
            return None
        if any(not cshogi.move_is_drop(m) for m in moves):
            return "the defender has a move other than a drop"
        v = self.dfpn(b, True)
        return None if v == "mate" else f"only drops left, but cshogi says {v}"

    def replay(self, b, line, attacker):
        """Plays `line` on `b` (changed), each move legal and each attacker move a check;
        returns the positions passed through, or raises ValueError with why not."""
        seen = []
        for i, u in enumerate(line):
            m = b.move_from_usi(u)
            if m == 0 or not b.is_legal(m):
                raise ValueError(f"move {i + 1} of the line, {u}, is illegal")
            mover = b.turn
            b.push(m)
            if mover == attacker and not b.is_check():
                raise ValueError(f"move {i + 1} of the line, {u}, does not check")
            seen.append(position_key(b))
        return seen

    def mates_avoiding(self, b, avoid, bound, budget):
        """Exhaustive: whether the attacker mates within `bound` plies from `b` (the defender
        to move, after a check) without reaching a position of `avoid`. None when the budget
        of nodes ran out."""
        # A copy: running out of budget leaves it somewhere down the tree.
        b = b.copy()
        known = {}

        def search(n, attacking):
            """At an attacker turn: whether some check mates within n plies; at a defender
            turn: whether every reply is mated within them."""
            moves = list(b.legal_moves)
            if not attacking and not moves:
                return True
            if n <= 0:
                return False
            key = (position_key(b), n)
            if key in known:
                return known[key]
            budget[0] -= 1
            if budget[0] < 0:
                raise TimeoutError
            result = not attacking
            for m in moves:
                b.push(m)
                ok = (not attacking or b.is_check()) and position_key(b) not in avoid
                ok = ok and search(n - 1, not attacking)
                b.pop()
                # A mate found (attacker turn) or a defence that holds (defender turn).
                if ok == attacking:
                    result = attacking
                    break
            known[key] = result
            return result

        try:
            return search(bound, False)
        except TimeoutError:
            budget[0] = -1
            return None


def check_report(o, r, as_given, tally):
    """Checks one report; returns the failures (claims shown false) and the notes
    (disagreements with cshogi's solver, claims it could not settle)."""
    fails, notes = [], []
    sfen = r["sfen"] if as_given else complete_hands(r["sfen"])
    root = cshogi.Board(sfen)
    attacker = root.turn
    main = r.get("main_line") or []

    def count(kind, outcome):
        tally.setdefault(kind, {}).setdefault(outcome, 0)
        tally[kind][outcome] += 1

    def before(ply):
        b = root.copy()
        for u in main[: ply - 1]:
            b.push_usi(u)
        return b

    # Positions of the main line after each ply (index ply - 1).
    main_positions = []
    if main:
        try:
            main_positions = o.replay(root.copy(), main, attacker)
            b = root.copy()
            o.replay(b, main, attacker)
            why = o.ends_in_mate(b)
            if why:
                fails.append(f"main line: {why}")
                count("main line", "failed")
            else:
                count("main line", "confirmed")
            if r["length"] is not None:
                spare = attacker_hand(b, attacker)
                claimed = r.get("spare", "-") or "-"
                if parse_hand(spare) != parse_hand(claimed):
                    fails.append(f"main line ends with {spare} in hand, the report says {claimed}")
                    count("駒余り", "failed")
                elif claimed != "-":
                    count("駒余り", "confirmed")
        except ValueError as e:
            fails.append(f"main line: {e}")
            count("main line", "failed")
            return fails, notes

    def alternative(kind, a, must_mate_at_once=False, avoid_main=False):
        ply = a["ply"]
        b = before(ply)
        m = b.move_from_usi(a["move"])
        label = f"{kind} at {ply} ({a['move']})"
        if m == 0 or not b.is_legal(m):
            fails.append(f"{label}: illegal")
            count(kind, "failed")
            return
        if ply <= len(main) and main[ply - 1] == a["move"]:
            fails.append(f"{label}: the main line's own move")
            count(kind, "failed")
            return
        b.push(m)
        if not b.is_check():
            fails.append(f"{label}: not a check")
            count(kind, "failed")
            return
        if must_mate_at_once:
            if any(True for _ in b.legal_moves):
                why = o.ends_in_mate(b)
                if why:
                    fails.append(f"{label}: does not mate at once ({why})")
                    count(kind, "failed")
                    return
            count(kind, "confirmed")
            return
        line = a.get("line") or []
        if line:
            try:
                lb = before(ply)
                seen = o.replay(lb, line, attacker)
                why = o.ends_in_mate(lb)
                if why:
                    fails.append(f"{label}: its line does not mate ({why})")
                    count(kind, "failed")
                    return
                if avoid_main:
                    later = set(main_positions[ply - 1 :])
                    back = [i for i, k in enumerate(seen) if k in later]
                    if back:
                        fails.append(f"{label}: its line comes back to the main line at its ply {back[0] + 1}")
                        count(kind, "failed")
                        return
            except ValueError as e:
                fails.append(f"{label}: {e}")
                count(kind, "failed")
                return
        if avoid_main and len(line) <= o.plies:
            # The line is one defence; the others (useless drops among them) may last longer,
            # so the bound grows until a mate is found or the budget runs out. Not finding one
            # proves nothing: the mate may be longer still.
            avoid = set(main_positions[ply - 1 :])
            budget = [o.exhaustive_nodes]
            for bound in range(max(len(line) - 1, 1), len(line) + 9, 2):
                if o.mates_avoiding(b, avoid, bound, budget):
                    count(kind, "confirmed exhaustively off the main line")
                    return
                if budget[0] < 0:
                    break
        v = o.dfpn(b, True)
        if v == "mate" and avoid_main:
            # cshogi's proof walked with every defence: when no position of it is on the main
            # line, a mate keeps off the main line.
            avoid = frozenset(main_positions[ply - 1 :])
            if o.proof_holds(b.copy(), True, [o.proof_positions], None, avoid):
                count(kind, "confirmed off the main line by cshogi's proof, walked")
            else:
                notes.append(f"{label}: a mate, but cshogi's proof passes through the main line")
                count(kind, "confirmed by cshogi (a mate; the detour not checked)")
        elif v == "mate":
            count(kind, "confirmed by cshogi")
        else:
            notes.append(f"{label}: cshogi says {v}")
            count(kind, f"cshogi: {v}")

    for a in r.get("cooks", []):
        alternative("余詰", a, avoid_main=True)
    for a in r.get("last_move_alternatives", []):
        alternative("最終手余詰", a, must_mate_at_once=True)
    for kind, key in [("成生非限定", "promotion_choices"), ("打ち場所非限定", "drop_choices"),
                      ("迂回", "detours"), ("手順前後", "transpositions")]:
        for a in r.get(key, []):
            alternative(kind, a)

    # The checks an incomplete report names as unsettled: each must be a check, other than the
    # main line's move, at an attacker turn of the main line. Whether it mates is open; a mate
    # of cshogi's whose proof holds is printed for a look (a 余詰 if it keeps off the main line).
    unsettled = {}
    for line in r.get("unsettled_checks", []):
        ply = len(line)
        label = f"unsettled check at {ply} ({line[-1] if line else '-'})"
        if ply % 2 == 0 or ply > len(main) or line[:-1] != main[: ply - 1] \
                or line[-1] == main[ply - 1]:
            fails.append(f"{label}: not another check at an attacker turn of the main line")
            count("unsettled check", "failed")
            continue
        b = before(ply)
        try:
            o.replay(b, line[-1:], attacker)
        except ValueError as e:
            fails.append(f"{label}: {e}")
            count("unsettled check", "failed")
            continue
        unsettled.setdefault(ply, set()).add(line[-1])
        if o.unlisted_nodes > 0:
            saved = o.nodes
            o.nodes = o.unlisted_nodes
            v = o.dfpn(b, True)
            if v == "mate":
                v = o.mate_that_holds(b, True)
                if v == "mate":
                    notes.append(f"{label}: cshogi proves a mate after it (its proof holds)")
                else:
                    notes.append(f"{label}: cshogi: {v}")
            o.nodes = saved
            count("unsettled check", f"cshogi: {v}")
        else:
            count("unsettled check", "replayed")

    # Every other check at an attacker turn of the main line must be one the report lists, or
    # no mate: the checker's "sound" rests on it. Only at the turns the report says it looked
    # at: those before the ply where the walk of the main line ran out
    # (`alternatives_stopped_at`; all when it did not), less the checks it names as unsettled
    # (reports before 2026-12-07 name none: of those, the incomplete ones are left out). A mate
    # that cshogi finds after an unlisted check is a failure.
    looked_at = len(main) + 1
    if "unsettled_checks" in r:
        # The walk may also run out at a defender turn, with no check left unsettled.
        looked_at = r.get("alternatives_stopped_at") or looked_at
    elif r.get("incomplete"):
        looked_at = 0
    if main and r["length"] is not None and o.unlisted_nodes > 0:
        listed = {}
        for key in ["cooks", "last_move_alternatives", "promotion_choices", "drop_choices",
                    "detours", "transpositions"]:
            for a in r.get(key, []):
                listed.setdefault(a["ply"], set()).add(a["move"])
        saved = o.nodes
        o.nodes = o.unlisted_nodes
        for ply in range(1, min(looked_at, len(main) + 1), 2):
            b = before(ply)
            for m in list(b.legal_moves):
                u = cshogi.move_to_usi(m)
                if u == main[ply - 1] or u in listed.get(ply, ()) or u in unsettled.get(ply, ()):
                    continue
                b.push(m)
                if b.is_check():
                    label = f"unlisted check at {ply} ({u})"
                    if ply == len(main):
                        # At the last turn only a mate at once would be an alternative.
                        if not any(True for _ in b.legal_moves):
                            fails.append(f"{label}: mates at once")
                            count("unlisted check", "failed")
                        else:
                            count("unlisted check", "no mate at once")
                    else:
                        v = o.dfpn(b, True)
                        if v == "mate":
                            v = o.mate_that_holds(b, True)
                        if v == "mate":
                            fails.append(f"{label}: cshogi proves a mate (its proof holds)")
                            count("unlisted check", "failed")
                        else:
                            if v.startswith("mate?") or v.startswith("no mate:"):
                                notes.append(f"{label}: cshogi: {v}")
                            count("unlisted check", f"cshogi: {v}")
                b.pop()
        o.nodes = saved

    for a in r.get("equal_variations", []):
        ply = a["ply"]
        label = f"変同 at {ply} ({a['move']})"
        b = before(ply)
        try:
            o.replay(b, a.get("line") or [a["move"]], attacker)
        except ValueError as e:
            fails.append(f"{label}: {e}")
            count("変同", "failed")
            continue
        why = o.ends_in_mate(b)
        left = attacker_hand(b, attacker)
        total = ply - 1 + len(a.get("line") or [])
        if why or left != "-" or (r["length"] is not None and total != r["length"]):
            fails.append(f"{label}: {why or ''} ends at ply {total} with {left} in hand")
            count("変同", "failed")
        else:
            count("変同", "confirmed")

    verdict = r["verdict"]
    if verdict == "nomate":
        v = o.mate_that_holds(root.copy(), False)
        if v == "mate":
            fails.append("不詰, but cshogi proves a mate (its proof holds)")
            count("不詰", "failed")
        else:
            count("不詰", f"cshogi: {v}")
        for ref in r.get("refutations", []):
            if ref["refutation"] is None:
                continue
            b = root.copy()
            label = f"不詰: {ref['check']} {ref['refutation']}"
            try:
                o.replay(b, [ref["check"], ref["refutation"]], attacker)
            except ValueError as e:
                fails.append(f"{label}: {e}")
                count("refutation", "failed")
                continue
            v = o.mate_that_holds(b, False)
            if v == "mate":
                fails.append(f"{label}: cshogi proves a mate after it (its proof holds)")
                count("refutation", "failed")
            else:
                count("refutation", f"cshogi: {v}")
    elif verdict in ("sound", "flawed") or r["length"] is not None:
        v = o.dfpn(root.copy(), False)
        count(f"mate ({verdict})", f"cshogi: {v}")
        if v != "mate":
            notes.append(f"the problem: cshogi says {v}")
    return fails, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("reports", help="JSON Lines from `hayate tsume check --batch FILE --json`")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="cshogi DfPn's nodes a question")
    ap.add_argument("--plies", type=int, default=5,
                    help="cook lines up to this long are settled exhaustively off the main line")
    ap.add_argument("--exhaustive-nodes", type=int, default=200_000)
    ap.add_argument("--unlisted-nodes", type=int, default=100_000,
                    help="cshogi DfPn's nodes for each check the report does not list (0: skip)")
    ap.add_argument("--as-given", action="store_true", help="the batch was run with --as-given")
    ap.add_argument("--only", help="comma-separated names to check")
    args = ap.parse_args()
    o = Oracle(args.nodes, args.plies, args.exhaustive_nodes, args.unlisted_nodes)
    only = set(args.only.split(",")) if args.only else None
    tally, failed = {}, 0
    with open(args.reports, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            if "error" in r or (only and r["name"] not in only):
                continue
            fails, notes = check_report(o, r, args.as_given, tally)
            failed += bool(fails)
            for x in fails:
                print(f"{r['name']}: FAIL {x}", flush=True)
            for x in notes:
                print(f"{r['name']}: note {x}", flush=True)
    print()
    for kind, outcomes in tally.items():
        print(f"{kind}: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print(f"reports with a claim shown false: {failed}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
