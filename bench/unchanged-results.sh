#!/usr/bin/env bash
# Guard for refactors of the scheduling engine: runs a fixed, small set of `gantry bench` replays (every policy,
# openb and Philly windows, two loads, two seeds, with and without preemption cost and fair share) and compares
# every figure of every run's summary.json with a recorded baseline, except wall_s (machine time).
#
#   bench/unchanged-results.sh record [DIR]   # run the set and keep it as the baseline (default bench/results/unchanged-baseline)
#   bench/unchanged-results.sh check  [DIR]   # run the set again and compare with the baseline; exit 1 on any difference
#
# Needs the CLI jar (./mvnw -B -q -DskipTests package -pl sac-trainer -am). About 2 minutes on 2 cores.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODE="${1:-check}"
BASE="${2:-$ROOT/bench/results/unchanged-baseline}"
JAR="$ROOT/sac-trainer/target/sac-trainer-0.1.0-SNAPSHOT.jar"
SHARED="${GANTRY_SHARED_DIR:-$ROOT/../shared}"
[ -f "$JAR" ] || { echo "missing $JAR: ./mvnw -B -q -DskipTests package -pl sac-trainer -am" >&2; exit 2; }
POLICIES="kube-default,binpack,drf,tiresias,qssf,srpt-oracle,sac"
# name|flags: each a separate bench invocation, written to its own folder.
RUNS=(
  "openb|--trace openb --jobs 1500 --load 1.0,1.3 --seeds 1,2"
  "philly|--trace philly --jobs 1500 --load 1.0,1.3 --seeds 1,2"
  "philly-cost|--trace philly --jobs 1000 --load 1.2 --seeds 3 --preemption-cost 30"
  "openb-fair|--trace openb --jobs 1000 --load 1.2 --seeds 3 --fair on"
  "philly-fair|--trace philly --jobs 1000 --load 1.2 --seeds 3 --fair on"
)
case "$MODE" in
  record) OUT="$BASE" ;;
  check) [ -d "$BASE" ] || { echo "no baseline in $BASE: run '$0 record' on the commit before the refactor" >&2; exit 2; }
         OUT="$ROOT/bench/results/unchanged-check" ;;
  *) echo "usage: $0 record|check [BASELINE_DIR]" >&2; exit 2 ;;
esac
rm -rf "$OUT"
mkdir -p "$OUT"
for r in "${RUNS[@]}"; do
  name="${r%%|*}"
  # shellcheck disable=SC2086
  java -Xmx1g -Dai.djl.offline=true -Dai.djl.pytorch.num_threads=1 -Dai.djl.pytorch.num_interop_threads=1 \
    -Dgantry.shared.dir="$SHARED" -jar "$JAR" bench ${r#*|} --policies "$POLICIES" --out "$OUT/$name" \
    >"$OUT/$name.log" 2>&1 || { echo "bench $name failed, see $OUT/$name.log" >&2; tail -5 "$OUT/$name.log" >&2; exit 2; }
done
if [ "$MODE" = check ]; then
  python3 "$ROOT/bench/compare-summaries.py" "$BASE" "$OUT"
else
  echo "baseline recorded in $BASE ($(git -C "$ROOT" rev-parse --short HEAD))"
fi
