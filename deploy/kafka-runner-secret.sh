#!/usr/bin/env bash
# Kubernetes: the Kafka login of pod-dispatcher's training pods (README "Run on Kubernetes"). Strimzi's User Operator
# writes the KafkaUser job-runner's login into the Secret kafka-user-job-runner in namespace gantry; a pod reads only
# Secrets of its own namespace, so this copies it into gantry-kafka-job-runner in gantry-jobs, the Secret that
# GANTRY_DISPATCHER_KUBERNETES_TRAINING_KAFKA_LOGIN_SECRET names. Run it once the KafkaUser is Ready, and again after
# its password changes. The login goes from Secret to Secret as base64: never decoded, on no command line.
set -euo pipefail
jaas=$(kubectl -n gantry get secret kafka-user-job-runner -o jsonpath='{.data.sasl\.jaas\.config}')
[ -n "$jaas" ] || { echo "kafka-runner-secret.sh: Secret gantry/kafka-user-job-runner has no sasl.jaas.config yet (is KafkaUser job-runner Ready?)" >&2; exit 1; }
kubectl apply -f - <<SECRET
apiVersion: v1
kind: Secret
metadata:
  name: gantry-kafka-job-runner
  namespace: gantry-jobs
  labels:
    app.kubernetes.io/part-of: gantry
type: Opaque
data:
  sasl.jaas.config: $jaas
SECRET
