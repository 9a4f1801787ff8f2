# Sourced by ./gantry: `./gantry bench-pipeline` measures the live pipeline (not a test).
# Phase 1 pushes jobs as fast as one producer can for sustained throughput; phase 2 submits at a fixed rate
# for submit->bind latency. The simulated cluster is large and fast enough that no job waits for capacity,
# so latency is the pipeline's own: tuner, scheduler, dispatcher and four Kafka hops.
# Every measured phase also records the CPU time (utime + stime from /proc/<pid>/stat) each process of the system
# spent, per job: unlike jobs/s, that figure holds when other programs share the machine.
# `--cpu` runs only the warm-up and the fixed-rate phase, for a quick CPU-per-job reading.

rss_sampler() { # rss_sampler OUTFILE: peak summed RSS (KiB) of every Gantry process and the load generator, every 0.5 s
  local out=$1 peak=0
  while true; do
    local sum=0
    for p in $(system_pids) "${PIDS[@]}"; do
      local r
      r=$(awk '/VmRSS/{print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
      sum=$((sum + ${r:-0}))
    done
    [ "$sum" -gt "$peak" ] && peak=$sum && echo "$peak" >"$out"
    sleep 0.5
  done
}

system_pids() { cat "$RUN"/pids/* 2>/dev/null || true; } # the java processes of the broker and the services

cpu_snapshot() { # cpu_snapshot OUTFILE: "name ticks" (utime + stime, all threads) of the broker and each service
  : >"$1"
  local name pid
  for name in kafka-broker "${SERVICE_NAMES[@]}"; do
    pid=$(cat "$RUN/pids/$name" 2>/dev/null || echo 0)
    echo "$name $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)" >>"$1"
  done
}

system_ticks() { awk '{s += $2} END {print s}' "$1"; }

settle() { # settle: until the system uses at most 0.4 s of CPU per second, twice in a row (at most 60 s)
  # Consumers off the submit->bind path (priority accounting) may still be working after the last job ended.
  local quiet=0 waited=0 a b
  while [ "$quiet" -lt 2 ] && [ "$waited" -lt 60 ]; do
    cpu_snapshot "$out/cpu_q"; a=$(system_ticks "$out/cpu_q"); sleep 1
    cpu_snapshot "$out/cpu_q"; b=$(system_ticks "$out/cpu_q"); waited=$((waited + 1))
    if [ $(((b - a) * 1000 / HZ)) -le 400 ]; then quiet=$((quiet + 1)); else quiet=0; fi
  done
}

measured_phase() { # measured_phase NAME REPLAY_ARGS...: one replay, with the system's CPU before and after it
  local name=$1; shift
  settle
  # The idle rate (3 s), to tell what a phase costs per job from what the system spends per second anyway.
  cpu_snapshot "$out/cpu_idle_$name"
  sleep 3
  cpu_snapshot "$out/cpu_before_$name"
  local t0=$SECONDS
  foreground cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --speedup "$speedup" --exit-when-done \
    --timeout-s 900 --summary "$out/$name.json" "$@" >/dev/null
  settle
  cpu_snapshot "$out/cpu_after_$name"
  echo $((SECONDS - t0)) >"$out/cpu_seconds_$name"
}

bench_pipeline() {
  local jobs=10000 rate=200 latency_jobs=3000 warmup=35000 warmup_rate=400 nodes=40 speedup=1000000 cpu_only=0
  # The backbone as issue 2 defines it decides with kube-default; --policy sac measures the learned policy instead.
  local policy=kube-default
  # The replay tool is the load generator, a fresh JVM per phase on the same two cores: C1 alone keeps its own
  # compiling (otherwise ~2 ms of CPU per job during the measured phase) from competing with the system measured.
  local CLI_JAVA_OPTS="${GANTRY_LOADGEN_JAVA_OPTS:--Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}"
  while [ $# -gt 0 ]; do
    case "$1" in
      --jobs) jobs=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --latency-jobs) latency_jobs=$2; shift 2 ;;
      --nodes) nodes=$2; shift 2 ;;
      --warmup) warmup=$2; shift 2 ;;
      --warmup-rate) warmup_rate=$2; shift 2 ;;
      --cpu) cpu_only=1; shift ;;
      --policy) policy=$2; shift 2 ;;
      *) echo "bench-pipeline: unknown flag $1 (flags: --jobs N --rate R --latency-jobs N --warmup N --warmup-rate R --nodes N --cpu --policy P)" >&2; return 2 ;;
    esac
  done
  local out="$ROOT/bench/results/pipeline"
  local HZ; HZ=$(getconf CLK_TCK)
  rm -f "$out"/cpu_* "$out"/throughput.json "$out"/latency.json
  mkdir -p "$out"
  trap stop_all EXIT INT TERM
  # A restarted process would spoil the CPU and latency figures: a death stops the measurement instead.
  MAX_RESTARTS=0
  local t0=$SECONDS
  GANTRY_SCHEDULER_POLICY="$policy" start_system "$nodes" "$speedup"
  local ready_s=$((SECONDS - t0))
  rss_sampler "$out/peak_rss_kib" &
  local sampler=$!
  # Each phase replays its own slice of the Philly trace, so no job id repeats across phases.
  log "warm-up: $warmup jobs at $warmup_rate jobs/s (not measured: the JVMs compile their hot paths)"
  foreground cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --jobs "$warmup" --rate "$warmup_rate" \
    --speedup "$speedup" --exit-when-done --timeout-s 900 --summary "$out/warmup.json" >/dev/null
  if [ "$cpu_only" = 0 ]; then
    log "phase 1: $jobs jobs as fast as one producer sends them"
    measured_phase throughput --skip "$warmup" --jobs "$jobs" --rate 0
  else
    jobs=0
  fi
  log "phase 2: $latency_jobs jobs at $rate jobs/s"
  measured_phase latency --skip "$((warmup + jobs))" --jobs "$latency_jobs" --rate "$rate"
  kill "$sampler" 2>/dev/null || true
  python3 - "$out" "$ready_s" "$nodes" "$rate" "$HZ" "$policy" <<'PY'
import json, sys, os
out, ready_s, nodes, rate, hz, policy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]

def cpu_ms_per_job(phase, jobs):
    """CPU milliseconds per job of each process over one phase, and their sum; idle CPU ms per second beside."""
    def read(f):
        return {n: int(t) for n, t in (l.split() for l in open(os.path.join(out, f)))}
    idle, before, after = read(f"cpu_idle_{phase}"), read(f"cpu_before_{phase}"), read(f"cpu_after_{phase}")
    per = {n: round((after[n] - before[n]) * 1000 / hz / jobs, 2) for n in after}
    per["total"] = round(sum(per.values()), 2)
    idle_ms_s = {n: round((before[n] - idle[n]) * 1000 / hz / 3, 1) for n in after}
    idle_ms_s["total"] = round(sum(idle_ms_s.values()), 1)
    return {"ms_per_job": per, "idle_ms_per_s": idle_ms_s,
            "seconds": int(open(os.path.join(out, f"cpu_seconds_{phase}")).read())}

phases = [p for p in ("throughput", "latency") if os.path.exists(os.path.join(out, f"{p}.json"))]
res = {}
cpu = {}
for p in phases:
    s = json.load(open(os.path.join(out, f"{p}.json")))
    cpu[p] = cpu_ms_per_job(p, s["submitted"])
    if p == "throughput":
        res.update({"jobs": s["submitted"], "sustained_jobs_per_s": round(s["jobs_per_s"], 1),
                    "throughput_duplicates": s["duplicates"], "throughput_unfinished": s["unfinished"]})
    else:
        res.update({"latency_rate_jobs_per_s": rate, "latency_jobs": s["submitted"],
                    "p50_submit_to_bind_ms": round(s["p50_submit_to_bind_ms"], 1),
                    "p99_submit_to_bind_ms": round(s["p99_submit_to_bind_ms"], 1),
                    "latency_duplicates": s["duplicates"], "latency_unfinished": s["unfinished"]})
peak_kib = int(open(os.path.join(out, "peak_rss_kib")).read().strip() or 0)
res.update({"peak_rss_gib": round(peak_kib / 1024 / 1024, 2), "ready_s": ready_s, "simulated_nodes": nodes, "policy": policy,
            "load_average_1m_at_end": os.getloadavg()[0], "cpu_ms_per_job": cpu})
json.dump(res, open(os.path.join(out, "summary.json"), "w"), indent=2)
targets = {"sustained_jobs_per_s": (">=", 500), "p99_submit_to_bind_ms": ("<=", 100),
           "peak_rss_gib": ("<=", 2.5), "ready_s": ("<=", 60)}
print(f"{'figure':28} {'value':>10}  target")
for k, v in res.items():
    if k == "cpu_ms_per_job":
        continue
    tgt = targets.get(k)
    mark = ""
    if tgt:
        ok = v >= tgt[1] if tgt[0] == ">=" else v <= tgt[1]
        mark = f"{tgt[0]} {tgt[1]}  {'met' if ok else 'MISSED'}"
    print(f"{k:28} {v:>10}  {mark}")
print(f"\n{'CPU ms per job (idle ms/s)':28}" + "".join(f" {p:>20}" for p in phases))
for n in cpu[phases[0]]["ms_per_job"]:
    print(f"{n:28}" + "".join(f" {cpu[p]['ms_per_job'][n]:>11} ({cpu[p]['idle_ms_per_s'][n]:>6})" for p in phases))
print(f"{'phase seconds':28}" + "".join(f" {cpu[p]['seconds']:>20}" for p in phases))
print(f"written: {out}/summary.json")
PY
}
