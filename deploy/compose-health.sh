#!/usr/bin/env bash
# Runs the health check of every running container of compose project $1 every ${GANTRY_HEALTH_INTERVAL:-3} s.
# Podman schedules health checks with systemd timers; without systemd (a CI container, this build machine) no check
# would ever run, no container would turn healthy, and docker-compose's service_healthy conditions would wait forever.
# Docker's daemon runs its checks itself: deploy/compose.sh starts this only under podman.
project=$1
while true; do
  for c in $(podman ps --filter "label=com.docker.compose.project=$project" --format '{{.Names}}'); do
    podman healthcheck run "$c" >/dev/null 2>&1 || true
  done
  sleep "${GANTRY_HEALTH_INTERVAL:-3}"
done
