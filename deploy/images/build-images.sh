#!/usr/bin/env bash
# Builds Gantry's images from what `./mvnw -B -DskipTests package` produced, on localhost/gantry/base:17
# (build-base.sh, run first if the base is missing). Run by the root pom's profile -Pimages after package, or by hand:
#   deploy/images/build-images.sh [--version V] [IMAGE...]      (default: every image)
# Tags (GANTRY_IMAGE_TAG replaces <version>): localhost/gantry/<image>:<version> for kafka, postgres, prometheus, metrics-ingest, job-tuner, sac-scheduler,
# pod-dispatcher, job-runner; localhost/gantry/priority-accounting:<version>-pg and localhost/gantry/studio:<version>-pg
# (their PostgreSQL builds, services/<name>/target/pg).
# Engine: podman if installed, else docker (GANTRY_CONTAINER_ENGINE forces one); both take the same Containerfiles.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
source "$HERE/engine.sh"
VERSION=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$ROOT/pom.xml" | head -1)
[ "${1:-}" = --version ] && { VERSION=$2; shift 2; }
# The images' tag: the version, unless GANTRY_IMAGE_TAG (which docker-compose.yml reads too) names another, e.g. a
# branch's own images beside the ones of the default tag on a shared machine.
TAG="${GANTRY_IMAGE_TAG:-$VERSION}"
SERVICES=(metrics-ingest job-tuner priority-accounting sac-scheduler pod-dispatcher)
# job-runner before pod-dispatcher, whose image takes the runner from it.
ALL=(kafka postgres prometheus metrics-ingest job-tuner priority-accounting sac-scheduler job-runner pod-dispatcher studio)
[ $# -gt 0 ] && WANTED=("$@") || WANTED=("${ALL[@]}")
WORK="$ROOT/target/images"
mkdir -p "$WORK"

"$HERE/build-base.sh"

build() { # build TAG CONTAINERFILE CONTEXT [ARGS...]
  local tag=$1 file=$2 context=$3 t0=$SECONDS; shift 3
  # --network=host: the apt-get of postgres and prometheus reaches the mirror without a build network.
  $ENGINE build -q --network=host -f "$file" -t "$tag" "$@" "$context" >/dev/null
  echo "build-images: $tag ($((SECONDS - t0)) s)"
}

need() { # need FILE HINT: stop, saying how to build it, when an earlier build's FILE is missing
  [ -f "$1" ] || { echo "build-images: $1 is missing: $2" >&2; exit 1; }
}

BUILD_FIRST="build first (./mvnw -B -DskipTests package -Pimages)"

quarkus_image() { # quarkus_image APP_DIR HINT TAG CONTAINERFILE [ARGS...]: an image of a built Quarkus app
  local app=$1 hint=$2; shift 2
  need "$app/quarkus-run.jar" "$hint"
  build "$1" "$2" "$app" "${@:3}"
}

service_port() { sed -n 's/^quarkus.http.port=//p' "$ROOT/services/$1/src/main/resources/application.properties"; }

kafka_context() { # the broker's jars only: embedded-kafka's jar and the runtime closure of kafka_2.13, kafka-clients
  # and shared-events, plus the SLF4J binding (JBoss LogManager) the broker logs through under ./gantry up.
  local tree="$ROOT/embedded-kafka/target/dependency-tree.txt" lib="$ROOT/embedded-kafka/target/lib" ctx="$WORK/kafka"
  need "$tree" "build with -Pimages (./mvnw -B -DskipTests package -Pimages)"
  rm -rf "$ctx" && mkdir -p "$ctx/lib"
  cp "$ROOT/embedded-kafka/target/embedded-kafka-$VERSION.jar" "$ctx/lib/"
  # Top-level entries are "+- g:a:type:v:scope" (3 characters of prefix); a subtree is kept with its top entry.
  awk '
    /^[+\\]- / { split(substr($0, 4), c, ":"); keep = (c[2] != "kafka-tools" && c[2] != "quarkus-test-common") }
    /^[ |+\\]/ && keep { line = $0; sub(/^[ |+\\-]*/, "", line); split(line, c, ":");
                         if (length(c) == 6) print c[2] "-" c[5] "-" c[4] ".jar"; else print c[2] "-" c[4] ".jar" }
  ' "$tree" | sort -u | while read -r jar; do cp "$lib/$jar" "$ctx/lib/"; done
  # (The tree lists a shared dependency once, under its first parent: the log manager's SmallRye Common jars are
  # listed under Quarkus' test support, so they are named here.)
  for pattern in 'slf4j-jboss-logmanager-*.jar' 'jboss-logmanager-*.jar' 'smallrye-common-*.jar'; do
    cp $lib/$pattern "$ctx/lib/"
  done
  cp "$HERE/kafka.Containerfile" "$ctx/Containerfile"
  cp "$HERE/kafka-entrypoint.sh" "$ctx/"
}

for image in "${WANTED[@]}"; do
  case "$image" in
    kafka)
      kafka_context
      build "localhost/gantry/kafka:$TAG" "$WORK/kafka/Containerfile" "$WORK/kafka" ;;
    postgres)
      mkdir -p "$WORK/postgres" && cp "$HERE/postgres.Containerfile" "$HERE/postgres-entrypoint.sh" "$WORK/postgres/"
      build "localhost/gantry/postgres:$TAG" "$WORK/postgres/postgres.Containerfile" "$WORK/postgres" ;;
    prometheus)
      mkdir -p "$WORK/prometheus" && cp "$HERE/prometheus.Containerfile" "$ROOT/prometheus/prometheus.yml" "$ROOT/prometheus/alerts.yml" "$WORK/prometheus/"
      build "localhost/gantry/prometheus:$TAG" "$WORK/prometheus/prometheus.Containerfile" "$WORK/prometheus" ;;
    priority-accounting|studio)
      quarkus_image "$ROOT/services/$image/target/pg" "build with -Pimages" "localhost/gantry/$image:$TAG-pg" \
        "$HERE/service.Containerfile" --build-arg PORT="$(service_port "$image")" ;;
    pod-dispatcher)
      quarkus_image "$ROOT/services/pod-dispatcher/target/quarkus-app" "$BUILD_FIRST" \
        "localhost/gantry/pod-dispatcher:$TAG" "$HERE/pod-dispatcher.Containerfile" \
        --build-arg PORT="$(service_port pod-dispatcher)" --build-arg RUNNER_TAG="$TAG" ;;
    metrics-ingest|job-tuner|sac-scheduler)
      quarkus_image "$ROOT/services/$image/target/quarkus-app" "$BUILD_FIRST" "localhost/gantry/$image:$TAG" \
        "$HERE/service.Containerfile" --build-arg PORT="$(service_port "$image")" ;;
    job-runner)
      jar="$ROOT/job-runner/target/job-runner-$VERSION.jar"
      need "$jar" "$BUILD_FIRST"
      build "localhost/gantry/job-runner:$TAG" "$HERE/job-runner.Containerfile" "$ROOT/job-runner/target" --build-arg VERSION="$VERSION" ;;
    *) echo "build-images: unknown image '$image' (known: ${ALL[*]})" >&2; exit 2 ;;
  esac
done
