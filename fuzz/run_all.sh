#!/usr/bin/env bash
# Runs fuzz targets one after another, each for SECONDS (default 600), at the lowest priority,
# growing fuzz/corpus/<target>/; crashes go to fuzz/artifacts/<target>/ and each run's log,
# whose last lines hold the exec count and coverage, to fuzz/logs/<target>.log.
#   fuzz/run_all.sh [SECONDS] [TARGET...]        (build first: cargo +nightly fuzz build)
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=($(ls fuzz_targets | sed 's/\.rs$//'))
fi
bin=target/x86_64-unknown-linux-gnu/release
mkdir -p logs
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    # An input that runs this long is a hang. The composer's check runs a df-pn solve and a
    # bounded search an input, a second or two alone but ten and more beside other work,
    # which stopped runs on false timeouts.
    timeout=10
    case "$t" in
        tsume_check) timeout=120 ;;
    esac
    echo "$(date +%T) $t: ${seconds}s"
    nice -n 19 "$bin/$t" "corpus/$t" -max_total_time="$seconds" -timeout="$timeout" \
        -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"logs/$t.log" 2>&1
    echo "$(date +%T) $t: exit $?; $(grep -E 'DONE' "logs/$t.log" | tail -1)"
done
