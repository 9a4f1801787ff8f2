#!/usr/bin/env bash
# Issue 20's ablation on Philly's reporting split (2017-10-16 to 10-31), at rho 0.8, 1.0 and 1.2, three seeds:
# prior-only, trained, trained + online learning during the replay, tiresias, qssf, srpt-oracle, and any extra
# trained variant. Seed s replays window s of the reporting split; a trained row's seed s uses the checkpoint
# trained with seed s, so its spread covers both the training seed and the window. One bench process at a time.
#
#   bench/sac-ablation.sh PRIOR_DIR TRAINED_DIRS [NAME=DIRS ...]
#     PRIOR_DIR     checkpoint of an untrained agent (./gantry train ... --episodes 1 --updates 0)
#     TRAINED_DIRS  three checkpoints, comma-separated, for seeds 1,2,3 (./gantry train --split train --seed S)
#     NAME=DIRS     another trained variant, three checkpoints likewise (a separate row)
#   env: JOBS (window size, default 5000), ONLINE_UPDATES (gradient steps per transition in the online row,
#        default 0.25, as offline training), OUT (default bench/results/sac-ablation-<timestamp>),
#        SPLIT (default report; validate to choose between variants before the one run on report)
#
# Prints the table and writes OUT/ablation.csv and OUT/ablation.json (bench/sac_ablation_table.py); every replay's
# own summary.json stays under OUT/<row>/. Needs the CLI jar (./mvnw -B -q -DskipTests package -pl sac-trainer -am).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 2 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
PRIOR="$1"; TRAINED="$2"; shift 2
JAR="$ROOT/sac-trainer/target/sac-trainer-0.1.0-SNAPSHOT.jar"
SHARED="${GANTRY_SHARED_DIR:-$ROOT/../shared}"
JOBS="${JOBS:-5000}"
ONLINE="${ONLINE_UPDATES:-0.25}"
OUT="${OUT:-$ROOT/bench/results/sac-ablation-$(date -u +%Y%m%d-%H%M%S)}"
[ -f "$JAR" ] || { echo "missing $JAR: ./mvnw -B -q -DskipTests package -pl sac-trainer -am" >&2; exit 2; }
mkdir -p "$OUT"
SPLIT="${SPLIT:-report}"
COMMON=(--trace philly --split "$SPLIT" --load 0.8,1.0,1.2 --jobs "$JOBS")

bench() { # bench OUT_SUBDIR FLAGS...
  local dir="$OUT/$1"; shift
  echo "$(date -u +%H:%M:%S) $dir (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  nice -n 10 java -Dgantry.shared.dir="$SHARED" -Dai.djl.pytorch.num_threads=1 -Dai.djl.pytorch.num_interop_threads=1 -jar "$JAR" bench "${COMMON[@]}" "$@" --out "$dir" \
      > "$dir.txt" 2> "$dir.err" || { tail -20 "$dir.err" >&2; exit 1; }
}

per_seed() { # per_seed ROW DIRS [extra --policy-setting ...]: one replay set per seed with that seed's checkpoint
  local row="$1" dirs="$2"; shift 2
  IFS=, read -r -a ck <<< "$dirs"
  [ "${#ck[@]}" = 3 ] || { echo "$row: needs three checkpoints (seeds 1,2,3), got '$dirs'" >&2; exit 2; }
  for s in 1 2 3; do
    bench "$row-s$s" --seeds "$s" --policies sac --policy-setting "sac.checkpoint=${ck[$((s - 1))]}" "$@"
  done
}

START=$(date +%s)
bench baselines --seeds 1,2,3 --policies tiresias,qssf,srpt-oracle
bench prior-only --seeds 1,2,3 --policies sac --policy-setting "sac.checkpoint=$PRIOR"
per_seed trained "$TRAINED"
per_seed trained+online "$TRAINED" --policy-setting "sac.replay-learning=$ONLINE"
for variant in "$@"; do
  per_seed "${variant%%=*}" "${variant#*=}"
done
echo "replays took $(( $(date +%s) - START )) s; load average now $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 "$ROOT/bench/sac_ablation_table.py" "$OUT" "$SPLIT"
