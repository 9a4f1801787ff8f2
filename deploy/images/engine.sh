# Sourced by the image and compose scripts: sets ENGINE to the container engine to use.
# GANTRY_CONTAINER_ENGINE forces one; otherwise podman if installed, else docker (whose daemon must answer).
if [ -n "${GANTRY_CONTAINER_ENGINE:-}" ]; then
  ENGINE=$GANTRY_CONTAINER_ENGINE
elif command -v podman >/dev/null 2>&1; then
  ENGINE=podman
elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  ENGINE=docker
else
  echo "no container engine: install podman (apt-get install podman runc) or Docker" >&2
  exit 1
fi
