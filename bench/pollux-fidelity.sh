#!/usr/bin/env bash
# Fidelity of Gantry's `pollux` policy (a re-implementation of Pollux, OSDI'21) against Pollux's published mean
# average JCT over its 8 workloads, in Pollux's own setting (16 nodes x 4 GPUs), at loads 0.5, 1.0 and 1.5
# (folders workloads-0.5, workloads, workloads-1.5). One `gantry bench` per workload file; the three folders run
# in parallel. Writes bench/results/pollux-fidelity/means.csv and prints it.
#
#   bench/pollux-fidelity.sh [--dirs "workloads-0.5 workloads workloads-1.5"]
#
# Needs the CLI jar (./mvnw -B -q -DskipTests package -pl sac-trainer -am).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIRS="workloads-0.5 workloads workloads-1.5"
while [ $# -gt 0 ]; do
  case "$1" in
    --dirs) DIRS="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "pollux-fidelity.sh: unknown flag $1 (--help lists them)" >&2; exit 2 ;;
  esac
done
JAR="$ROOT/sac-trainer/target/sac-trainer-0.1.0-SNAPSHOT.jar"
SHARED="${GANTRY_SHARED_DIR:-$ROOT/../shared}"
[ -f "$JAR" ] || { echo "missing $JAR: ./mvnw -B -q -DskipTests package -pl sac-trainer -am" >&2; exit 2; }
WORKLOADS="$SHARED/traces/philly-pollux"
OUT="$ROOT/bench/results/pollux-fidelity"
rm -rf "$OUT"
mkdir -p "$OUT"

run_dir() {
  local d="$1"
  mkdir -p "$OUT/$d"
  for f in "$WORKLOADS/$d"/workload-*.csv; do
    local w
    w="$(basename "$f" .csv)"
    java -Xmx1g -Dgantry.shared.dir="$SHARED" -jar "$JAR" bench --trace pollux --trace-file "$f" --nodes 16 \
      --node-shape 4,64,256 --policies pollux --tuner off --out "$OUT/$d/$w" > "$OUT/$d/$w.log" 2>&1 \
      || { echo "bench failed, see $OUT/$d/$w.log" >&2; return 1; }
  done
}
pids=()
for d in $DIRS; do
  [ -d "$WORKLOADS/$d" ] || { echo "pollux-fidelity.sh: no folder $WORKLOADS/$d" >&2; exit 2; }
  run_dir "$d" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done

python3 - "$OUT" <<'PY'
import csv, glob, json, os, sys
out = sys.argv[1]
# Pollux (OSDI'21) Table 3 / artifact: mean average JCT of Pollux (p = -1) over the 8 workloads, 16 x 4 GPUs.
published = {"workloads-0.5": 1534, "workloads": 2751, "workloads-1.5": 3685}
load = {"workloads-0.5": 0.5, "workloads": 1.0, "workloads-1.5": 1.5}
print(f"{'workloads':<14} {'load':>4} {'files':>5} {'pollux (Gantry) s':>18} {'Pollux published s':>19} {'diff':>7}")
with open(f"{out}/means.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["workloads", "load", "files", "avg_jct_s", "published_s", "diff_ratio"])
    for d in sorted(published, key=load.get):
        runs = [r for p in sorted(glob.glob(f"{out}/{d}/*/summary.json")) for r in json.load(open(p))["runs"]]
        if not runs:
            continue
        jct = sum(r["avg_jct_s"] for r in runs) / len(runs)
        diff = jct / published[d] - 1
        print(f"{d:<14} {load[d]:>4} {len(runs):>5} {jct:>18.0f} {published[d]:>19} {diff:>+7.1%}")
        w.writerow([d, load[d], len(runs), round(jct, 1), published[d], round(diff, 4)])
PY
