# Sourced by ./gantry (after bench/chaos.sh, whose consumer_lag it uses): `./gantry fuzz` starts the system the way
# `./gantry up` does, replays valid jobs through it, and meanwhile sends mutated events into every consumed topic and
# mutated requests to every REST operation of the services' OpenAPI documents (bench/fuzz.py). It fails (exit code 1)
# on any 5xx, unanswered request, process death, consumer lag left behind, or valid job lost or duplicated.

fuzz_usage() {
  cat <<USAGE
usage: ./gantry fuzz [--inputs N] [--seed S] [--valid-jobs V] [--ready-timeout-s S] [--out DIR] [--token-file F]
  --inputs N           mutated inputs, half events and half requests (20000)
  --seed S             seeds the mutations (17)
  --valid-jobs V       valid jobs replayed alongside, each must end exactly once (200)
  --ready-timeout-s S  how long a service may take to start (900)
  --out DIR            where fuzz.json and the raw outcomes go (bench/results/fuzz-<time>)
  --token-file F       a bearer token for the REST requests (also \$GANTRY_TOKEN); default: the run's admin token
USAGE
}

cmd_fuzz() {
  local inputs=20000 seed=17 valid=200 ready_timeout=900 out='' speedup=1000000
  campaign_parse fuzz "--inputs inputs --seed seed --valid-jobs valid --ready-timeout-s ready_timeout --out out" "$@" || return $(($? == 1 ? 0 : 2))
  campaign_numbers fuzz "$inputs" "$seed" "$valid" "$ready_timeout" || return 2
  # A death is a finding, not something to hide: the supervisors restart nothing.
  MAX_RESTARTS=0
  campaign_start fuzz "$ready_timeout" "$speedup"
  trap 'echo "$(cat "$RUN/down" 2>/dev/null)" >>"$out/deaths"' USR1
  local services='' name
  for name in "${SERVICE_NAMES[@]}"; do services+="${services:+,}$name=$(service_port "$name")"; done
  log "fuzz: $inputs inputs (seed $seed) with $valid valid jobs; results in $out"
  cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --speedup "$speedup" --jobs "$valid" --rate 5 --exit-when-done \
    --timeout-s 3600 --summary "$out/replay.json" >"$out/replay.log" 2>&1 &
  local replay=$!
  PIDS+=("$replay")
  # Seeds for the mutations come from the topics; the first valid jobs put some there.
  sleep 10
  # The mutated events go in as the broker's super user: the ACLs let no one principal write every consumed topic, and
  # the campaign tests what the services do with whatever an allowed writer (or a leaked credential) may send.
  local login=()
  [ ! -f "$KAFKA_USERS" ] || login=(--kafka-config "$RUN/security/kafka-admin.properties")
  python3 "$ROOT/bench/fuzz.py" run --bootstrap "localhost:$KAFKA_PORT" "${login[@]}" --lib "$ROOT/embedded-kafka/target/lib" \
    --services "$services" --inputs "$inputs" --seed "$seed" --out "$out" 2>"$out/fuzz.err" || log "fuzz: the driver failed; see $out/fuzz.err"
  wait "$replay" || true
  # Valid jobs after the fuzz too: a consumer stuck on a poisoned record would leave them unfinished.
  foreground cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --speedup "$speedup" --skip "$valid" \
    --jobs "$valid" --rate 5 --exit-when-done --timeout-s 1800 --summary "$out/replay-after.json" >"$out/replay-after.log" 2>&1 || true
  cp "$EVENTS" "$out/supervisor.log"
  local lag=-1 tries crashes
  for ((tries = 0; tries < 12; tries++)); do
    lag=$(consumer_lag)
    [ "$lag" = 0 ] && break
    sleep 5
  done
  crashes=$(grep -c ' exited ' "$out/supervisor.log" || true)
  local rc=0
  python3 "$ROOT/bench/fuzz.py" report --out "$out" --replay "$out/replay.json" --replay "$out/replay-after.json" --lag "$lag" --crashes "${crashes:-0}" || rc=1
  stop_all "$rc"
}
