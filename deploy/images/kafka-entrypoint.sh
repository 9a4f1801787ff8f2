#!/bin/bash
# The kafka image's main process: embedded-kafka's EmbeddedKafkaBroker (the broker of ./gantry up), with SASL/SCRAM and
# ACLs on both client listeners (port 9092, advertised as $KAFKA_ADVERTISED_HOST:9092 to the other containers, and
# 29092, advertised as $KAFKA_EXTERNAL_ADVERTISED, for the published port) for the logins in KAFKA_SCRAM_USERS
# (admin=PASSWORD,PRINCIPAL=PASSWORD,...: deploy/kafka-users.sh broker-env). Without them it refuses to start, unless
# KAFKA_INSECURE_PLAINTEXT=true asks for the plaintext broker that lets anyone who reaches a port read and write
# every topic.
set -euo pipefail
security=()
if [ -n "${KAFKA_SCRAM_USERS:-}" ]; then
  # The users file BrokerSecurity.read takes, this user's only. (The engine's bind mount of the host's file would keep
  # the host's owner and mode 600, which the image's user 185 cannot read.)
  users=/tmp/kafka-users.properties
  (umask 077 && tr ',' '\n' <<<"$KAFKA_SCRAM_USERS" >"$users")
  security=(--scram-users "$users")
elif [ "${KAFKA_INSECURE_PLAINTEXT:-}" != true ]; then
  echo "kafka: KAFKA_SCRAM_USERS is not set (admin=PASSWORD,PRINCIPAL=PASSWORD,...; ./gantry compose up sets it)." \
    "KAFKA_INSECURE_PLAINTEXT=true starts a plaintext broker that anyone who reaches its ports may read and write." >&2
  exit 2
fi
# Not handed on: the broker's own environment (/proc/1/environ) holds no password.
unset KAFKA_SCRAM_USERS
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options
exec java $JAVA_OPTS -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp '/opt/kafka/lib/*' \
  io.gantry.kafka.EmbeddedKafkaBroker --dir /var/lib/kafka --port 9092 --bind 0.0.0.0 \
  --advertised-host "$KAFKA_ADVERTISED_HOST" --external-port 29092 --external-advertised "$KAFKA_EXTERNAL_ADVERTISED" \
  --partitions "$KAFKA_PARTITIONS" --ready-file /tmp/kafka-ready "${security[@]}"
