#!/usr/bin/env bash
# The 1,000-game soak test: Hayate must never crash, play an illegal move or lose on time.
#
#   tests/soak.sh [OUT_DIR]        (GAMES=250 per leg by default, four legs)
#
# Four legs of `hayate match` at 100 ms byoyomi, two games at a time:
#   1. Threads=1, USI_Hash=16  against  Threads=2, USI_Hash=64            (processes reused)
#   2. MultiPV=3, USI_Hash=32  against  MultiPV=1, USI_Hash=8, UseNNUE    (processes reused)
#   3. both pondering, USI_Hash=16 and 32                 (a fresh pair of processes per game)
#   4. USI_Hash=32 against Fairy-Stockfish                (processes reused; skipped without it)
# A move may overrun the byoyomi by MARGIN ms (500 by default) before it loses on time.
#
# Each Hayate runs under a name of its own (a symlink such as hayate-h64), so that a sampler can
# read every process's peak resident memory (VmHWM, Linux only) once a second and report the
# peak for each USI_Hash. The summary goes to OUT_DIR/summary.txt and to stdout.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/target/soak}"
games="${GAMES:-250}"
margin="${MARGIN:-500}"
fsf="${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}"
mkdir -p "$out/bin"

cargo build --release --manifest-path "$root/Cargo.toml" >&2
# A copy, so that a rebuild during the soak changes nothing.
cp "$root/target/release/hayate" "$out/bin/hayate"
hayate="$out/bin/hayate"
for name in h16t1 h64t2 h32mpv3 h8nnue h16pon h32pon h32; do
    ln -sf hayate "$out/bin/hayate-$name"
done

# Peak resident memory per process name, sampled once a second.
peaks="$out/peaks.txt"
: >"$peaks"
sample() {
    while true; do
        for status in /proc/[0-9]*/status; do
            awk '/^Name:/ { name = $2 } /^VmHWM:/ { kb = $2 }
                 END { if (name ~ /^hayate-h[0-9]/) print name, kb }' "$status" 2>/dev/null || true
        done >>"$peaks"
        sleep 1
    done
}
sample &
sampler=$!
trap 'kill $sampler 2>/dev/null || true' EXIT

common=(--tc byoyomi=100 --games "$games" --concurrency 2 --seed 11 --margin "$margin"
    --openings "$root/book/openings.sfen" --max-plies 320)
engine() { # engine NAME OPTION...
    local name=$1
    shift
    local words=(--engine "cmd=$out/bin/hayate-$name" "name=$name")
    for o in "$@"; do words+=("option.$o"); done
    printf '%s\n' "${words[@]}"
}

leg() { # leg NUMBER ARGS...
    local n=$1
    shift
    echo "leg $n: hayate match $*" >&2
    "$hayate" match "$@" "${common[@]}" --out "$out/leg$n" >"$out/leg$n.log" 2>&1 || true
    tail -2 "$out/leg$n.log" >&2
}

mapfile -t a < <(engine h16t1 Threads=1 USI_Hash=16)
mapfile -t b < <(engine h64t2 Threads=2 USI_Hash=64)
leg 1 "${a[@]}" "${b[@]}" --reuse
mapfile -t a < <(engine h32mpv3 MultiPV=3 USI_Hash=32)
mapfile -t b < <(engine h8nnue USI_Hash=8 UseNNUE=true)
leg 2 "${a[@]}" "${b[@]}" --reuse
mapfile -t a < <(engine h16pon USI_Hash=16 USI_Ponder=true)
mapfile -t b < <(engine h32pon USI_Hash=32 USI_Ponder=true)
leg 3 "${a[@]}" "${b[@]}"
if [ -x "$fsf" ]; then
    mapfile -t a < <(engine h32 USI_Hash=32)
    leg 4 "${a[@]}" --engine "cmd=$fsf" name=fairy-stockfish option.Threads=1 option.USI_Hash=32 --reuse
else
    echo "leg 4 skipped: no Fairy-Stockfish at $fsf" >&2
fi
kill $sampler 2>/dev/null || true

# A bad ending counts against Hayate when Hayate is the side that scored 0 (Fairy-Stockfish's own
# faults are not ours). Lines look like: Finished game 7 (h32 vs fairy-stockfish): 0-1 {time forfeit} ...
{
    echo "soak: $(date -u '+%Y-%m-%d %H:%M UTC'), byoyomi 100 ms, margin $margin ms, $(git -C "$root" rev-parse --short HEAD)"
    cat "$out"/leg*.log |
        sed -n 's/^Finished game [0-9]* (\([^ ]*\) vs \([^)]*\)): \([^ ]*\) {\([^}]*\)}.*/\1|\2|\3|\4/p' |
        awk -F'|' '
        {
            games++
            loser = $3 == "1-0" ? $2 : ($3 == "0-1" ? $1 : "")
            if (loser ~ /^h[0-9]/) {
                if ($4 == "time forfeit") time++
                else if ($4 == "illegal move") illegal++
                else if ($4 ~ /crash|protocol/) crash++
                else if ($4 == "wrong declaration") wrong++
            }
        }
        END { printf "games %d: Hayate crashes %d, illegal moves %d, time losses %d, wrong declarations %d\n",
              games, crash, illegal, time, wrong }'
    for f in "$out"/leg*.log; do echo "$(basename "$f"): $(grep '^Score of' "$f" || echo 'no result')"; done
    awk '{ if ($2 > peak[$1]) peak[$1] = $2 } END { for (n in peak) printf "%s peak %.1f MiB\n", n, peak[n] / 1024 }' "$peaks" | sort
} | tee "$out/summary.txt"
