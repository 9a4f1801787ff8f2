#!/usr/bin/env bash
# Gantry's tuner modes (off, once, adaptive) under each scheduler against the `pollux` peer baseline, in Pollux's
# setting (16 nodes x 4 GPUs): runs `gantry bench` once per workload file and policy (every tuner mode in that one
# run, on the same jobs; pollux runs once, it sizes its jobs itself), then prints per-folder means and writes them to
# bench/results/pollux-adaptive/means.csv. Re-running with other --policies keeps the other policies' results, so the
# slow pollux replays (about 2 minutes a file) need not be repeated.
#
#   bench/pollux-adaptive.sh [--dirs "workloads workloads-0.5 workloads-1.5"] [--policies "pollux tiresias sac"]
#                            [--tuner off,once,adaptive] [--preemption-cost S] [--tuner-scaling X]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIRS="workloads"
POLICIES="pollux tiresias sac"
TUNER="off,once,adaptive"
COST=0
SCALING=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dirs) DIRS="$2"; shift 2 ;;
    --policies) POLICIES="${2//,/ }"; shift 2 ;;
    --tuner) TUNER="$2"; shift 2 ;;
    --preemption-cost) COST="$2"; shift 2 ;;
    --tuner-scaling) SCALING=(--tuner-scaling "$2"); shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "pollux-adaptive.sh: unknown flag $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
WORKLOADS="${GANTRY_SHARED_DIR:-$ROOT/../shared}/traces/philly-pollux"
OUT="$ROOT/bench/results/pollux-adaptive"
mkdir -p "$OUT"

for d in $DIRS; do
  [ -d "$WORKLOADS/$d" ] || { echo "pollux-adaptive.sh: no folder $WORKLOADS/$d" >&2; exit 2; }
  mkdir -p "$OUT/$d"
  for f in "$WORKLOADS/$d"/workload-*.csv; do
    w="$(basename "$f" .csv)"
    for p in $POLICIES; do
      printf '%-14s %-12s %-10s\r' "$d" "$w" "$p" >&2
      rm -rf "$OUT/$d/$w-$p"
      "$ROOT/gantry" bench --trace pollux --trace-file "$f" --nodes 16 --node-shape 4,64,256 --policies "$p" \
        --tuner "$TUNER" --preemption-cost "$COST" "${SCALING[@]}" --out "$OUT/$d/$w-$p" > "$OUT/$d/$w-$p.log" 2>&1 \
        || { echo "bench failed, see $OUT/$d/$w-$p.log" >&2; exit 1; }
    done
  done
done
echo >&2

python3 - "$OUT" <<'PY'
import csv, glob, json, os, sys
out = sys.argv[1]
rows = {}
for path in sorted(glob.glob(f"{out}/*/*/summary.json")):
    d = os.path.basename(os.path.dirname(os.path.dirname(path)))
    for r in json.load(open(path))["runs"]:
        # pollux sizes its jobs itself: the tuner does not apply to it ("own"; replays before the tuner modes say "off")
        t = "own" if r["policy"] == "pollux" else str(r["tuner"]).lower()
        rows.setdefault((d, r["policy"], t), []).append(r)
order = {"own": 0, "off": 1, "once": 2, "adaptive": 3}
print(f"{'workloads':<14} {'policy':<10} {'tuner':<9} {'files':>5} {'avg JCT s':>10} {'GPU-hours':>10} "
      f"{'makespan s':>11} {'target reached':>15}")
with open(f"{out}/means.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["workloads", "policy", "tuner", "files", "avg_jct_s", "gpu_hours", "makespan_s", "min_target_reached_ratio"])
    for (d, p, t), rs in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1] != "pollux", kv[0][1], order.get(kv[0][2], 9))):
        n = len(rs)
        jct = sum(r["avg_jct_s"] for r in rs) / n
        gh = sum(r["gpu_hours"] for r in rs) / n
        mk = sum(r["makespan_s"] for r in rs) / n
        tr = min(r["target_reached_ratio"] for r in rs)
        name = p + ("†" if p == "pollux" else "")
        print(f"{d:<14} {name:<10} {t:<9} {n:>5} {jct:>10.0f} {gh:>10.1f} {mk:>11.0f} {tr:>15.3f}")
        w.writerow([d, p, t, n, round(jct, 1), round(gh, 2), round(mk, 1), tr])
PY
