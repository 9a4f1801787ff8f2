package io.gantry.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.gantry.events.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * deploy/ as Kubernetes would receive it: the kustomize build of each overlay, read with fabric8's model, checked
 * against the services' sources (ports, health and metrics paths, image names), shared-events' topic list, and
 * the RBAC the scheduler is allowed (issue 7).
 */
class DeploymentManifestsTest {

    /** Custom resources Gantry relies on, by apiVersion and kind: Strimzi and the Prometheus operator. */
    static final Set<String> ALLOWED_CUSTOM_KINDS = Set.of(
            "kafka.strimzi.io/v1beta2 Kafka",
            "kafka.strimzi.io/v1beta2 KafkaNodePool",
            "kafka.strimzi.io/v1beta2 KafkaTopic",
            "kafka.strimzi.io/v1beta2 KafkaUser",
            "monitoring.coreos.com/v1 ServiceMonitor",
            "monitoring.coreos.com/v1 PrometheusRule");

    /** The scheduler's grants, as "apiGroup resource verb" (issue 7: nothing beyond these). */
    static final Set<String> ALLOWED_GRANTS = Set.of(
            " pods get", " pods list", " pods watch", " pods create", " pods delete",
            " pods/binding create",
            " nodes get", " nodes list", " nodes watch",
            " events create",
            " configmaps create");

    /**
     * What pod-dispatcher's KubernetesCluster actually calls: node and pod informers (list, watch; pods in any
     * namespace), pod get/list by label/create/delete, and the Binding POST. A role missing one of them would
     * break the scheduler at run time, so they must all be granted.
     */
    static final Set<String> DISPATCHER_CALLS = Set.of(
            " pods get", " pods list", " pods watch", " pods create", " pods delete",
            " pods/binding create", " nodes list", " nodes watch", " configmaps create");

    static final List<String> SERVICES = Topics.SERVICES;

    static Map<String, Manifests> cache = new HashMap<>();

    static Manifests overlay(String overlay) {
        return cache.computeIfAbsent(overlay, Manifests::kustomize);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyKindIsKnown(String overlay) {
        Manifests m = overlay(overlay);
        assertFalse(m.resources.isEmpty(), "the overlay renders nothing");
        Set<String> namespaces = m.all(Namespace.class).map(n -> n.getMetadata().getName()).collect(Collectors.toSet());
        assertEquals(Set.of("gantry", "gantry-jobs"), namespaces);
        for (HasMetadata r : m.resources) {
            String id = r.getApiVersion() + " " + r.getKind();
            if (r instanceof GenericKubernetesResource) {
                // fabric8 has no class for it: only the operators' kinds we install on purpose are acceptable.
                assertTrue(ALLOWED_CUSTOM_KINDS.contains(id), "unknown kind " + id + " (" + r.getMetadata().getName() + ")");
            }
            assertNotNull(r.getMetadata().getName(), id + " without a name");
            boolean clusterScoped = r instanceof Namespace || r instanceof ClusterRole || r instanceof ClusterRoleBinding;
            if (!clusterScoped) {
                assertTrue(namespaces.contains(r.getMetadata().getNamespace()),
                        id + " " + r.getMetadata().getName() + " is in namespace " + r.getMetadata().getNamespace());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void probesAreThePathsTheServicesServe(String overlay) {
        Manifests m = overlay(overlay);
        for (String service : SERVICES) {
            ServiceSources src = ServiceSources.of(service);
            // The paths only exist if the service has SmallRye Health at all.
            assertTrue(src.hasDependency("quarkus-smallrye-health"), service + " has no quarkus-smallrye-health");
            Container c = container(m.one(Deployment.class, service), service);
            assertProbe(service, "liveness", c.getLivenessProbe(), src.healthPath("live"), c, src.httpPort());
            assertProbe(service, "readiness", c.getReadinessProbe(), src.healthPath("ready"), c, src.httpPort());
            if (c.getStartupProbe() != null) {
                assertProbe(service, "startup", c.getStartupProbe(), src.healthPath("started"), c, src.httpPort());
            }
            // Resources set: a memory request and limit at least (the JVM sizes its heap from the limit).
            assertNotNull(c.getResources(), service + " has no resources");
            assertNotNull(c.getResources().getRequests().get("memory"), service + " has no memory request");
            assertNotNull(c.getResources().getRequests().get("cpu"), service + " has no cpu request");
            assertNotNull(c.getResources().getLimits().get("memory"), service + " has no memory limit");
            assertTrue(Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")).compareTo(
                    Quantity.getAmountInBytes(c.getResources().getRequests().get("memory"))) >= 0, service + ": limit < request");
        }
    }

    private static void assertProbe(String service, String kind, Probe probe, String path, Container c, int port) {
        assertNotNull(probe, service + " has no " + kind + " probe");
        HTTPGetAction get = probe.getHttpGet();
        assertNotNull(get, service + ": " + kind + " probe is not an HTTP GET");
        assertEquals(path, get.getPath(), service + ": " + kind + " probe path");
        assertEquals(port, containerPort(c, get.getPort().getIntVal() != null ? get.getPort().getIntVal() : get.getPort().getStrVal()),
                service + ": " + kind + " probe port is not quarkus.http.port");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void everyTopicHasAKafkaTopic(String overlay) throws IOException {
        Manifests m = overlay(overlay);
        Set<String> clusters = m.custom("kafka.strimzi.io/v1beta2", "Kafka")
                .map(k -> k.getMetadata().getName()).collect(Collectors.toSet());
        assertEquals(1, clusters.size(), "one Kafka cluster");
        String cluster = clusters.iterator().next();
        GenericKubernetesResource kafka = m.custom("kafka.strimzi.io/v1beta2", "Kafka").findFirst().orElseThrow();
        // KRaft: a node pool of this cluster has the controller role (no ZooKeeper section).
        assertTrue(kafka.get("spec", "zookeeper") == null, "KRaft has no zookeeper");
        List<GenericKubernetesResource> pools = m.custom("kafka.strimzi.io/v1beta2", "KafkaNodePool")
                .filter(p -> cluster.equals(p.getMetadata().getLabels().get("strimzi.io/cluster"))).toList();
        assertTrue(pools.stream().anyMatch(p -> ((List<?>) p.get("spec", "roles")).contains("controller")), "no controller pool");
        int brokers = pools.stream().filter(p -> ((List<?>) p.get("spec", "roles")).contains("broker"))
                .mapToInt(p -> ((Number) p.get("spec", "replicas")).intValue()).sum();
        assertTrue(brokers >= 1, "no brokers");

        Map<String, GenericKubernetesResource> topics = new HashMap<>();
        m.custom("kafka.strimzi.io/v1beta2", "KafkaTopic").forEach(t -> {
            String name = Optional.ofNullable((String) t.get("spec", "topicName")).orElse(t.getMetadata().getName());
            assertEquals(null, topics.put(name, t), "two KafkaTopics for " + name);
            // The topic operator only takes topics labelled with its cluster.
            assertEquals(cluster, t.getMetadata().getLabels().get("strimzi.io/cluster"), name + ": strimzi.io/cluster");
            assertEquals(kafka.getMetadata().getNamespace(), t.getMetadata().getNamespace(), name + ": namespace");
        });
        assertEquals(new TreeSet<>(Topics.all()), new TreeSet<>(topics.keySet()), "KafkaTopics vs Topics.all()");
        for (String name : Topics.all()) {
            GenericKubernetesResource t = topics.get(name);
            int partitions = ((Number) t.get("spec", "partitions")).intValue();
            int replicas = ((Number) t.get("spec", "replicas")).intValue();
            assertTrue(partitions >= 1, name + " partitions");
            assertTrue(replicas >= 1 && replicas <= brokers, name + ": " + replicas + " replicas on " + brokers + " brokers");
            Object minIsr = t.get("spec", "config", "min.insync.replicas");
            if (minIsr != null) {
                assertTrue(Integer.parseInt(minIsr.toString()) <= replicas, name + ": min.insync.replicas > replicas");
            }
            String policy = String.valueOf((Object) t.get("spec", "config", "cleanup.policy"));
            if (name.equals(Topics.USERS_PRIORITY)) {
                // The latest priority per user must survive any age: a new scheduler reads every user from it.
                assertEquals("compact", policy, name + " cleanup.policy");
            } else {
                assertEquals("delete", policy, name + " cleanup.policy");
                assertNotNull(t.get("spec", "config", "retention.ms"), name + " has no retention.ms");
            }
        }
        // Kafka does not create topics on demand here, so every topic a service names must be one of them.
        assertEquals("false", String.valueOf((Object) kafka.get("spec", "kafka", "config", "auto.create.topics.enable")));
        for (String service : SERVICES) {
            ServiceSources src = ServiceSources.of(service);
            for (String key : src.properties.stringPropertyNames()) {
                if (key.startsWith("mp.messaging.") && key.endsWith("topic") && !key.startsWith("%")) {
                    assertTrue(topics.containsKey(src.properties.getProperty(key).trim()),
                            service + " uses topic " + src.properties.getProperty(key) + " (" + key + ") that has no KafkaTopic");
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void schedulerRoleGrantsNothingBeyondTheList(String overlay) {
        Manifests m = overlay(overlay);
        Set<String> granted = new HashSet<>();
        List<PolicyRule> rules = new ArrayList<>();
        m.all(ClusterRole.class).forEach(r -> rules.addAll(r.getRules()));
        m.all(Role.class).forEach(r -> rules.addAll(r.getRules()));
        assertFalse(rules.isEmpty(), "no RBAC rules at all");
        for (PolicyRule rule : rules) {
            assertTrue(rule.getNonResourceURLs() == null || rule.getNonResourceURLs().isEmpty(), "nonResourceURLs granted");
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    for (String verb : rule.getVerbs()) {
                        // A "*" anywhere can never be in the list, so wildcards fail here too.
                        String grant = group + " " + resource + " " + verb;
                        assertTrue(ALLOWED_GRANTS.contains(grant), "granted beyond the list: '" + grant + "'");
                        granted.add(grant);
                    }
                }
            }
        }
        for (String call : DISPATCHER_CALLS) {
            assertTrue(granted.contains(call), "pod-dispatcher calls '" + call + "' but it is not granted");
        }
        // The grants reach the dispatcher: its ServiceAccount is bound to the role.
        ClusterRoleBinding binding = m.all(ClusterRoleBinding.class).findFirst().orElseThrow(() -> new AssertionError("no binding"));
        Deployment dispatcher = m.one(Deployment.class, "pod-dispatcher");
        String sa = dispatcher.getSpec().getTemplate().getSpec().getServiceAccountName();
        assertTrue(binding.getSubjects().stream().anyMatch(s -> "ServiceAccount".equals(s.getKind()) && s.getName().equals(sa)
                && s.getNamespace().equals(dispatcher.getMetadata().getNamespace())), "dispatcher's ServiceAccount " + sa + " not bound");
        m.one(ClusterRole.class, binding.getRoleRef().getName());
        // No other workload carries the scheduler's account or mounts a token it has no use for.
        for (Deployment d : m.all(Deployment.class).toList()) {
            if (d != dispatcher) {
                assertFalse(sa.equals(d.getSpec().getTemplate().getSpec().getServiceAccountName()), d.getMetadata().getName());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void deploymentsMatchTheirServicesAndImages(String overlay) {
        Manifests m = overlay(overlay);
        for (String service : SERVICES) {
            ServiceSources src = ServiceSources.of(service);
            Deployment d = m.one(Deployment.class, service);
            Container c = container(d, service);
            // The image Jib builds for this service, with the profile the container runs (priority-accounting: pg).
            String profile = env(c, "QUARKUS_PROFILE").orElse(null);
            assertEquals(src.image(profile), c.getImage(), service + " image");
            assertEquals(Set.of(src.httpPort()), c.getPorts().stream().map(ContainerPort::getContainerPort).collect(Collectors.toSet()),
                    service + ": container port vs quarkus.http.port");

            Service svc = m.one(Service.class, service);
            Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
            assertTrue(podLabels.entrySet().containsAll(svc.getSpec().getSelector().entrySet()), service + ": selector misses its pods");
            assertTrue(podLabels.entrySet().containsAll(d.getSpec().getSelector().getMatchLabels().entrySet()), service + ": deployment selector");
            for (ServicePort p : svc.getSpec().getPorts()) {
                assertEquals(src.httpPort(), p.getPort(), service + ": Service port");
                Object target = p.getTargetPort().getIntVal() != null ? p.getTargetPort().getIntVal() : p.getTargetPort().getStrVal();
                assertEquals(src.httpPort(), containerPort(c, target), service + ": Service targetPort");
            }
            // Every service reaches Kafka through the Strimzi bootstrap Service of the one cluster, plain listener.
            GenericKubernetesResource kafka = m.custom("kafka.strimzi.io/v1beta2", "Kafka").findFirst().orElseThrow();
            List<?> listeners = (List<?>) kafka.get("spec", "kafka", "listeners");
            Map<?, ?> plain = (Map<?, ?>) listeners.stream().filter(l -> Boolean.FALSE.equals(((Map<?, ?>) l).get("tls"))).findFirst().orElseThrow();
            assertEquals(kafka.getMetadata().getName() + "-kafka-bootstrap." + kafka.getMetadata().getNamespace() + ".svc:" + plain.get("port"),
                    env(c, "KAFKA_BOOTSTRAP_SERVERS").orElse(null), service + " KAFKA_BOOTSTRAP_SERVERS");
        }
        assertEquals(Optional.of("kubernetes"), env(container(m.one(Deployment.class, "pod-dispatcher"), "pod-dispatcher"),
                "GANTRY_DISPATCHER_CLUSTER"));

    }

    /**
     * The online learner reloads its latest promoted version from its data directory after a restart; on Kubernetes
     * that directory must be a claimed volume, or a rescheduled pod silently starts over from the shipped checkpoint.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void schedulerKeepsPromotedPolicyVersionsOnAPersistentVolume(String overlay) {
        Manifests m = overlay(overlay);
        assertTrue(ServiceSources.of("sac-scheduler").javaSource("io/gantry/scheduler/config/LearnerConfig.java")
                .contains("${" + ServiceSources.DATA_DIR_ENV + ":"), "the learner's data dir no longer reads " + ServiceSources.DATA_DIR_ENV);
        Deployment d = m.one(Deployment.class, "sac-scheduler");
        Container c = container(d, "sac-scheduler");
        String dataDir = env(c, ServiceSources.DATA_DIR_ENV).orElseThrow(() -> new AssertionError("sac-scheduler sets no "
                + ServiceSources.DATA_DIR_ENV + ": its policy versions would go to the container's working directory"));
        VolumeMount mount = Optional.ofNullable(c.getVolumeMounts()).orElse(List.of()).stream()
                .filter(v -> v.getMountPath().equals(dataDir)).findFirst()
                .orElseThrow(() -> new AssertionError("nothing is mounted at " + dataDir));
        Volume volume = d.getSpec().getTemplate().getSpec().getVolumes().stream().filter(v -> v.getName().equals(mount.getName()))
                .findFirst().orElseThrow(() -> new AssertionError("no volume " + mount.getName()));
        assertNotNull(volume.getPersistentVolumeClaim(), dataDir + " is not on a PersistentVolumeClaim");
        PersistentVolumeClaim claim = m.one(PersistentVolumeClaim.class, volume.getPersistentVolumeClaim().getClaimName());
        assertEquals(d.getMetadata().getNamespace(), claim.getMetadata().getNamespace());
        // One pod at a time may hold a ReadWriteOnce claim: the old pod must be gone before the new one starts.
        assertEquals("Recreate", d.getSpec().getStrategy().getType());
        assertEquals(1, d.getSpec().getReplicas());
        var security = d.getSpec().getTemplate().getSpec().getSecurityContext();
        assertTrue(security != null && security.getFsGroup() != null,
                "without an fsGroup the image's non-root user cannot write the claimed volume");
    }

    /**
     * A training job's pod mounts the checkpoint claim the dispatcher names (its default) in the jobs' namespace, and
     * the dispatcher may create the ConfigMap of its spec there, through a Role bound to its ServiceAccount.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void trainingPodsHaveTheirCheckpointClaimAndTheDispatcherMayCreateTheirSpecConfigMaps(String overlay) {
        Manifests m = overlay(overlay);
        String claimName = ServiceSources.of("pod-dispatcher").javaSource("io/gantry/dispatcher/config/DispatcherConfig.java")
                .replaceAll("(?s).*@WithDefault\\(\"([^\"]+)\"\\)\\s*String checkpointClaim\\(\\).*", "$1");
        PersistentVolumeClaim claim = m.one(PersistentVolumeClaim.class, claimName);
        assertEquals("gantry-jobs", claim.getMetadata().getNamespace());
        assertTrue(claim.getSpec().getAccessModes().contains("ReadWriteMany"), "pods on many nodes share it");
        Role role = m.all(Role.class).filter(r -> r.getRules().stream().anyMatch(x -> x.getResources().contains("configmaps")))
                .findFirst().orElseThrow(() -> new AssertionError("no Role grants configmaps"));
        assertEquals("gantry-jobs", role.getMetadata().getNamespace());
        String sa = m.one(Deployment.class, "pod-dispatcher").getSpec().getTemplate().getSpec().getServiceAccountName();
        assertTrue(m.all(io.fabric8.kubernetes.api.model.rbac.RoleBinding.class).anyMatch(b -> b.getRoleRef().getName()
                .equals(role.getMetadata().getName()) && b.getMetadata().getNamespace().equals("gantry-jobs")
                && b.getSubjects().stream().anyMatch(s -> s.getName().equals(sa) && s.getNamespace().equals("gantry"))),
                "the dispatcher's ServiceAccount is not bound to " + role.getMetadata().getName());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void serviceMonitorsScrapeEveryServicesMetrics(String overlay) {
        Manifests m = overlay(overlay);
        List<GenericKubernetesResource> monitors = m.custom("monitoring.coreos.com/v1", "ServiceMonitor").toList();
        for (String service : SERVICES) {
            ServiceSources src = ServiceSources.of(service);
            assertTrue(src.hasDependency("quarkus-micrometer-registry-prometheus"), service + " exposes no Prometheus metrics");
            Service svc = m.one(Service.class, service);
            Set<String> portNames = svc.getSpec().getPorts().stream().map(ServicePort::getName).collect(Collectors.toSet());
            boolean scraped = monitors.stream().anyMatch(sm -> {
                Map<?, ?> match = (Map<?, ?>) sm.get("spec", "selector", "matchLabels");
                if (match == null || !svc.getMetadata().getLabels().entrySet().containsAll(match.entrySet())
                        || !svc.getMetadata().getNamespace().equals(sm.getMetadata().getNamespace())) {
                    return false;
                }
                return ((List<?>) sm.get("spec", "endpoints")).stream().map(e -> (Map<?, ?>) e)
                        .anyMatch(e -> portNames.contains(e.get("port")) && src.metricsPath().equals(e.get("path")));
            });
            assertTrue(scraped, "no ServiceMonitor scrapes " + service + " at " + src.metricsPath());
        }
    }

    /**
     * The operator's rules are the ones promtool unit-tests (prometheus/alerts.yml), and they see the label they
     * select on: a rule copied by hand and edited on one side only would page on Kubernetes but not in compose.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void alertRulesAreTheTestedOnesAndSeeTheirLabels(String overlay) throws IOException {
        Manifests m = overlay(overlay);
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        JsonNode tested = yaml.readTree(ServiceSources.ROOT.resolve("prometheus/alerts.yml").toFile()).path("groups");
        List<GenericKubernetesResource> rules = m.custom("monitoring.coreos.com/v1", "PrometheusRule").toList();
        assertEquals(1, rules.size(), "one PrometheusRule");
        assertTrue(tested.equals(yaml.valueToTree(rules.get(0).get("spec", "groups"))),
                "deploy/base/alerts.yaml: the PrometheusRule's groups differ from prometheus/alerts.yml");
        for (GenericKubernetesResource sm : m.custom("monitoring.coreos.com/v1", "ServiceMonitor").toList()) {
            for (Object e : (List<?>) sm.get("spec", "endpoints")) {
                List<?> relabel = (List<?>) ((Map<?, ?>) e).get("relabelings");
                boolean labelled = relabel != null && relabel.stream().map(r -> (Map<?, ?>) r)
                        .anyMatch(r -> "component".equals(r.get("targetLabel")) && "gantry".equals(r.get("replacement")));
                assertTrue(labelled, "ServiceMonitor " + sm.getMetadata().getName() + " does not label its targets component=gantry");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void priorityAccountingUsesTheClustersPostgres(String overlay) {
        Manifests m = overlay(overlay);
        Container c = container(m.one(Deployment.class, "priority-accounting"), "priority-accounting");
        assertEquals(Optional.of("pg"), env(c, "QUARKUS_PROFILE"));
        // The pg profile really selects PostgreSQL in the service's own configuration.
        assertEquals(Optional.of("postgresql"), ServiceSources.of("priority-accounting").property("quarkus.datasource.db-kind", "pg"));
        String url = env(c, "GANTRY_DB_URL").orElseThrow(() -> new AssertionError("no GANTRY_DB_URL"));
        StatefulSet pg = m.one(StatefulSet.class, "gantry-postgres");
        Service pgService = m.one(Service.class, pg.getSpec().getServiceName());
        int pgPort = pgService.getSpec().getPorts().get(0).getPort();
        assertTrue(url.startsWith("jdbc:postgresql://" + pgService.getMetadata().getName() + "." + pgService.getMetadata().getNamespace()
                + ".svc:" + pgPort + "/"), url);
        // User and password come from the same Secret keys PostgreSQL is initialised with.
        Map<String, String> pgEnv = secretRefs(pg.getSpec().getTemplate().getSpec().getContainers().get(0));
        Map<String, String> appEnv = secretRefs(c);
        assertEquals(pgEnv.get("POSTGRES_USER"), appEnv.get("GANTRY_DB_USER"));
        assertEquals(pgEnv.get("POSTGRES_PASSWORD"), appEnv.get("GANTRY_DB_PASSWORD"));
        String secretName = pgEnv.get("POSTGRES_PASSWORD").split("/")[0];
        Optional<Secret> secret = m.all(Secret.class).filter(s -> s.getMetadata().getName().equals(secretName)).findFirst();
        if (overlay.equals("prod")) {
            // Production passwords are never in git: the operator creates the Secret (README).
            assertTrue(secret.isEmpty(), "prod overlay ships a database password");
        } else {
            Set<String> keys = new HashSet<>(Optional.ofNullable(secret.orElseThrow().getStringData()).orElse(Map.of()).keySet());
            keys.addAll(Optional.ofNullable(secret.get().getData()).orElse(Map.of()).keySet());
            for (String ref : pgEnv.values()) {
                assertTrue(keys.contains(ref.split("/")[1]), "secret key " + ref + " missing");
            }
            assertEquals(url.substring(url.lastIndexOf('/') + 1), secret.get().getStringData().get("database"), "database name");
        }
    }

    @Test
    void exampleJobIsForGantrysScheduler() throws IOException {
        Manifests example = Manifests.parse(Files.readString(ServiceSources.ROOT.resolve("deploy/examples/dl-job-pod.yaml")));
        Pod pod = example.all(Pod.class).findFirst().orElseThrow(() -> new AssertionError("no Pod in the example"));
        Manifests dev = overlay("dev");
        Container dispatcher = container(dev.one(Deployment.class, "pod-dispatcher"), "pod-dispatcher");
        assertEquals(env(dispatcher, "GANTRY_DISPATCHER_KUBERNETES_SCHEDULER_NAME").orElse("gantry"), pod.getSpec().getSchedulerName());
        assertEquals(env(dispatcher, "GANTRY_DISPATCHER_KUBERNETES_JOB_NAMESPACE").orElse("gantry-jobs"), pod.getMetadata().getNamespace());
        Quantity gpus = pod.getSpec().getContainers().get(0).getResources().getLimits().get("nvidia.com/gpu");
        assertNotNull(gpus, "a DL job asks for nvidia.com/gpu");
        assertTrue(gpus.getNumericalAmount().signum() > 0);
        assertNotNull(pod.getMetadata().getLabels().get("gantry.io/job"));
    }

    // ---------------------------------------------------------------- helpers

    static Container container(Deployment d, String name) {
        return d.getSpec().getTemplate().getSpec().getContainers().stream().filter(c -> c.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(d.getMetadata().getName() + " has no container " + name));
    }

    static Optional<String> env(Container c, String name) {
        return Optional.ofNullable(c.getEnv()).orElse(List.of()).stream().filter(e -> e.getName().equals(name))
                .map(EnvVar::getValue).findFirst();
    }

    /** env name → "secret/key" for every variable taken from a Secret. */
    static Map<String, String> secretRefs(Container c) {
        Map<String, String> refs = new HashMap<>();
        for (EnvVar e : c.getEnv()) {
            if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                refs.put(e.getName(), e.getValueFrom().getSecretKeyRef().getName() + "/" + e.getValueFrom().getSecretKeyRef().getKey());
            }
        }
        return refs;
    }

    /** The container port a Service/probe port (number or name) refers to. */
    static int containerPort(Container c, Object port) {
        for (ContainerPort p : c.getPorts()) {
            if (port instanceof Integer i && p.getContainerPort().equals(i) || port instanceof String s && s.equals(p.getName())) {
                return p.getContainerPort();
            }
        }
        return fail(c.getName() + " has no port " + port);
    }
}
