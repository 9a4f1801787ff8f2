# Sourced by ./gantry: `./gantry bench-pipeline` measures the live pipeline (not a test).
# Phase 1 pushes jobs as fast as one producer can for sustained throughput; phase 2 submits at a fixed rate
# for submit->bind latency. The simulated cluster is large and fast enough that no job waits for capacity,
# so latency is the pipeline's own: tuner, scheduler, dispatcher and four Kafka hops.

rss_sampler() { # rss_sampler OUTFILE: peak summed RSS (KiB) of every Gantry process, sampled every 0.5 s
  local out=$1 peak=0
  while true; do
    local sum=0
    for p in "${PIDS[@]}"; do
      local r
      r=$(awk '/VmRSS/{print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
      sum=$((sum + ${r:-0}))
    done
    [ "$sum" -gt "$peak" ] && peak=$sum && echo "$peak" >"$out"
    sleep 0.5
  done
}

bench_pipeline() {
  local jobs=10000 rate=200 latency_jobs=3000 warmup=3000 nodes=40 speedup=1000000
  while [ $# -gt 0 ]; do
    case "$1" in
      --jobs) jobs=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --latency-jobs) latency_jobs=$2; shift 2 ;;
      --nodes) nodes=$2; shift 2 ;;
      --warmup) warmup=$2; shift 2 ;;
      *) echo "bench-pipeline: unknown flag $1 (flags: --jobs N --rate R --latency-jobs N --warmup N --nodes N)" >&2; return 2 ;;
    esac
  done
  local out="$ROOT/bench/results/pipeline"
  mkdir -p "$out"
  trap stop_all EXIT INT TERM
  local t0=$SECONDS
  start_system "$nodes" "$speedup"
  local ready_s=$((SECONDS - t0))
  rss_sampler "$out/peak_rss_kib" &
  local sampler=$!
  # Each phase replays its own slice of the Philly trace, so no job id repeats across phases.
  log "warm-up: $warmup jobs at $rate jobs/s (not measured: the JVMs compile their hot paths)"
  foreground cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --jobs "$warmup" --rate "$rate" \
    --speedup "$speedup" --exit-when-done --timeout-s 900 --summary "$out/warmup.json" >/dev/null
  log "phase 1: $jobs jobs as fast as one producer sends them"
  foreground cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --skip "$warmup" --jobs "$jobs" --rate 0 \
    --speedup "$speedup" --exit-when-done --timeout-s 900 --summary "$out/throughput.json" >/dev/null
  log "phase 2: $latency_jobs jobs at $rate jobs/s"
  foreground cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --skip "$((warmup + jobs))" --jobs "$latency_jobs" \
    --rate "$rate" --speedup "$speedup" --exit-when-done --timeout-s 900 --summary "$out/latency.json" >/dev/null
  kill "$sampler" 2>/dev/null || true
  python3 - "$out" "$ready_s" "$nodes" "$rate" <<'PY'
import json, sys, os
out, ready_s, nodes, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
t = json.load(open(os.path.join(out, "throughput.json")))
l = json.load(open(os.path.join(out, "latency.json")))
peak_kib = int(open(os.path.join(out, "peak_rss_kib")).read().strip() or 0)
res = {"jobs": t["submitted"], "sustained_jobs_per_s": round(t["jobs_per_s"], 1),
       "throughput_duplicates": t["duplicates"], "throughput_unfinished": t["unfinished"],
       "latency_rate_jobs_per_s": rate, "latency_jobs": l["submitted"],
       "p50_submit_to_bind_ms": round(l["p50_submit_to_bind_ms"], 1),
       "p99_submit_to_bind_ms": round(l["p99_submit_to_bind_ms"], 1),
       "peak_rss_gib": round(peak_kib / 1024 / 1024, 2), "ready_s": ready_s, "simulated_nodes": nodes}
json.dump(res, open(os.path.join(out, "summary.json"), "w"), indent=2)
targets = {"sustained_jobs_per_s": (">=", 500), "p99_submit_to_bind_ms": ("<=", 100),
           "peak_rss_gib": ("<=", 2.5), "ready_s": ("<=", 60)}
print(f"{'figure':28} {'value':>10}  target")
for k, v in res.items():
    tgt = targets.get(k)
    mark = ""
    if tgt:
        ok = v >= tgt[1] if tgt[0] == ">=" else v <= tgt[1]
        mark = f"{tgt[0]} {tgt[1]}  {'met' if ok else 'MISSED'}"
    print(f"{k:28} {v:>10}  {mark}")
print(f"written: {out}/summary.json")
PY
}
