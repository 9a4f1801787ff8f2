#!/usr/bin/env bash
# ./gantry compose up [--grafana] | status | down [-v] | logs [SERVICE] : Gantry in containers (docker-compose.yml).
#
# Engine: podman if installed, else docker (GANTRY_CONTAINER_ENGINE forces one). Compose tool: `docker compose` (v2)
# on a Docker machine; with podman, Debian's docker-compose 1.29 against podman's Docker-API socket, which this
# script starts (`podman system service`) when DOCKER_HOST does not answer; podman-compose when docker-compose is
# missing. GANTRY_COMPOSE overrides the tool (e.g. GANTRY_COMPOSE=podman-compose). Project name: COMPOSE_PROJECT_NAME
# (gantry). Podman without systemd runs no health checks by itself, so under podman `up` also starts a small loop
# (deploy/compose-health.sh) that runs each container's check every few seconds; `down` stops it. Security (README
# "Security"): a JWT key pair and SCRAM passwords for the broker's Kafka users per project, in
# .gantry/compose/<project>/security, with each container's Kafka login as an env_file and client configs for people.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/deploy/images/engine.sh"
PROJECT="${COMPOSE_PROJECT_NAME:-gantry}"
STATE="$ROOT/.gantry/compose/$PROJECT"
SOCK=/run/podman/podman.sock
mkdir -p "$STATE"
log() { printf '\033[1mgantry compose\033[0m %s\n' "$*" >&2; }

api_answers() { curl -sf --unix-socket "${1#unix://}" http://d/_ping >/dev/null 2>&1; }

podman_socket() { # DOCKER_HOST for docker-compose and Testcontainers: podman's Docker-compatible API
  if [ -n "${DOCKER_HOST:-}" ] && api_answers "$DOCKER_HOST"; then return 0; fi
  export DOCKER_HOST="unix://$SOCK"
  api_answers "$DOCKER_HOST" && return 0
  mkdir -p "$(dirname "$SOCK")"
  log "starting podman's Docker API on $DOCKER_HOST (podman system service; pid in $ROOT/.gantry/compose/podman-service.pid)"
  setsid nohup podman system service --time=0 "$DOCKER_HOST" >"$ROOT/.gantry/compose/podman-service.log" 2>&1 &
  echo $! >"$ROOT/.gantry/compose/podman-service.pid"
  local i
  for i in $(seq 50); do api_answers "$DOCKER_HOST" && return 0; sleep 0.2; done
  log "podman system service did not answer on $DOCKER_HOST; see $ROOT/.gantry/compose/podman-service.log"; exit 1
}

COMPOSE=()
choose_compose() {
  if [ -n "${GANTRY_COMPOSE:-}" ]; then
    read -r -a COMPOSE <<<"$GANTRY_COMPOSE"
  elif [ "$ENGINE" = docker ] && docker compose version >/dev/null 2>&1; then
    COMPOSE=(docker compose)
  elif command -v docker-compose >/dev/null; then
    COMPOSE=(docker-compose)
  elif command -v podman-compose >/dev/null; then
    COMPOSE=(podman-compose)
  else
    log "no compose tool: install docker-compose (apt-get install docker-compose) or podman-compose"; exit 1
  fi
  if [ "$ENGINE" = podman ] && [ "${COMPOSE[0]}" != podman-compose ]; then
    podman_socket
  fi
  COMPOSE+=(-p "$PROJECT" -f "$ROOT/docker-compose.yml")
}

containers() { $ENGINE ps -a --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Names}}'; }

health_loop_start() {
  [ "$ENGINE" = podman ] || return 0
  health_loop_stop
  setsid nohup "$ROOT/deploy/compose-health.sh" "$PROJECT" >"$STATE/health.log" 2>&1 &
  echo $! >"$STATE/health.pid"
}
health_loop_stop() {
  local pid
  pid=$(cat "$STATE/health.pid" 2>/dev/null) || return 0
  kill "$pid" 2>/dev/null || true
  rm -f "$STATE/health.pid"
}

status() { # one line per container: name, state, health
  local name
  for name in $(containers); do
    $ENGINE inspect --format "{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}} restarts={{.RestartCount}}" "$name"
  done | sed 's:^/::' | sort
}

wait_healthy() { # until every container with a health check is healthy, or TIMEOUT seconds
  local deadline=$((SECONDS + ${GANTRY_COMPOSE_TIMEOUT_S:-300})) pending
  while true; do
    pending=$(status | awk '$3 != "" && $3 != "healthy"')
    [ -z "$pending" ] && return 0
    if [ $SECONDS -ge $deadline ]; then log "not healthy in time:"; echo "$pending" >&2; return 1; fi
    sleep 2
  done
}

security() { # a key pair per compose state dir, its public key for the services, tokens beside it (README "Security")
  local dir="$STATE/security"
  "$ROOT/deploy/jwt.sh" keys "$dir"
  (umask 077
   [ -f "$dir/admin.token" ] || "$ROOT/deploy/jwt.sh" token "$dir" admin admin,operator,user 2592000 >"$dir/admin.token"
   [ -f "$dir/demo.token" ] || "$ROOT/deploy/jwt.sh" token "$dir" demo user 2592000 >"$dir/demo.token"
   [ -f "$dir/studio.token" ] || "$ROOT/deploy/jwt.sh" token "$dir" studio operator 2592000 >"$dir/studio.token")
  GANTRY_JWT_PUBLIC_KEY="$(cat "$dir/jwt-public.pem")"
  GANTRY_STUDIO_SERVICE_TOKEN="$(cat "$dir/studio.token")"
  export GANTRY_JWT_PUBLIC_KEY GANTRY_STUDIO_SERVICE_TOKEN
}

# The services of docker-compose.yml that log in to Kafka, each as the Kafka user of its own name.
KAFKA_CLIENTS=(metrics-ingest job-tuner priority-accounting sac-scheduler pod-dispatcher studio)

kafka_logins() { # the SCRAM passwords per compose state dir, each container's env_file, the console tools' configs
  # The users file is kept while the state dir lives: the broker wrote admin's password into its log directory (the
  # kafka-data volume) when it formatted it, and logs in with it at every start; a new users file needs `down -v`.
  "$ROOT/deploy/kafka-users.sh" compose "$STATE/security" "${KAFKA_CLIENTS[@]}"
  GANTRY_COMPOSE_SECURITY_DIR="$STATE/security"
  export GANTRY_COMPOSE_SECURITY_DIR
}

cmd=${1:-status}; shift || true
choose_compose
security
kafka_logins
case "$cmd" in
  up)
    profile=()
    [ "${1:-}" = --grafana ] && { profile=(--profile grafana); shift; }
    t0=$SECONDS
    # The health loop first: under podman, service_healthy conditions wait on the checks it runs.
    health_loop_start
    "${COMPOSE[@]}" "${profile[@]}" up -d "$@"
    wait_healthy
    log "up in $((SECONDS - t0)) s (project $PROJECT); tokens: admin $STATE/security/admin.token, demo user $STATE/security/demo.token"
    log "  Kafka on localhost:${GANTRY_COMPOSE_KAFKA_PORT:-29092} takes SASL/SCRAM logins only; console tools: --producer.config (or --consumer.config) $STATE/security/kafka-submitter.properties"
    status >&2 ;;
  status|ps)
    status ;;
  down)
    "${COMPOSE[@]}" --profile grafana down "$@"
    health_loop_stop ;;
  logs)
    "${COMPOSE[@]}" logs --no-color "$@" ;;
  *)
    echo "usage: ./gantry compose up [--grafana] | status | down [-v] | logs [SERVICE]" >&2; exit 2 ;;
esac
