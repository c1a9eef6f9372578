#!/usr/bin/env bash
# Measures every row of the performance targets on the 16-core Linux machine in one call, with the
# chain and exclusive rows also pinned to 2, 4 and 8 of its cores (the 2-core baseline, and how the
# cost per operation grows with cores) and a perf profile of the chain where perf is installed.
#
# That machine has no Swift toolchain: it runs a statically linked, stripped release build of the
# benchmark, gzipped into .devbin/ (ignored by git through .git/info/exclude, so it travels only
# when the run tool is told to carry it). Every row compares with its baseline in the same run
# (Foundation, the Dispatch floor, the Operation floor): absolute times differ between machines.
#
# Here, on the machine with the toolchain (about 3 minutes on 2 cores):
#     Benchmarks/device-run.sh --prepare
# Then, with the run tool (about 7 minutes of the 10 a command may take; leave the rest of the
# device time for one rerun):
#     run(command: "Benchmarks/device-run.sh", carry: [".devbin"], timeout_s: 560)
# The tables land in $OUT/results.txt (and in the output tail), the progress of every round in
# $OUT/progress.log, the machine in $OUT/machine.txt. BUDGET=seconds (default 500) bounds the
# whole run: a step that would start after it is skipped and said so.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--prepare" ]]; then
    swift build -c release --static-swift-stdlib --product Benchmarks --scratch-path .build-static
    exclude="$(git rev-parse --git-path info/exclude)"
    grep -qxF "/.devbin/" "$exclude" 2>/dev/null || echo "/.devbin/" >>"$exclude"
    mkdir -p .devbin
    strip -o .devbin/Benchmarks .build-static/release/Benchmarks
    gzip -f .devbin/Benchmarks
    { git rev-parse HEAD; git status --porcelain --untracked-files=no | sed 's/^/modified: /'; } >.devbin/commit
    ls -l .devbin
    exit 0
fi

out="${OUT:-/tmp/device-run}"
mkdir -p "$out"
[[ -f .devbin/Benchmarks.gz ]] || { echo "no .devbin/Benchmarks.gz: run $0 --prepare first, then carry .devbin" >&2; exit 2; }
bin=/tmp/Benchmarks-static
gunzip -c .devbin/Benchmarks.gz >"$bin"
chmod +x "$bin"
{ echo "built from: $(cat .devbin/commit 2>/dev/null || echo unknown)"; nproc; lscpu | grep -E "Model name|^CPU\(s\)"; uname -r; grep PRETTY /etc/os-release; } >"$out/machine.txt"
cat "$out/machine.txt"

budget=${BUDGET:-500}
start=$SECONDS
# step TITLE SECONDS-IT-MAY-TAKE ARGS...: one run of the benchmark, its scenarios each in a fresh process.
# CPUS=list (taskset's, e.g. 0-1) runs it on those cores alone: the 2-core baseline in the same call.
step() {
    local title=$1 bound=$2
    shift 2
    local pin=()
    [[ -n "${CPUS:-}" ]] && pin=(taskset -c "$CPUS")
    local left=$((budget - (SECONDS - start)))
    if ((left < bound / 2)); then
        echo "## $title: SKIPPED, ${left} s of the budget left" | tee -a "$out/results.txt"
        return
    fi
    echo "## $title ($*)" | tee -a "$out/results.txt"
    timeout "$((bound < left ? bound : left))" "${pin[@]}" "$bin" "$@" 2>>"$out/progress.log" | tee -a "$out/results.txt" ||
        echo "## $title: exit $? (1: a row stalled or failed; 124: out of time)" | tee -a "$out/results.txt"
}

# 100k no-ops: plain queue, the library's queue against Foundation and both floors (Dispatch, the
# Operation floor), 1 condition + 1 observer, AsyncOperation.
step "100k rows" 170 noop-plain noop-conditional-queue dispatch-floor operation-floor condition-observer async-operation --rounds 3
# One exclusive category (≤ 1.0× a serial queue), limit 4 (≤ 1.0× a queue of 4), at 10k; 50k for linearity.
step "categories 10k" 60 exclusive-conditional-queue limited-conditional-queue --n 10000 --rounds 5
step "exclusive 50k" 40 exclusive-conditional-queue --n 50000 --rounds 3
# Chains on the library's queue: µs per operation against the 2-core figure, 50k ≤ 5.5× 10k.
step "chains" 40 chain-conditional-queue --n 10000,50000 --side ours --rounds 5
# The same binary on 2 of these cores, and on 4 and 8: µs per operation as cores are added is the
# contention (the issue's "no dearer per operation on 16 cores"), measured in the same call.
for cpus in 0-1 0-3 0-7; do
    CPUS=$cpus step "chain and exclusive 10k on cores $cpus" 30 chain-conditional-queue exclusive-conditional-queue --n 10000 --side ours --rounds 3
done
# Where the 16-core time goes, if the machine has perf (it has no toolchain; perf may be missing).
if command -v perf >/dev/null 2>&1; then
    perf record -F 999 -g -o "$out/perf.data" -- "$bin" chain-conditional-queue --n 10000 --side ours --rounds 3 \
        >/dev/null 2>>"$out/progress.log" &&
        perf report -i "$out/perf.data" --stdio --no-children 2>/dev/null | head -n 80 >"$out/profile.txt" || true
    rm -f "$out/perf.data"
else
    echo "## profile: no perf on this machine" | tee -a "$out/results.txt"
fi
# S35: 8 operations blocked in start(), then 1,000 quick ones, no limit (≤ 2× Foundation).
step "blocking (S35)" 40 blocking --rounds 3
# S36: a no-op on the library's queue recording an OperationTimeline, against none (≤ 1.3×).
step "timeline (S36)" 40 timeline --rounds 3
# Plain queue, where Foundation's scheduler is quadratic: at 2k (10k takes 20-40 s a round here).
step "plain-queue shapes" 120 chain-plain fan-out exclusive-plain fan-out-conditional-queue --n 2000 --rounds 3
# Memory per pending operation, and 10k tasks awaiting queue.run at once (thread growth).
step "memory and tasks" 60 memory concurrent-run --rounds 3

echo "total: $((SECONDS - start)) s" | tee -a "$out/results.txt"
