# Sourced by ./gantry (after bench/chaos.sh, whose helpers it uses): `./gantry soak` runs jobs at a fixed rate through
# the live pipeline for a bounded time and samples, every --every-s seconds, each process's heap in use (the services'
# /q/metrics; the broker's through jstat), its RSS and its CPU seconds so far into soak.csv, while one long-lived JVM (bench/LagSampler.java)
# writes each consumer group's lag to lag.csv. After the last job it goes on sampling until the summed lag is back to
# SOAK_DRAIN_FLOOR records or --drain-s has passed: a backlog drains once the load stops, a leak does not. It writes a
# PNG of the three over time (bench/SoakChart.java, drawn with the CLI's LineChart) and soak.json with the figures:
# first and last fifth's means, so that growth shows as a ratio, and how long the lag took to drain; at the end,
# live-heap.csv: each process's heap after a full collection (and histogram-NAME.txt, what holds it).

# Records of summed lag that count as drained: gantry.cluster.metrics is written all the time, so never 0.
SOAK_DRAIN_FLOOR=1000

soak_usage() {
  cat <<USAGE
usage: ./gantry soak [--rate R] [--duration-s S] [--every-s S] [--drain-s S] [--nodes N] [--ready-timeout-s S]
                    [--off-path-nice N] [--out DIR]
  --rate R             jobs/s submitted (200)
  --duration-s S       how long jobs are submitted (600)
  --every-s S          sampling period (10)
  --drain-s S          after the last job, how long to wait for the consumer lag to fall back to $SOAK_DRAIN_FLOOR
                       records (900); the wait ends as soon as it does
  --nodes N            simulated 8-GPU nodes (40, as bench-pipeline: at 1,000,000x a job holds its GPUs mostly for
                       the pipeline's round trip, so 13 nodes would measure that latency, not growth)
  --ready-timeout-s S  how long a service may take to start (900)
  --off-path-nice N    nice level of priority-accounting, metrics-ingest and the studio (0: as the rest). A soak asks
                       whether every consumer keeps up, so it runs them at the path's priority by default; 10 is
                       ./gantry up's GANTRY_OFF_PATH_NICE, where they yield to the path and fall behind on a saturated
                       machine until the load stops
  --out DIR            where soak.csv, soak.png and soak.json go (bench/results/soak-<time>)
USAGE
}

heap_mib() { # heap_mib NAME PID: heap in use, MiB; nothing when it cannot be read (the sample is then left out)
  if [ "$1" = kafka-broker ]; then
    # jstat is a JVM of its own: started small, as the services are.
    jstat -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -J-Xmx32m -gc "$2" 2>/dev/null |
      awk 'NR == 2 {printf "%.1f", ($3 + $4 + $6 + $8) / 1024}'
  else
    chaos_http "http://localhost:$(service_port "$1")/q/metrics" 2>/dev/null |
      awk '/^jvm_memory_used_bytes\{.*area="heap"/ {s += $NF; n++} END {if (n) printf "%.1f", s / 1048576}'
  fi
}

soak_live_heap() { # soak_live_heap OUT: each process's live heap after a full collection, and what holds it
  # GC.class_histogram collects first, so its total is what the process still holds once the load is over, where
  # the sampled heap in use also counts garbage not yet collected. The whole histogram is kept per process.
  local name pid
  echo "process,live_heap_mib" >"$1/live-heap.csv"
  for name in kafka-broker "${SERVICE_NAMES[@]}"; do
    pid=$(cat "$RUN/pids/$name" 2>/dev/null) || continue
    jcmd "$pid" GC.class_histogram >"$1/histogram-$name.txt" 2>/dev/null || continue
    awk -v n="$name" '$1 == "Total" {printf "%s,%.1f\n", n, $3 / 1048576}' "$1/histogram-$name.txt" >>"$1/live-heap.csv"
  done
}

cpu_s() { # cpu_s PID: CPU seconds the process has used (user + system), from /proc/PID/stat
  # Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($12 + $13) / hz}'
}

soak_sample() { # soak_sample T0 CSV: one line a process: t,name,heap_mib,rss_mib,cpu_s (t: seconds since T0, epoch seconds)
  local t0=$1 csv=$2 t name pid rss
  t=$(($(date +%s) - t0))
  for name in kafka-broker "${SERVICE_NAMES[@]}"; do
    pid=$(cat "$RUN/pids/$name" 2>/dev/null) || continue
    rss=$(awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status" 2>/dev/null)
    echo "$t,$name,$(heap_mib "$name" "$pid"),${rss:-0},$(cpu_s "$pid")" >>"$csv"
  done
}

soak_drained() { # soak_drained LAG_CSV SINCE_S: the last lag sample is from SINCE_S on and sums to the floor or less
  # LagSampler writes each sample's lines at once, so the lines of the last t_s are one whole sample.
  awk -F, -v since="$2" -v floor="$SOAK_DRAIN_FLOOR" 'NR > 1 { if ($1 != t) { t = $1; s = 0 } s += $3 }
    END { exit !(t != "" && t + 0 >= since + 0 && s <= floor + 0) }' "$1"
}

cmd_soak() {
  local rate=200 duration=600 every=10 drain=900 ready_timeout=900 out='' speedup=1000000 nodes=40 off_path_nice=0
  campaign_parse soak "--rate rate --duration-s duration --every-s every --drain-s drain --ready-timeout-s ready_timeout --nodes nodes --off-path-nice off_path_nice --out out" "$@" || return $(($? == 1 ? 0 : 2))
  if ! [[ "$off_path_nice" =~ ^[0-9]+$ ]] || [ "$off_path_nice" -gt 19 ]; then
    log "soak: --off-path-nice takes a nice level from 0 to 19, got '$off_path_nice'"
    return 2
  fi
  campaign_numbers soak "$rate" "$duration" "$every" "$drain" "$ready_timeout" "$nodes" || return 2
  OFF_PATH_NICE=$off_path_nice
  campaign_start soak "$ready_timeout" "$speedup" "$nodes"
  log "soak: $rate jobs/s for ${duration}s on $nodes simulated nodes, off-path services at nice $OFF_PATH_NICE; results in $out"
  local csv=$out/soak.csv lags=$out/lag.csv t0
  t0=$(date +%s)
  echo "t_s,process,heap_mib,rss_mib,cpu_s" >"$csv"
  echo "t_s,group,consumer_lag" >"$lags"
  local login=-
  [ ! -f "$KAFKA_USERS" ] || login=$RUN/security/kafka-admin.properties
  java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "$RUN_MARK" -cp "$ROOT/embedded-kafka/target/lib/*" \
    "$ROOT/bench/LagSampler.java" "localhost:$KAFKA_PORT" "$login" "$every" "$t0" "$lags" 2>"$out/lag-sampler.log" &
  PIDS+=($!)
  # --wrap: the Philly trace's 52,849 jobs last 264 s at 200 jobs/s; a longer soak goes round it with new job ids.
  cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --speedup "$speedup" --service-events "$EVENTS" \
    --jobs $((rate * duration)) --wrap --rate "$rate" --exit-when-done --timeout-s $((duration * 3 + 600)) \
    --summary "$out/replay.json" >"$out/replay.log" 2>&1 &
  local replay=$!
  PIDS+=("$replay")
  local next
  while kill -0 "$replay" 2>/dev/null; do
    next=$(($(date +%s) + every))
    soak_sample "$t0" "$csv"
    # Every --every-s from the start of one sample to the next, however long a sample takes.
    while [ "$(date +%s)" -lt "$next" ] && kill -0 "$replay" 2>/dev/null; do sleep 1; done
  done
  local replay_end=$(($(date +%s) - t0)) drain_until=$(($(date +%s) + drain))
  log "soak: the replay ended at ${replay_end}s; sampling until the consumer lag is back to $SOAK_DRAIN_FLOOR records (at most ${drain}s)"
  while [ "$(date +%s)" -lt "$drain_until" ]; do
    next=$(($(date +%s) + every))
    soak_sample "$t0" "$csv"
    if soak_drained "$lags" "$replay_end"; then break; fi
    while [ "$(date +%s)" -lt "$next" ]; do sleep 1; done
  done
  soak_sample "$t0" "$csv"
  # One more lag look, after the last sample.
  sleep "$every"
  soak_live_heap "$out"
  cp "$EVENTS" "$out/supervisor.log"
  local rc=0
  java -cp "$CLI_JAR" "$ROOT/bench/SoakChart.java" "$csv" "$lags" "$out/replay.json" "$out/soak.png" "$out/soak.json" \
    "$replay_end" "$SOAK_DRAIN_FLOOR" || rc=1
  stop_all "$rc"
}
