#!/usr/bin/env python3
"""The lists of the README's "On the classics" (under "The composer's check"), from a batch's
reports and the published lengths.

Not part of CI. It reads the JSON Lines of `hayate tsume check --batch FILE --json` and the
recorded lengths (name<TAB>plies, `#` comments), and prints in Markdown:

  - the count of each verdict, and how many rows got an exact length (and how many of those
    rest on proofs alone: `length_sure`) or only a bound;
  - the exact lengths that differ from the published ones (longer, shorter; a `?` marks a length
    that takes for defences drops proven neither useless nor not), and the bounds below or
    above them;
  - why each flawed row is flawed: 駒余り with the pieces left, 余詰 with the plies of the
    attacker turns that have a second mating move (the minor flaws are counted, not listed);
  - the rows left without an exact length, and why (the report's reason), and the drops
    each "sound if" row rests on.

    cargo build --release
    target/release/hayate tsume check --batch MZ --json --jobs 2 > reports.jsonl
    python3 tests/tsume_check_summary.py reports.jsonl tests/data/tsume_classics_published.tsv

where MZ holds the 将棋無双 and 将棋図巧 rows of tests/data/tsume_classics.tsv
(`grep -P '^(muso|zuko)' tests/data/tsume_classics.tsv`).
"""
import collections
import json
import sys

# The minor flaws and the other findings a report lists besides 余詰, by their JSON field.
MINOR = [
    ("last_move_alternatives", "最終手余詰"),
    ("equal_variations", "変同"),
    ("promotion_choices", "成生非限定"),
    ("drop_choices", "打ち場所非限定"),
    ("transpositions", "手順前後"),
    ("detours", "迂回"),
]


def published_lengths(path):
    lengths = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, plies = line.rstrip("\n").split("\t")[:2]
            lengths[name] = int(plies)
    return lengths


def short(names):
    """muso004, 007, zuko001: each set's prefix written once."""
    out, last = [], None
    for n in names:
        prefix = n[:4]
        out.append(n if prefix != last else n[4:])
        last = prefix
    return ", ".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    reports = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            if line.strip():
                reports.append(json.loads(line))
    published = published_lengths(sys.argv[2])

    verdicts = collections.Counter(r["verdict"] for r in reports)
    exact = [r for r in reports if r["length"] is not None]
    bounds = [r for r in reports if r["length"] is None and r["length_at_most"] is not None]
    print(f"{len(reports)} rows: " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
    sure = sum(1 for r in exact if r.get("length_sure", True))
    print(f"exact lengths {len(exact)} ({sure} resting on proofs alone), upper bounds only "
          f"{len(bounds)}, neither {len(reports) - len(exact) - len(bounds)}")
    print()

    def compare(rows, field):
        equal, longer, shorter, unpublished = [], [], [], []
        for r in rows:
            p = published.get(r["name"])
            if p is None:
                unpublished.append(r)
            elif r[field] == p:
                equal.append(r)
            elif r[field] > p:
                longer.append(r)
            else:
                shorter.append(r)
        return equal, longer, shorter, unpublished

    def listed(rows, field):
        def mark(r):
            return "?" if field == "length" and not r.get("length_sure", True) else ""
        return ", ".join(f"{r['name']} {r[field]}{mark(r)} ({published[r['name']]})" for r in rows)

    equal, longer, shorter, unpublished = compare(exact, "length")
    print(f"Exact lengths against the published ones: {len(equal)} equal, {len(longer)} longer, "
          f"{len(shorter)} shorter, {len(unpublished)} with none published "
          f"({short(r['name'] for r in unpublished)}).")
    print(f"- longer ({len(longer)}): {listed(longer, 'length')}")
    print(f"- shorter ({len(shorter)}): {listed(shorter, 'length')}")
    equal, longer, shorter, unpublished = compare(bounds, "length_at_most")
    print(f"Upper bounds: {len(equal)} equal to the published length, {len(longer)} above, "
          f"{len(shorter)} below.")
    print(f"- below ({len(shorter)}): {listed(shorter, 'length_at_most')}")
    print()

    flawed = [r for r in reports if r["verdict"] == "flawed"]
    spare = [r for r in flawed if r["spare"] != "-"]
    print(f"Flawed ({len(flawed)}):")
    print(f"- 駒余り ({len(spare)}): " + ", ".join(f"{r['name']} ({r['spare']})" for r in spare))
    cooked = [r for r in flawed if r["cooks"]]
    parts = []
    for r in cooked:
        plies = sorted({c["ply"] for c in r["cooks"]})
        parts.append(f"{r['name']} ({', '.join(map(str, plies))})")
    print(f"- 余詰 ({len(cooked)}, the plies of the turns): " + ", ".join(parts))
    incomplete = [r["name"] for r in flawed if r["incomplete"]]
    print(f"- flawed with alternatives left unchecked when the budget ran out "
          f"({len(incomplete)}): {short(incomplete)}")
    print()
    print("Minor findings (rows with one or more): " + ", ".join(
        f"{label} {sum(1 for r in reports if r[field])}" for field, label in MINOR))
    print()
    sound = [r["name"] for r in reports if r["verdict"] == "sound"]
    print(f"Sound ({len(sound)}): {short(sound)}")
    nomate = [r["name"] for r in reports if r["verdict"] == "nomate"]
    print(f"不詰 ({len(nomate)}): {short(nomate)}")
    print()
    reasons = collections.defaultdict(list)
    for r in reports:
        if r["verdict"] == "unknown":
            reasons[r["reason"]].append(r["name"])
    print(f"Unknown ({verdicts['unknown']}):")
    for reason, names in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        print(f"- {reason} ({len(names)}): {short(names)}")
    # A "sound if" report names the drops it rests on, and one whose drops were proven
    # useless after it names those (older reports lack the fields).
    for field, title in [
        ("unsettled_drops", "The drops that the \"sound if\" rows rest on"),
        ("drops_proven_useless", "The drops proven useless after the check"),
        ("unsettled_checks", "The checks left unsettled along the main line"),
    ]:
        drops = [(r["name"], r.get(field, [])) for r in reports]
        drops = [(name, d) for name, d in drops if d]
        if drops:
            print()
            print(f"{title} (how many, at which plies):")
            for name, d in drops:
                plies = sorted({len(line) for line in d})
                print(f"- {name}: {len(d)} at {', '.join(map(str, plies))}")
    stopped = [(r["name"], r["alternatives_stopped_at"]) for r in reports
               if r.get("alternatives_stopped_at")]
    if stopped:
        print()
        print("Where the budget ran out on the walk of the main line (the ply): "
              + ", ".join(f"{name} {ply}" for name, ply in stopped))


if __name__ == "__main__":
    main()
