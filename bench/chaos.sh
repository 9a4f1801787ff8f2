# Sourced by ./gantry: `./gantry chaos` is a bounded kill campaign on this machine (loopback only). It starts the
# system the way `./gantry up` does (start_system and its supervisors restart whatever dies), replays N jobs through
# it, and meanwhile SIGKILLs each service in turn (K rounds) and the broker once, at seeded random moments. Afterwards
# it checks from the replay's lifecycle tally that every job ended exactly once, that every consumer group's lag is
# back to 0, and reports each process's recovery time (kill -> ready) as p50 and max.
# A recovery slower than --ready-timeout-s is reported as "slow" and is not a failure by itself: only a lost,
# duplicated or unfinished job, lag left behind, or a planned kill not made (the replay ended first: recoveries took
# longer than --rate allowed for) fails the campaign (exit code 1).

chaos_usage() {
  cat <<USAGE
usage: ./gantry chaos [--jobs N] [--rounds K] [--seed S] [--rate R] [--ready-timeout-s S] [--timeout-s S]
                      [--out DIR] [--token-file F]
  --jobs N             jobs replayed through the live system while processes are killed (5000)
  --rounds K           rounds; each kills every service once, in a seeded random order (3); the broker once in all
  --seed S             seeds the kill order and moments (17)
  --rate R             jobs/s submitted (default: spreads the jobs over about 60 s per kill: recovery takes 30-90 s on a loaded 2-core machine)
  --ready-timeout-s S  how long a killed process may take to be ready again before it counts as slow (900)
  --timeout-s S        the replay gives up after S s; jobs not ended by then are unfinished (3600)
  --out DIR            where chaos.json, the replay summary and the events go (bench/results/chaos-<time>)
  --token-file F       a bearer token sent to the services' HTTP endpoints (also \$GANTRY_TOKEN); default: the run's admin token
USAGE
}

chaos_http() { # chaos_http URL: curl with the bearer token when one is given; a service that hangs is given 30 s
  if [ -n "${GANTRY_TOKEN:-}" ]; then curl -sf -m 30 -H "Authorization: Bearer $GANTRY_TOKEN" "$1"; else curl -sf -m 30 "$1"; fi
}

chaos_ready() { # chaos_ready NAME: the process answers as the supervisors check it
  if [ "$1" = kafka-broker ]; then port_open "$KAFKA_PORT"; else service_ready "$1"; fi
}

consumer_groups() { # consumer_groups: "group topic partition current-offset lag" a partition, every consumer group
  # On the secured broker as its super user: describing every group is an operator's read (see ./gantry up).
  local login=()
  [ ! -f "$KAFKA_USERS" ] || login=(--command-config "$RUN/security/kafka-admin.properties")
  # A short-lived tool started like the services (C1, serial collector, small heap): cheaper on a loaded machine.
  java -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$ROOT/embedded-kafka/target/lib/*" \
    org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
    --bootstrap-server "localhost:$KAFKA_PORT" "${login[@]}" --describe --all-groups 2>/dev/null |
    awk '$1 != "GROUP" && NF >= 6 && $6 ~ /^[0-9]+$/ {print $1, $2, $3, $4, $6}'
}

# consumer_lag: the summed lag of the partitions whose consumer is stuck: behind in two looks 5 s apart without having
# moved (-1 if the groups cannot be read). A topic written all the time (gantry.cluster.metrics) is never at lag 0
# at one instant; its consumer is fine as long as it moves.
consumer_lag() {
  local a b
  a=$(consumer_groups); sleep 5; b=$(consumer_groups)
  [ -n "$a" ] && [ -n "$b" ] || { echo -1; return; }
  awk 'NR == FNR {seen[$1" "$2" "$3] = $4; next} {k = $1" "$2" "$3} $5 > 0 && (k in seen) && seen[k] == $4 {s += $5}
       END {print s + 0}' <(echo "$a") <(echo "$b")
}

chaos_kill() { # chaos_kill NAME READY_TIMEOUT: SIGKILL its java, wait until a new one is ready; prints "NAME SECONDS OUTCOME"
  local name=$1 limit=$2 old t0 now
  old=$(cat "$RUN/pids/$name" 2>/dev/null) || { echo "$name 0 no-pid"; return; }
  t0=$(date +%s.%N)
  kill -KILL "$old" 2>/dev/null || { echo "$name 0 not-running"; return; }
  event "chaos: SIGKILL $name (pid $old)"
  while true; do
    now=$(date +%s.%N)
    local pid
    pid=$(cat "$RUN/pids/$name" 2>/dev/null || echo "$old")
    if [ "$pid" != "$old" ] && chaos_ready "$name" >/dev/null 2>&1; then
      awk -v a="$t0" -v b="$now" -v n="$name" 'BEGIN {printf "%s %.1f ready\n", n, b - a}'; return
    fi
    if awk -v a="$t0" -v b="$now" -v l="$limit" 'BEGIN {exit !(b - a >= l)}'; then
      # Slow, not lost: keep the campaign going; the jobs' tally decides whether anything was lost.
      awk -v a="$t0" -v b="$now" -v n="$name" 'BEGIN {printf "%s %.1f slow\n", n, b - a}'; return
    fi
    sleep 0.2
  done
}

chaos_plan() { # chaos_plan ROUNDS SEED: one process name a line, the order of the kills
  local rounds=$1 r broker_round broker_at
  RANDOM=$2
  broker_round=$((RANDOM % rounds))
  for ((r = 0; r < rounds; r++)); do
    local order=() name
    for name in "${SERVICE_NAMES[@]}"; do order+=("$RANDOM $name"); done
    [ "$r" = "$broker_round" ] && order+=("$RANDOM kafka-broker")
    printf '%s\n' "${order[@]}" | sort -n | awk '{print $2}'
  done
}

chaos_report() { # chaos_report OUT KILLS_FILE LAG: writes OUT/chaos.json, prints the table; returns 1 on a failure
  local out=$1 kills=$2 lag=$3
  local s=$out/replay.json
  python3 - "$s" "$kills" "$lag" "$out/chaos.json" <<'PY'
import json, sys, statistics
summary_file, kills_file, lag, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
try:
    s = json.load(open(summary_file))
except (OSError, ValueError):
    s = {}
kills = [l.split() for l in open(kills_file) if l.strip()]
per = {}
for name, secs, outcome in kills:
    p = per.setdefault(name, {"kills": 0, "recovery_s": [], "slow": 0, "missed": 0})
    if outcome in ("ready", "slow"):
        p["kills"] += 1
        p["recovery_s"].append(float(secs))
        p["slow"] += outcome == "slow"
    else:
        p["missed"] += 1
for p in per.values():
    r = sorted(p.pop("recovery_s"))
    p["recovery_p50_s"] = statistics.median(r) if r else None
    p["recovery_max_s"] = max(r) if r else None
submitted = s.get("submitted", 0)
ended = s.get("completed", 0) + s.get("failed", 0) + s.get("rejected", 0)
report = {
    "submitted": submitted, "ended": ended,
    "duplicates": s.get("duplicates"), "duplicate_events": s.get("duplicate_events", []),
    # The same record read again under its event id: the services skip it, so it is reported, not a failure.
    "redelivered": s.get("redelivered"),
    "unfinished": s.get("unfinished"),
    # Lost: the replay has no summary (it died) or a submitted job never reached a terminal state.
    "lost": s.get("unfinished") if s else None,
    "consumer_lag_after": lag, "per_process": per,
    "slow_recoveries": sum(p["slow"] for p in per.values()),
    # A planned kill that was not made (the replay had ended, no process to kill): the campaign did less than it says.
    "missed_kills": sum(p["missed"] for p in per.values()),
}
ok = (bool(s) and submitted > 0 and s.get("duplicates") == 0 and s.get("unfinished") == 0 and lag == 0
      and report["missed_kills"] == 0)
report["verdict"] = "PASSED" if ok else "FAILED"
json.dump(report, open(out, "w"), indent=2)
print(f"{'process':<20} {'kills':>5} {'p50 s':>7} {'max s':>7} {'slow':>5} {'missed':>6}")
for name, p in sorted(per.items()):
    f = lambda v: "-" if v is None else f"{v:.1f}"
    print(f"{name:<20} {p['kills']:>5} {f(p['recovery_p50_s']):>7} {f(p['recovery_max_s']):>7} {p['slow']:>5} {p['missed']:>6}")
print(f"jobs submitted {submitted}, ended {ended}, duplicates {report['duplicates']}, "
      f"redelivered records {report['redelivered']}, "
      f"unfinished {report['unfinished']}, consumer lag after {lag}; {report['missed_kills']} kills missed; "
      f"{report['slow_recoveries']} slow recoveries (not failures) -> {report['verdict']}")
for d in report["duplicate_events"]:
    print(f"  duplicate: {d}")
sys.exit(0 if ok else 1)
PY
}

# campaign_parse COMMAND "FLAG VAR ..." ARGS...: sets the caller's VAR for each FLAG given (bash's locals are seen by
# the functions a function calls); --token-file F sets GANTRY_TOKEN. Returns 1 after --help, 2 on a bad flag.
campaign_parse() {
  local cmd=$1 spec=$2 var; shift 2
  while [ $# -gt 0 ]; do
    case "$1" in
      -h|--help) "${cmd}_usage"; return 1 ;;
      --token-file) GANTRY_TOKEN=$(cat "${2:-}") || return 2; export GANTRY_TOKEN; shift 2; continue ;;
    esac
    var=$(awk -v f="$1" '{for (i = 1; i < NF; i += 2) if ($i == f) print $(i + 1)}' <<<"$spec")
    [ -n "$var" ] && [ $# -ge 2 ] || { log "$cmd: unknown option or no value: $1"; "${cmd}_usage" >&2; return 2; }
    printf -v "$var" '%s' "$2"
    shift 2
  done
}

# campaign_numbers COMMAND VALUE...: each a whole number > 0; makes the caller's $out (default bench/results/...)
campaign_numbers() {
  local what=$1 n; shift
  for n in "$@"; do
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] || { log "$what: its options take whole numbers > 0, got '$n'"; return 2; }
  done
  out=${out:-$ROOT/bench/results/$what-$(date +%Y%m%d-%H%M%S)}
  mkdir -p "$out"
}

campaign_start() { # campaign_start COMMAND READY_TIMEOUT SPEEDUP [NODES]: the system up (13 simulated nodes unless said)
  # A loaded machine is slow, not lossy: the launcher's start-up and restart waits become the campaign's.
  START_READY_S=$2
  SUPERVISOR_READY_S=$2
  ensure_built
  trap stop_all EXIT INT TERM
  start_system "${4:-13}" "$3"
  # The endpoints need a bearer token (README "Security"): without --token-file, the run's own admin token.
  if [ -z "${GANTRY_TOKEN:-}" ]; then GANTRY_TOKEN=$(cat "$RUN/security/admin.token"); export GANTRY_TOKEN; fi
}

cmd_chaos() {
  local jobs=5000 rounds=3 seed=17 rate='' ready_timeout=900 timeout=3600 out='' speedup=1000000
  campaign_parse chaos "--jobs jobs --rounds rounds --seed seed --rate rate --ready-timeout-s ready_timeout --timeout-s timeout --out out" "$@" || return $(($? == 1 ? 0 : 2))
  campaign_numbers chaos "$jobs" "$rounds" "$seed" "$ready_timeout" "$timeout" || return 2
  local plan=$out/plan.txt kills=$out/kills.txt
  chaos_plan "$rounds" "$seed" >"$plan"
  local nkills
  nkills=$(wc -l <"$plan")
  [ -n "$rate" ] || rate=$(awk -v j="$jobs" -v k="$nkills" 'BEGIN {r = j / (k * 60); printf "%.2f", (r < 1 ? 1 : r)}')
  # Every kill is restarted; the supervisors' own give-up (--max-restarts) must not end the campaign.
  MAX_RESTARTS=$((nkills + 10))
  campaign_start chaos "$ready_timeout" "$speedup"
  log "chaos: $jobs jobs at $rate/s, $nkills kills (seed $seed); results in $out"
  cli replay --bootstrap "localhost:$KAFKA_PORT" --trace philly --speedup "$speedup" --service-events "$EVENTS" --jobs "$jobs" \
    --rate "$rate" --exit-when-done --timeout-s "$timeout" --summary "$out/replay.json" >"$out/replay.log" 2>&1 &
  local replay=$!
  PIDS+=("$replay")
  RANDOM=$seed
  : >"$kills"
  local name line
  while read -r name; do
    # A random moment: 2..11 s after the previous process was ready again.
    sleep $((2 + RANDOM % 10))
    if ! kill -0 "$replay" 2>/dev/null; then echo "$name 0 replay-ended" >>"$kills"; continue; fi
    line=$(chaos_kill "$name" "$ready_timeout")
    echo "$line" >>"$kills"
    log "chaos: $line"
  done <"$plan"
  wait "$replay" || true
  cp "$EVENTS" "$out/supervisor.log"
  # The lag settles a little after the last job ended (priority accounting and metrics catch up): up to 60 s.
  local lag=-1 tries
  for ((tries = 0; tries < 12; tries++)); do
    lag=$(consumer_lag)
    [ "$lag" = 0 ] && break
    sleep 5
  done
  local rc=0
  chaos_report "$out" "$kills" "$lag" || rc=1
  # The run directory is wiped by the next start (CI's fuzz campaign follows at once): keep what explains a failure.
  mkdir -p "$out/logs" && cp -r "$RUN/logs/." "$out/logs/"
  stop_all "$rc"
}
