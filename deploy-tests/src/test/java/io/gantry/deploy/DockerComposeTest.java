package io.gantry.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpServer;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.Topics;
import io.gantry.kafka.BrokerAcls;
import io.gantry.kafka.BrokerSecurity;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docker-compose.yml checked against the services' sources, the image files of deploy/images and shared-events
 * (issues 7 and 18). container-tests starts it for real.
 */
class DockerComposeTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static JsonNode compose;
    private static JsonNode services;

    @BeforeAll
    static void read() throws IOException {
        compose = YAML.readTree(ServiceSources.ROOT.resolve("docker-compose.yml").toFile());
        services = compose.path("services");
        assertTrue(services.isObject(), "docker-compose.yml has no services");
    }

    /** Compose accepts environment as a map or as a list of NAME=value. */
    static Map<String, String> env(JsonNode service) {
        Map<String, String> env = new HashMap<>();
        JsonNode e = service.path("environment");
        if (e.isObject()) {
            e.properties().forEach(f -> env.put(f.getKey(), f.getValue().asText()));
        } else if (e.isArray()) {
            e.forEach(v -> {
                String[] kv = v.asText().split("=", 2);
                env.put(kv[0], kv.length > 1 ? kv[1] : "");
            });
        }
        return env;
    }

    static JsonNode service(String name) {
        JsonNode s = services.path(name);
        assertTrue(s.isObject(), "docker-compose.yml has no service " + name);
        return s;
    }

    /** The Kafka image's entry point (the script its Containerfile copies and runs): embedded-kafka's broker. */
    static String kafkaEntrypoint() throws IOException {
        String image = Files.readString(ServiceSources.ROOT.resolve("deploy/images/kafka.Containerfile"));
        assertTrue(image.contains("COPY kafka-entrypoint.sh /opt/kafka/kafka-entrypoint.sh")
                && image.contains("ENTRYPOINT [\"/opt/kafka/kafka-entrypoint.sh\"]"), "the Kafka image no longer runs kafka-entrypoint.sh");
        return Files.readString(ServiceSources.ROOT.resolve("deploy/images/kafka-entrypoint.sh"));
    }

    /** The compose file's image reference for a Gantry image: local, its tag movable by GANTRY_IMAGE_TAG. */
    static String localImage(String builtImage) {
        String version = ServiceSources.projectVersion();
        return "localhost/" + builtImage.replace(":" + version, ":${GANTRY_IMAGE_TAG:-" + version + "}");
    }

    @Test
    void everyGantryServiceHasItsImageKafkaAndAHealthCheck() throws IOException {
        // The broker's address inside the compose network: the host it advertises and the port its image listens on.
        Matcher port = Pattern.compile("--port (\\d+)").matcher(kafkaEntrypoint());
        assertTrue(port.find(), "the Kafka image sets no --port");
        String bootstrap = env(service("kafka")).get("KAFKA_ADVERTISED_HOST") + ":" + port.group(1);
        assertEquals("kafka:9092", bootstrap);
        assertTrue(service("kafka").path("healthcheck").path("test").size() > 0, "kafka has no health check");

        for (String name : Topics.SERVICES) {
            ServiceSources src = ServiceSources.of(name);
            JsonNode s = service(name);
            Map<String, String> env = env(s);
            String profile = env.get("QUARKUS_PROFILE");
            assertEquals(localImage(src.image(profile)), s.path("image").asText(), name + " image (what -Pimages builds)");
            assertEquals(bootstrap, env.get("KAFKA_BOOTSTRAP_SERVERS"), name + " KAFKA_BOOTSTRAP_SERVERS");
            // Started only once the broker is healthy, which it is once every topic exists.
            assertEquals("service_healthy", s.path("depends_on").path("kafka").path("condition").asText(),
                    name + " must wait for a healthy kafka");
            assertEquals("unless-stopped", s.path("restart").asText(), name + " restart policy");
            JsonNode test = s.path("healthcheck").path("test");
            assertTrue(test.isArray() && test.size() > 1, name + " has no health check");
            String command = test.toString();
            assertTrue(command.contains(src.healthPath("ready")), name + " health check does not ask " + src.healthPath("ready"));
            assertTrue(command.contains("/" + src.httpPort()), name + " health check does not use port " + src.httpPort());
            String published = "${GANTRY_COMPOSE_" + name.toUpperCase().replace('-', '_') + "_PORT:-" + src.httpPort() + "}:"
                    + src.httpPort();
            assertTrue(portsPublished(s).contains(published), name + " port not published as " + published);
        }
        assertEquals("simulated", env(service("pod-dispatcher")).get("GANTRY_DISPATCHER_CLUSTER"));
    }

    private static List<String> portsPublished(JsonNode s) {
        List<String> ports = new ArrayList<>();
        s.path("ports").forEach(p -> ports.add(p.asText()));
        return ports;
    }

    @Test
    void priorityAccountingUsesThePostgresOfTheCompose() {
        JsonNode pa = service("priority-accounting");
        Map<String, String> env = env(pa);
        assertEquals("pg", env.get("QUARKUS_PROFILE"));
        assertEquals("postgresql", ServiceSources.of("priority-accounting").property("quarkus.datasource.db-kind", "pg").orElse(null));
        Map<String, String> pg = env(service("postgres"));
        assertEquals("jdbc:postgresql://postgres:5432/" + pg.get("POSTGRES_DB"), env.get("GANTRY_DB_URL"));
        assertEquals(pg.get("POSTGRES_USER"), env.get("GANTRY_DB_USER"));
        assertEquals(pg.get("POSTGRES_PASSWORD"), env.get("GANTRY_DB_PASSWORD"));
        assertEquals("service_healthy", pa.path("depends_on").path("postgres").path("condition").asText());
        assertTrue(service("postgres").path("healthcheck").path("test").size() > 0, "postgres has no health check");
        // No other service is given database settings it would not use.
        for (String name : Topics.SERVICES) {
            if (!name.equals("priority-accounting")) {
                assertFalse(env(service(name)).containsKey("GANTRY_DB_URL"), name);
            }
        }
    }

    /** Promoted policy versions must outlive a re-created container, and the image's user must be able to write them. */
    @Test
    void schedulerKeepsPromotedPolicyVersionsOnANamedVolume() throws IOException {
        JsonNode scheduler = service("sac-scheduler");
        String dataDir = env(scheduler).get(ServiceSources.DATA_DIR_ENV);
        assertNotNull(dataDir, "sac-scheduler sets no " + ServiceSources.DATA_DIR_ENV);
        String volume = namedVolumeAt(scheduler, dataDir);
        assertTrue(compose.path("volumes").has(volume), volume + " is not a named volume of the compose file");
        // A new named volume starts with the owner of the directory it is mounted on: the image's user must own it.
        String image = Files.readString(ServiceSources.ROOT.resolve("deploy/images/service.Containerfile"));
        Matcher user = Pattern.compile("(?m)^USER (\\d+)").matcher(image);
        assertTrue(user.find(), "the service image sets no USER");
        assertTrue(image.contains("chown " + user.group(1) + ":0 " + dataDir),
                "the service image does not hand " + dataDir + " to its user " + user.group(1));
    }

    private static String namedVolumeAt(JsonNode service, String path) {
        for (JsonNode v : service.path("volumes")) {
            String[] parts = v.asText().split(":");
            if (parts.length >= 2 && parts[1].equals(path)) {
                return parts[0];
            }
        }
        throw new AssertionError(service + " mounts nothing at " + path);
    }

    @Test
    void metricsIngestReadsTheSimulatedClusterOfTheDispatcher() {
        URI source = URI.create(env(service("metrics-ingest")).get("GANTRY_INGEST_SOURCE_URL"));
        assertEquals("pod-dispatcher", source.getHost());
        assertEquals(ServiceSources.of("pod-dispatcher").httpPort(), source.getPort());
        assertEquals("/simulated-cluster/metrics", source.getPath());
    }

    /**
     * The broker is ./gantry up's own (EmbeddedKafkaBroker creates every topic of Topics.all(), compacting user
     * priorities, before it writes its ready file), and compose calls it healthy only once that file exists.
     */
    @Test
    void kafkaIsTheEmbeddedBrokerAndHealthyOnlyOnceItsTopicsExist() throws IOException {
        String entry = kafkaEntrypoint();
        assertTrue(entry.contains("io.gantry.kafka.EmbeddedKafkaBroker"), "the Kafka image does not run EmbeddedKafkaBroker");
        Matcher ready = Pattern.compile("--ready-file (\\S+?)[\"\\s]").matcher(entry);
        assertTrue(ready.find(), "the Kafka image writes no ready file");
        assertTrue(service("kafka").path("healthcheck").path("test").toString().contains(ready.group(1)),
                "kafka's health check does not test " + ready.group(1));
        assertEquals(localImage("gantry/kafka:" + ServiceSources.projectVersion()), service("kafka").path("image").asText());
    }

    /**
     * The broker takes SCRAM logins only (README "Security"). {@code deploy/kafka-users.sh compose}, run here as
     * compose.sh runs it, writes every env_file docker-compose.yml names: each service's logs it in as the Kafka user
     * of its own name (pod-dispatcher's also hands its runners the job-runner login), the broker's holds a password of
     * its own for admin and for every principal of BrokerAcls, all of them its owner's only; the compose file
     * overrides none of them and asks for no plaintext broker.
     */
    @Test
    void everyServiceLogsInToKafkaAsItselfAndTheBrokerGetsEveryLogin(@TempDir Path dir) throws Exception {
        List<String> clients = new ArrayList<>(Topics.SERVICES);
        clients.add(Topics.STUDIO);
        Matcher listed = Pattern.compile("\\nKAFKA_CLIENTS=\\(([^)]*)\\)")
                .matcher(Files.readString(ServiceSources.ROOT.resolve("deploy/compose.sh")));
        assertTrue(listed.find(), "compose.sh names no KAFKA_CLIENTS");
        assertEquals(new TreeSet<>(clients), new TreeSet<>(List.of(listed.group(1).trim().split("\\s+"))),
                "compose.sh's KAFKA_CLIENTS vs the services of the compose file");
        List<String> command = new ArrayList<>(List.of("bash", ServiceSources.ROOT.resolve("deploy/kafka-users.sh").toString(),
                "compose", dir.toString()));
        command.addAll(clients);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "kafka-users.sh compose failed: " + out);

        for (String name : clients) {
            Map<String, String> env = envFile(service(name), "kafka-" + name + ".env", dir);
            assertEquals("SASL_PLAINTEXT SCRAM-SHA-512 as " + name, KafkaClientAuth.fromEnvironment(env).toString(), name);
            for (String key : List.of(KafkaClientAuth.PROTOCOL_ENV, KafkaClientAuth.MECHANISM_ENV, KafkaClientAuth.JAAS_CONFIG_ENV)) {
                assertFalse(env(service(name)).containsKey(key), name + "'s environment overrides " + key + " of its env_file");
            }
        }
        String runnerLogin = envFile(service("pod-dispatcher"), "kafka-pod-dispatcher.env", dir).get("GANTRY_REAL_JOBS_KAFKA_SASL_JAAS_CONFIG");
        assertEquals("SASL_PLAINTEXT SCRAM-SHA-512 as " + BrokerAcls.RUNNER,
                KafkaClientAuth.fromEnvironment(Map.of(KafkaClientAuth.PROTOCOL_ENV, "SASL_PLAINTEXT",
                        KafkaClientAuth.JAAS_CONFIG_ENV, String.valueOf(runnerLogin))).toString(), "the runners' login");

        // The broker's: the users file its entry point writes from KAFKA_SCRAM_USERS, as BrokerSecurity reads it.
        String users = envFile(service("kafka"), "kafka-broker.env", dir).get("KAFKA_SCRAM_USERS");
        assertNotNull(users, "kafka-broker.env sets no KAFKA_SCRAM_USERS");
        Path usersFile = Files.writeString(dir.resolve("entrypoint-users.properties"), users.replace(',', '\n') + "\n");
        BrokerSecurity security = BrokerSecurity.read(usersFile);
        assertEquals(BrokerAcls.principals(), security.passwords().keySet(), "a password for every principal of BrokerAcls");
        Set<String> distinct = new HashSet<>(security.passwords().values());
        distinct.add(security.adminPassword());
        assertEquals(BrokerAcls.principals().size() + 1, distinct.size(), "every Kafka user has a password of its own");
        String entry = kafkaEntrypoint();
        assertTrue(entry.contains("KAFKA_SCRAM_USERS") && entry.contains("--scram-users"), "the Kafka image ignores KAFKA_SCRAM_USERS");
        assertFalse(env(service("kafka")).containsKey("KAFKA_INSECURE_PLAINTEXT"), "compose asks for a plaintext broker");

        // People's console tools on the published port log in as submitter.
        Properties submitter = new Properties();
        try (var in = Files.newBufferedReader(dir.resolve("kafka-submitter.properties"))) {
            submitter.load(in);
        }
        assertEquals("SASL_PLAINTEXT SCRAM-SHA-512 as " + BrokerAcls.SUBMITTER, new KafkaClientAuth(submitter.getProperty("security.protocol"),
                submitter.getProperty("sasl.mechanism"), submitter.getProperty("sasl.jaas.config")).toString());
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(written -> !written.equals(usersFile)).toList()) {
                assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(f), f + " is not its owner's only");
            }
        }
    }

    /**
     * The variables of the one env_file of {@code service}, which must be {@code fileName} in the directory
     * ./gantry compose names, read from {@code dir} as compose reads an env file (NAME=value, the value as it stands).
     */
    private static Map<String, String> envFile(JsonNode service, String fileName, Path dir) throws IOException {
        JsonNode files = service.path("env_file");
        String path = files.isArray() && files.size() == 1 ? files.get(0).asText() : files.asText();
        assertTrue(path.startsWith("${GANTRY_COMPOSE_SECURITY_DIR:?") && path.endsWith("}/" + fileName),
                service.path("image").asText() + ": env_file " + files + " is not ${GANTRY_COMPOSE_SECURITY_DIR:?...}/" + fileName);
        Map<String, String> env = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve(fileName))) {
            String[] kv = line.split("=", 2);
            assertEquals(2, kv.length, fileName + ": " + line);
            env.put(kv[0], kv[1]);
        }
        return env;
    }

    @Test
    void prometheusScrapesEveryServiceAndGrafanaReadsPrometheus() throws IOException {
        // The repository's configuration is what the Prometheus container reads.
        assertTrue(service("prometheus").path("volumes").toString().contains("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml"));
        JsonNode prom = YAML.readTree(ServiceSources.ROOT.resolve("prometheus/prometheus.yml").toFile());
        for (String name : Topics.SERVICES) {
            ServiceSources src = ServiceSources.of(name);
            String target = name + ":" + src.httpPort();
            boolean scraped = false;
            for (JsonNode job : prom.path("scrape_configs")) {
                boolean hasTarget = false;
                for (JsonNode sc : job.path("static_configs")) {
                    for (JsonNode t : sc.path("targets")) {
                        hasTarget |= t.asText().equals(target);
                    }
                }
                scraped |= hasTarget && job.path("metrics_path").asText("/metrics").equals(src.metricsPath());
            }
            assertTrue(scraped, "prometheus.yml does not scrape " + target + src.metricsPath());
        }
        JsonNode datasources = YAML.readTree(ServiceSources.ROOT.resolve("grafana/provisioning/datasources/prometheus.yml").toFile());
        URI url = URI.create(datasources.path("datasources").get(0).path("url").asText());
        assertTrue(services.has(url.getHost()), "Grafana's datasource " + url + " is no compose service");
        JsonNode dashboards = YAML.readTree(ServiceSources.ROOT.resolve("grafana/provisioning/dashboards/gantry.yml").toFile());
        String path = dashboards.path("providers").get(0).path("options").path("path").asText();
        assertTrue(service("grafana").path("volumes").toString().contains("./grafana/dashboards:" + path),
                "the dashboards folder is not mounted where the provider reads it");
    }

    /**
     * The services' health check runs for real with bash against a local HTTP server: ready (200) passes, not
     * ready (503) and nothing listening fail. It has to work without curl or wget, which the images do not carry.
     */
    @Test
    void serviceHealthCheckCommandTellsReadyFromNotReady() throws Exception {
        String service = "job-tuner";
        int servicePort = ServiceSources.of(service).httpPort();
        JsonNode test = service(service).path("healthcheck").path("test");
        assertEquals("CMD", test.get(0).asText());
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        int[] status = {200};
        server.createContext("/", exchange -> {
            byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/q/health/ready") ? status[0] : 404, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            int port = server.getAddress().getPort();
            assertEquals(0, run(test, servicePort, port), "ready service judged unhealthy");
            status[0] = 503;
            assertNotEquals(0, run(test, servicePort, port), "not-ready service judged healthy");
        } finally {
            server.stop(0);
        }
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int closed = free.getLocalPort();
            free.close();
            assertNotEquals(0, run(test, servicePort, closed), "nothing listening judged healthy");
        }
    }

    /** Runs the compose test command as Docker would ($$ is compose's escape for $), on another port. */
    private static int run(JsonNode test, int servicePort, int port) throws Exception {
        List<String> command = new ArrayList<>();
        for (int i = 1; i < test.size(); i++) {
            command.add(test.get(i).asText().replace("$$", "$").replace("/" + servicePort, "/" + port));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "health check hangs");
        return p.exitValue();
    }
}
