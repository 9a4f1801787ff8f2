#!/usr/bin/env bash
# The Kafka logins of a secured Gantry broker (README "Security"), with openssl only: a users file with a random
# password for the super user admin and for every principal of embedded-kafka's BrokerAcls, and what each client
# logs in with. ./gantry up writes one users file per run, ./gantry compose up one per compose project.
#   deploy/kafka-users.sh users FILE                        write FILE (admin=..., PRINCIPAL=...; mode 600) unless present
#   deploy/kafka-users.sh jaas FILE PRINCIPAL               PRINCIPAL's SCRAM login line (sasl.jaas.config)
#   deploy/kafka-users.sh client-properties FILE PRINCIPAL  a Kafka client config file as PRINCIPAL (console tools)
#   deploy/kafka-users.sh env FILE PRINCIPAL                KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_MECHANISM and
#                                                           KAFKA_SASL_JAAS_CONFIG lines as PRINCIPAL (a compose env_file)
#   deploy/kafka-users.sh broker-env FILE                   KAFKA_SCRAM_USERS=admin=...,PRINCIPAL=... (the kafka image's)
#   deploy/kafka-users.sh compose DIR SERVICE...            ./gantry compose's logins in DIR (kafka_compose_logins)
set -euo pipefail

# BrokerAcls.principals() (the broker refuses any other name): each service as itself, the real-job runners, and
# people's Kafka clients and the replay as submitter. DockerComposeTest checks the two lists agree.
KAFKA_PRINCIPALS=(job-runner job-tuner metrics-ingest pod-dispatcher priority-accounting sac-scheduler studio submitter)

kafka_users() { # kafka_users FILE
  [ -f "$1" ] && return 0
  mkdir -p "$(dirname "$1")"
  local p
  # Hex: the broker takes [A-Za-z0-9._~-] only, which a JAAS line, a properties file and an env file carry unescaped.
  (umask 077
   { echo "admin=$(openssl rand -hex 24)"
     for p in "${KAFKA_PRINCIPALS[@]}"; do echo "$p=$(openssl rand -hex 24)"; done
   } >"$1")
  chmod 600 "$1"
}

kafka_password() { # kafka_password FILE PRINCIPAL
  local password
  password=$(sed -n "s/^$2=//p" "$1")
  [ -n "$password" ] || { echo "kafka-users.sh: no password for '$2' in $1" >&2; return 1; }
  printf '%s' "$password"
}

kafka_jaas() { # kafka_jaas FILE PRINCIPAL
  printf 'org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";' \
    "$2" "$(kafka_password "$1" "$2")"
}

kafka_client_properties() { # kafka_client_properties FILE PRINCIPAL
  printf 'security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=%s\n' "$(kafka_jaas "$1" "$2")"
}

kafka_env() { # kafka_env FILE PRINCIPAL
  printf 'KAFKA_SECURITY_PROTOCOL=SASL_PLAINTEXT\nKAFKA_SASL_MECHANISM=SCRAM-SHA-512\nKAFKA_SASL_JAAS_CONFIG=%s\n' \
    "$(kafka_jaas "$1" "$2")"
}

kafka_broker_env() { # kafka_broker_env FILE: the users file on one line, for an environment variable
  printf 'KAFKA_SCRAM_USERS=%s\n' "$(grep -E '^[a-z-]+=' "$1" | paste -sd, -)"
}

# kafka_compose_logins DIR SERVICE...: DIR/kafka-users.properties unless present; the env_file of the kafka container
# (kafka-broker.env) and of each SERVICE, logged in as itself (kafka-SERVICE.env; pod-dispatcher's also holds the
# job-runner login it hands its real-job runners, GANTRY_REAL_JOBS_KAFKA_SASL_JAAS_CONFIG); and the console tools'
# client configs kafka-submitter.properties and kafka-admin.properties. All mode 600.
kafka_compose_logins() {
  local dir=$1 users="$1/kafka-users.properties" s; shift
  kafka_users "$users"
  (umask 077
   kafka_broker_env "$users" >"$dir/kafka-broker.env"
   for s in "$@"; do
     kafka_env "$users" "$s" >"$dir/kafka-$s.env"
     [ "$s" != pod-dispatcher ] ||
       printf 'GANTRY_REAL_JOBS_KAFKA_SASL_JAAS_CONFIG=%s\n' "$(kafka_jaas "$users" job-runner)" >>"$dir/kafka-$s.env"
   done
   kafka_client_properties "$users" submitter >"$dir/kafka-submitter.properties"
   kafka_client_properties "$users" admin >"$dir/kafka-admin.properties")
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    users) kafka_users "$2" ;;
    jaas) kafka_jaas "$2" "$3" ;;
    client-properties) kafka_client_properties "$2" "$3" ;;
    env) kafka_env "$2" "$3" ;;
    broker-env) kafka_broker_env "$2" ;;
    compose) shift; kafka_compose_logins "$@" ;;
    *) echo "usage: deploy/kafka-users.sh users FILE | jaas|client-properties|env FILE PRINCIPAL | broker-env FILE" \
         "| compose DIR SERVICE..." >&2
       exit 2 ;;
  esac
fi
