#!/usr/bin/env bash
# Issue 21's one-run comparisons: Gantry's tuner modes (off, once, adaptive) under each scheduler against the
# `pollux` peer baseline, on Pollux's 8 workloads at loads 0.5, 1.0 and 1.5 (folders workloads-0.5, workloads,
# workloads-1.5) in Pollux's setting (16 nodes x 4 GPUs) and in Gantry's (13 x 8). `./gantry bench --trace pollux
# --policies pollux,tiresias,sac --tuner off,once,adaptive` runs all of it in one process; this script runs the same
# replays a process per shape, file and policy (every tuner mode in that one run, on the same jobs; pollux runs
# once, it sizes its jobs itself), so that a part can be re-run, policy by policy so the slow pollux replays (about
# 2 minutes a file) come last, then prints per-shape, per-folder means with each tuner mode against tuner off and
# Gantry's best configuration against pollux, and writes bench/results/pollux-adaptive/means.csv, means.json and
# summary.json (every run of every file, each with its shape and folder). Each run also writes jobs.csv (--per-job
# on), from which the means script takes Gantry's best against pollux apart by model (by-model.csv). Re-running with
# other --policies, --dirs or --shapes keeps the other results, so nothing need be repeated.
#
#   bench/pollux-adaptive.sh [--dirs "workloads workloads-0.5 workloads-1.5"] [--shapes "16x4 13x8"]
#                            [--policies "tiresias sac pollux"] [--tuner off,once,adaptive] [--preemption-cost S]
#                            [--tuner-scaling X] [--tuner-idle-scaling off|on|off,on]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIRS="workloads workloads-0.5 workloads-1.5"
SHAPES="16x4 13x8"
POLICIES="tiresias sac pollux"
TUNER="off,once,adaptive"
COST=0
SCALING=()
IDLE=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dirs) DIRS="$2"; shift 2 ;;
    --shapes) SHAPES="$2"; shift 2 ;;
    --policies) POLICIES="${2//,/ }"; shift 2 ;;
    --tuner) TUNER="$2"; shift 2 ;;
    --preemption-cost) COST="$2"; shift 2 ;;
    --tuner-scaling) SCALING=(--tuner-scaling "$2"); shift 2 ;;
    --tuner-idle-scaling) IDLE=(--tuner-idle-scaling "$2"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "pollux-adaptive.sh: unknown flag $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
SHARED="${GANTRY_SHARED_DIR:-$ROOT/../shared}"
WORKLOADS="$SHARED/traces/philly-pollux"
# The CLI jar itself, as ./gantry runs it, so that only the CLI need be built (./gantry builds the whole system).
JAR="$ROOT/sac-trainer/target/sac-trainer-0.1.0-SNAPSHOT.jar"
[ -f "$JAR" ] || { echo "missing $JAR: ./mvnw -B -q -DskipTests package -pl sac-trainer -am" >&2; exit 2; }
OUT="$ROOT/bench/results/pollux-adaptive"
mkdir -p "$OUT"

# Pollux's nodes: 4 GPUs, 64 vCPUs, 256 GiB; Gantry's: Alibaba's commonest GPU node, 8 GPUs, 96 vCPUs, 384 GiB.
node_flags() {
  case "$1" in
    16x4) echo "--nodes 16 --node-shape 4,64,256" ;;
    13x8) echo "--nodes 13 --node-shape 8,96,384" ;;
    *) echo "pollux-adaptive.sh: shape is 16x4 or 13x8, got $1" >&2; exit 2 ;;
  esac
}

for p in $POLICIES; do
  for s in $SHAPES; do
    read -r -a nodes <<<"$(node_flags "$s")"
    for d in $DIRS; do
      [ -d "$WORKLOADS/$d" ] || { echo "pollux-adaptive.sh: no folder $WORKLOADS/$d" >&2; exit 2; }
      mkdir -p "$OUT/$s/$d"
      for f in "$WORKLOADS/$d"/workload-*.csv; do
        w="$(basename "$f" .csv)"
        printf '%-10s %-5s %-14s %-12s\r' "$p" "$s" "$d" "$w" >&2
        rm -rf "$OUT/$s/$d/$w-$p"
        java -Xmx1g -Dai.djl.pytorch.num_threads=1 -Dai.djl.pytorch.num_interop_threads=1 -Dai.djl.offline=true \
          -Dgantry.shared.dir="$SHARED" -jar "$JAR" bench --trace pollux --trace-file "$f" "${nodes[@]}" --policies "$p" \
          --tuner "$TUNER" --preemption-cost "$COST" "${SCALING[@]}" "${IDLE[@]}" --per-job on --out "$OUT/$s/$d/$w-$p" > "$OUT/$s/$d/$w-$p.log" 2>&1 \
          || { echo "bench failed, see $OUT/$s/$d/$w-$p.log" >&2; exit 1; }
      done
    done
  done
done
echo >&2

python3 "$ROOT/bench/pollux-means.py" "$OUT"
