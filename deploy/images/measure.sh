#!/usr/bin/env bash
# Image sizes and start times, as deploy/README.md reports them: brings the compose stack up (project gantry-measure,
# ports of its own), then stops and starts each container in turn and times `start` -> ready, polled every 0.2 s
# from the host (a start on the container's existing volumes, as a restart is): /q/health/ready = 200 through the published port for the services, /-/ready for Prometheus,
# pg_isready for PostgreSQL and the broker's ready file (its topics exist) for Kafka. Prints a Markdown table.
# Usage: deploy/images/measure.sh      (needs the images of ./mvnw -B -DskipTests package -Pimages)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
source "$HERE/engine.sh"
VERSION=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$ROOT/pom.xml" | head -1)
export COMPOSE_PROJECT_NAME=gantry-measure GANTRY_COMPOSE_KAFKA_PORT=49092 GANTRY_COMPOSE_POSTGRES_PORT=45432 \
  GANTRY_COMPOSE_PROMETHEUS_PORT=49090 GANTRY_COMPOSE_METRICS_INGEST_PORT=48081 GANTRY_COMPOSE_JOB_TUNER_PORT=48082 \
  GANTRY_COMPOSE_PRIORITY_ACCOUNTING_PORT=48083 GANTRY_COMPOSE_SAC_SCHEDULER_PORT=48084 GANTRY_COMPOSE_POD_DISPATCHER_PORT=48085
declare -A PORT=([metrics-ingest]=48081 [job-tuner]=48082 [priority-accounting]=48083 [sac-scheduler]=48084 [pod-dispatcher]=48085)

trap '"$ROOT/gantry" compose down -v >/dev/null 2>&1 || true' EXIT
t0=$SECONDS
mkdir -p "$ROOT/target" && "$ROOT/gantry" compose up >"$ROOT/target/measure-compose.log" 2>&1 || { echo "compose up failed; see target/measure-compose.log" >&2; exit 1; }
UP_S=$((SECONDS - t0))

ready() { # ready NAME CONTAINER
  case "$1" in
    kafka) $ENGINE exec "$2" test -f /tmp/kafka-ready ;;
    postgres) $ENGINE exec "$2" pg_isready -q -h 127.0.0.1 -U gantry -d gantry ;;
    prometheus) curl -sf -o /dev/null "http://127.0.0.1:$GANTRY_COMPOSE_PROMETHEUS_PORT/-/ready" ;;
    *) curl -sf -o /dev/null "http://127.0.0.1:${PORT[$1]}/q/health/ready" ;;
  esac
}

echo "| image | size (MB) | start → ready (s) |"
echo "|---|---:|---:|"
for name in kafka postgres prometheus metrics-ingest job-tuner priority-accounting sac-scheduler pod-dispatcher; do
  tag="localhost/gantry/$name:$VERSION"; [ "$name" = priority-accounting ] && tag="$tag-pg"
  size=$($ENGINE image inspect --format '{{.Size}}' "$tag" | awk '{printf "%.0f", $1/1e6}')
  ctr=$($ENGINE ps -q --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME" --filter "label=com.docker.compose.service=$name")
  # (Podman without systemd reports, harmlessly, that it cannot set up health-check timers: discarded.)
  $ENGINE stop -t 20 "$ctr" >/dev/null 2>&1
  t0=$(date +%s.%N)
  $ENGINE start "$ctr" >/dev/null 2>&1
  until ready "$name" "$ctr" >/dev/null 2>&1; do sleep 0.2; done
  echo "| $tag | $size | $(echo "$(date +%s.%N) - $t0" | bc | awk '{printf "%.1f", $1}') |"
done
echo "| localhost/gantry/base:17 (shared by all) | $($ENGINE image inspect --format '{{.Size}}' localhost/gantry/base:17 | awk '{printf "%.0f", $1/1e6}') | |"
echo
echo "\`./gantry compose up\` of the whole stack from nothing (new volumes) to every container healthy: $UP_S s."
echo "measured $(date -u +%F) on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), engine $ENGINE $($ENGINE --version | awk '{print $NF}')"
