#!/usr/bin/env bash
# Tuner on vs off on the Pollux workloads, in Pollux's own setting (16 nodes x 4 GPUs): runs `gantry bench`
# once per workload file, policy and tuner setting, then prints per-folder means (the figures bench/README.md
# quotes) and writes them to bench/results/pollux-tuner/means.csv.
#
#   bench/pollux-tuner.sh [--dirs "workloads workloads-0.5 workloads-1.5"] [--policies tiresias]
#                         [--tuner-scaling E]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIRS="workloads workloads-0.5 workloads-1.5"
POLICIES="tiresias"
SCALING=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dirs) DIRS="$2"; shift 2 ;;
    --policies) POLICIES="${2//,/ }"; shift 2 ;;
    --tuner-scaling) SCALING=(--tuner-scaling "$2"); shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "pollux-tuner.sh: unknown flag $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
WORKLOADS="$ROOT/../shared/traces/philly-pollux"
OUT="$ROOT/bench/results/pollux-tuner"
rm -rf "$OUT"
mkdir -p "$OUT"

for d in $DIRS; do
  [ -d "$WORKLOADS/$d" ] || { echo "pollux-tuner.sh: no folder $WORKLOADS/$d" >&2; exit 2; }
  mkdir -p "$OUT/$d"
  for f in "$WORKLOADS/$d"/workload-*.csv; do
    w="$(basename "$f" .csv)"
    for p in $POLICIES; do
      for t in off on; do
        printf '%-14s %-12s %-12s tuner %-3s\r' "$d" "$w" "$p" "$t" >&2
        "$ROOT/gantry" bench --trace pollux --trace-file "$f" --nodes 16 --node-shape 4,64,256 --policies "$p" \
          --tuner "$t" "${SCALING[@]}" --out "$OUT/$d/$w-$p-$t" > "$OUT/$d/$w-$p-$t.log" 2>&1 \
          || { echo "bench failed, see $OUT/$d/$w-$p-$t.log" >&2; exit 1; }
      done
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
        rows.setdefault((d, r["policy"], str(r["tuner"]).lower()), []).append(r)
print(f"{'workloads':<14} {'policy':<12} {'tuner':<6} {'files':>5} {'avg JCT s':>10} {'GPU-hours':>10} {'target reached':>15}")
with open(f"{out}/means.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["workloads", "policy", "tuner", "files", "avg_jct_s", "gpu_hours", "min_target_reached_ratio"])
    for (d, p, t), rs in sorted(rows.items()):
        jct = sum(r["avg_jct_s"] for r in rs) / len(rs)
        gh = sum(r["gpu_hours"] for r in rs) / len(rs)
        tr = min(r["target_reached_ratio"] for r in rs)
        print(f"{d:<14} {p:<12} {t:<6} {len(rs):>5} {jct:>10.0f} {gh:>10.1f} {tr:>15.3f}")
        w.writerow([d, p, t, len(rs), round(jct, 1), round(gh, 2), tr])
PY
