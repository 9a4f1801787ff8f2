# Sourced by ./gantry (after bench/chaos.sh, whose consumer_lag it uses): `./gantry soak` runs jobs at a fixed rate
# through the live pipeline for a bounded time and samples, every --every-s seconds, each process's heap in use (the
# services' /q/metrics; the broker's through jstat), its RSS and the summed consumer lag. It writes soak.csv, a PNG
# of the three over time (bench/SoakChart.java, drawn with the CLI's LineChart) and soak.json with the figures:
# first and last minute's means, so that growth shows as a ratio.

soak_usage() {
  cat <<USAGE
usage: ./gantry soak [--rate R] [--duration-s S] [--every-s S] [--ready-timeout-s S] [--out DIR]
  --rate R             jobs/s submitted (200)
  --duration-s S       how long jobs are submitted (600)
  --every-s S          sampling period (10)
  --ready-timeout-s S  how long a service may take to start (900)
  --out DIR            where soak.csv, soak.png and soak.json go (bench/results/soak-<time>)
USAGE
}

heap_mib() { # heap_mib NAME PID: heap in use, MiB
  if [ "$1" = kafka-broker ]; then
    jstat -gc "$2" 2>/dev/null | awk 'NR == 2 {printf "%.1f", ($3 + $4 + $6 + $8) / 1024}'
  else
    chaos_http "http://localhost:$(service_port "$1")/q/metrics" 2>/dev/null |
      awk '/^jvm_memory_used_bytes\{.*area="heap"/ {s += $NF} END {printf "%.1f", s / 1048576}'
  fi
}

soak_sample() { # soak_sample T0 CSV: one line a process: t,name,heap_mib,rss_mib,lag
  local t0=$1 csv=$2 t lag name pid rss
  t=$((SECONDS - t0))
  lag=$(consumer_lag)
  for name in kafka-broker "${SERVICE_NAMES[@]}"; do
    pid=$(cat "$RUN/pids/$name" 2>/dev/null) || continue
    rss=$(awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status" 2>/dev/null)
    echo "$t,$name,$(heap_mib "$name" "$pid"),${rss:-0},$lag" >>"$csv"
  done
}

cmd_soak() {
  local rate=200 duration=600 every=10 ready_timeout=900 out='' speedup=1000000
  campaign_parse soak "--rate rate --duration-s duration --every-s every --ready-timeout-s ready_timeout --out out" "$@" || return $(($? == 1 ? 0 : 2))
  campaign_numbers soak "$rate" "$duration" "$every" "$ready_timeout" || return 2
  campaign_start soak "$ready_timeout" "$speedup"
  log "soak: $rate jobs/s for ${duration}s; results in $out"
  local csv=$out/soak.csv t0=$SECONDS
  echo "t_s,process,heap_mib,rss_mib,consumer_lag" >"$csv"
  cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --speedup "$speedup" --service-events "$EVENTS" \
    --jobs $((rate * duration)) --rate "$rate" --exit-when-done --timeout-s $((duration * 3 + 600)) \
    --summary "$out/replay.json" >"$out/replay.log" 2>&1 &
  local replay=$!
  PIDS+=("$replay")
  while kill -0 "$replay" 2>/dev/null; do
    soak_sample "$t0" "$csv"
    sleep "$every"
  done
  soak_sample "$t0" "$csv"
  cp "$EVENTS" "$out/supervisor.log"
  local rc=0
  java -cp "$CLI_JAR" "$ROOT/bench/SoakChart.java" "$csv" "$out/replay.json" "$out/soak.png" "$out/soak.json" || rc=1
  stop_all "$rc"
}
