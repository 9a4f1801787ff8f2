package io.gantry.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.KafkaClientAuth;
import io.gantry.events.Topics;
import io.gantry.kafka.TopicProbe;
import io.gantry.system.ExactlyOnceChecks;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 18: the system in containers, as a user starts it, on one stack for four checks in order (one
 * {@code compose up} instead of one per check: on two cores a stack takes a minute or more to become healthy).
 * <ol>
 *   <li>{@code ./gantry compose up} (the real broker, PostgreSQL, the services and Prometheus from docker-compose.yml,
 *   on the images built by {@code -Pimages}); every service's {@code /q/health/ready} answers UP through its
 *   published port; the README's console-producer example submits a job (logged in with the submitter's client
 *   config that compose writes), and {@code JobCompleted} appears on the lifecycle topic; a real training job runs in
 *   pod-dispatcher's container (its runner logged in as job-runner) and reports its {@code JobResult}.</li>
 *   <li>The published Kafka port (SASL/SCRAM, as the network's) refuses a producer without credentials, and the
 *   submitter's login may not write scheduling decisions.</li>
 *   <li>The sac-scheduler container killed with SIGKILL while 300 jobs are in flight: a real trace window (Alibaba
 *   openb, fractional GPUs, 10 submissions a second, on the compose default of 13 simulated nodes), submitted by the
 *   replay CLI as {@code ./gantry up} does, as RestartUnderLoadTest does with processes (which also runs the
 *   contended two-node case). The kill is of the container's main process, from the host, as the kernel's OOM killer
 *   or a crash would end it: compose's {@code restart: unless-stopped} brings it back. ({@code podman kill}/{@code
 *   docker kill} would not do: the engine records a kill through its API as a stop by the user, which
 *   {@code unless-stopped} does not restart.) Then every job ends exactly once: the replay's summary (0 lost,
 *   0 duplicates, 0 unfinished, 0 failed) and the topics themselves (one start per stint, one decision per stint).</li>
 *   <li>{@code docker-compose down -v} leaves no container, volume or network of the project behind.</li>
 * </ol>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ComposeSystemTest {

    private static final String JOB = "all-gpus-1";
    private static final String REAL_JOB = "compose-real-iris-1";
    private static final int KILL_JOBS = 300;
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
    private static final String KILLED = "sac-scheduler";

    private String engine;
    private ComposeStack stack;

    @BeforeAll
    void up() throws IOException {
        engine = ComposeStack.engineOrSkip();
        stack = new ComposeStack("gantry-ct-system", Map.of());
        stack.up();
    }

    @AfterAll
    void close() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void composeUpRunsAJobFromTheReadmeExampleAndARealTrainingJob() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (var service : ComposeStack.SERVICE_PORTS.entrySet()) {
            HttpResponse<String> ready = get(http, "http://localhost:" + service.getValue() + "/q/health/ready");
            assertEquals(200, ready.statusCode(), service.getKey() + " not ready: " + ready.body());
            assertTrue(ready.body().matches("(?s)\\{\\s*\"status\"\\s*:\\s*\"UP\".*"),
                    service.getKey() + " /q/health/ready: " + ready.body());
        }
        HttpResponse<String> prometheus = get(http, "http://localhost:39090/-/ready");
        assertEquals(200, prometheus.statusCode(), "Prometheus /-/ready: " + prometheus.body());

        // The README's example, word for word but for the bootstrap address (the published Kafka port), the client config
        // (this project's submitter login, .gantry/compose/<project>/security) and the
        // one job: all-gpus-1 needs every GPU of the 13 nodes and runs 600 trace seconds.
        String readmeExample = "cd " + ComposeStack.ROOT + " && "
                + "echo '" + JOB + "|{\"type\":\"JobSubmitted\",\"eventId\":\"'$(cat /proc/sys/kernel/random/uuid)'\","
                + "\"schemaVersion\":1,\"occurredAt\":\"'$(date -u +%FT%TZ)'\",\"jobId\":\"" + JOB + "\",\"user\":\"bob\","
                + "\"tasks\":13,\"perTask\":{\"gpuMilli\":8000,\"cpuMilli\":12000,\"memoryMib\":16384},\"durationS\":600}'"
                + " | java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp \"embedded-kafka/target/lib/*\""
                + " org.apache.kafka.tools.ConsoleProducer --bootstrap-server " + stack.bootstrap()
                + " --topic gantry.jobs.submitted --producer.config " + stack.securityDir().resolve("kafka-submitter.properties")
                + " --property parse.key=true --property key.separator='|'";
        assertEquals(0, ComposeStack.run(List.of("bash", "-c", readmeExample), Duration.ofMinutes(2), Map.of(),
                stack.logs.resolve("console-producer.log")), "the console producer failed; see " + stack.logs);
        KafkaClientAuth submitter = stack.clientLogin("kafka-submitter.properties");
        try (TopicProbe probe = new TopicProbe(stack.bootstrap(), submitter)) {
            List<TopicProbe.Seen> completed = probe.await(Topics.JOBS_LIFECYCLE, 1, Duration.ofMinutes(3),
                    r -> r.value().contains("\"JobCompleted\"") && r.value().contains("\"jobId\":\"" + JOB + "\""));
            assertEquals(1, completed.size());

            // A real training job (README "Real training jobs"): pod-dispatcher's container runs the job runner it
            // carries on the mounted datasets; its JobResult and then JobCompleted come back on the topic.
            probe.send(Topics.JOBS_SUBMITTED, REAL_JOB, "{\"type\":\"JobSubmitted\",\"eventId\":\"" + UUID.randomUUID()
                    + "\",\"schemaVersion\":1,\"occurredAt\":\"" + Instant.now() + "\",\"jobId\":\"" + REAL_JOB
                    + "\",\"user\":\"alice\",\"tasks\":1,\"perTask\":{\"gpuMilli\":0,\"cpuMilli\":1000,\"memoryMib\":1024},"
                    + "\"training\":{\"model\":{\"layers\":[{\"id\":\"in\",\"type\":\"Input\"},"
                    + "{\"id\":\"h\",\"type\":\"Linear\",\"params\":{\"units\":8}},{\"id\":\"r\",\"type\":\"ReLU\"},"
                    + "{\"id\":\"out\",\"type\":\"Output\"}],\"edges\":[{\"from\":\"in\",\"to\":\"h\"},"
                    + "{\"from\":\"h\",\"to\":\"r\"},{\"from\":\"r\",\"to\":\"out\"}]},\"dataset\":\"iris\","
                    + "\"optimizer\":\"adam\",\"learningRate\":0.05,\"batchSize\":16,\"epochs\":5,\"seed\":7}}");
            List<TopicProbe.Seen> ended = probe.await(Topics.JOBS_LIFECYCLE, 2, Duration.ofMinutes(5),
                    r -> r.value().contains("\"jobId\":\"" + REAL_JOB + "\"")
                            && (r.value().contains("\"JobResult\"") || r.value().contains("\"JobCompleted\"")
                                || r.value().contains("\"JobFailed\"") || r.value().contains("\"JobRejected\"")));
            assertTrue(ended.get(0).value().contains("\"JobResult\""), "the real job's first end event: " + ended.get(0).value());
            assertTrue(ended.get(1).value().contains("\"JobCompleted\""), "the real job's second end event: " + ended.get(1).value());
        }
    }

    /**
     * The published port takes SCRAM logins only (README "Security"): a producer without credentials cannot even
     * fetch metadata, and the submitter's login, which may submit jobs, may not write scheduling decisions.
     */
    @Test
    @Order(2)
    void thePublishedPortRefusesAProducerWithoutCredentialsAndHoldsTheSubmitterToItsTopics() throws Exception {
        assertThrows(TimeoutException.class, () -> send(KafkaClientAuth.PLAINTEXT, Topics.SCHEDULING_DECISIONS));
        KafkaClientAuth submitter = stack.clientLogin("kafka-submitter.properties");
        assertThrows(TopicAuthorizationException.class, () -> send(submitter, Topics.SCHEDULING_DECISIONS));
    }

    /** One record to {@code topic} through the published port, as {@code auth}; 5 s to fetch its metadata. */
    private void send(KafkaClientAuth auth, String topic) throws Exception {
        TopicProbe.sendOnce(stack.bootstrap(), auth.clientConfig(), Duration.ofSeconds(5), topic, "forged-1");
    }

    @Test
    @Order(3)
    void sacSchedulerContainerSigkilledMidRunIsRestartedAndEveryJobEndsExactlyOnce() throws Exception {
        // By its labels: docker-compose 1.29 and compose v2 name containers differently.
        String container = ComposeStack.output(List.of(engine, "ps", "-q", "--filter",
                "label=com.docker.compose.project=" + stack.project, "--filter", "label=com.docker.compose.service=" + KILLED));
        assertTrue(container.matches("[0-9a-f]+"), "one " + KILLED + " container: " + container);
        Path summary = stack.logs.resolve("summary.json");
        Files.deleteIfExists(summary);
        KafkaClientAuth submitter = stack.clientLogin("kafka-submitter.properties");
        Process replay = ComposeStack.replay(stack.bootstrap(), submitter, KILL_JOBS, 6500, summary, RUN_TIMEOUT, stack.logs);
        try (TopicProbe probe = new TopicProbe(stack.bootstrap(), submitter)) {
            // In flight: a tenth of the jobs have ended, the rest are queued, running or still to be submitted.
            probe.await(Topics.JOBS_LIFECYCLE, KILL_JOBS / 10, RUN_TIMEOUT, ExactlyOnceChecks::terminal);
            String pid = inspect(engine, container, "{{.State.Pid}}");
            int restartsBefore = Integer.parseInt(inspect(engine, container, "{{.RestartCount}}"));
            assertEquals(0, ComposeStack.run(List.of("kill", "-KILL", pid), Duration.ofSeconds(10)), "kill " + pid);

            // Compose's restart policy, not this test, starts it again; then it is healthy again.
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            String state = "";
            while (System.nanoTime() < deadline) {
                state = inspect(engine, container, "{{.RestartCount}} {{.State.Status}} {{.State.Health.Status}} {{.State.Pid}}");
                String[] f = state.split(" ");
                if (Integer.parseInt(f[0]) > restartsBefore && f[1].equals("running") && f[2].equals("healthy")) {
                    assertNotEquals(pid, f[3], "a new main process");
                    break;
                }
                Thread.sleep(1000);
            }
            assertTrue(state.startsWith((restartsBefore + 1) + " running healthy"),
                    KILLED + " was not restarted by its restart policy: " + state + "\n" + stack.status());

            assertTrue(replay.waitFor(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
                    "the replay did not end within " + RUN_TIMEOUT + "; logs in " + stack.logs);
            String context = KILLED + " container SIGKILLed after " + KILL_JOBS / 10 + " jobs ended; logs in " + stack.logs;
            assertEquals(0, replay.exitValue(), "replay exit code; " + context);
            ExactlyOnceChecks.summaryEndedEveryJobOnce(summary, KILL_JOBS, context);
            ExactlyOnceChecks.eachStintStartedOnceAndNothingFailed(probe, context);
        } finally {
            replay.destroyForcibly();
        }
    }

    @Test
    @Order(4)
    void downLeavesNothing() throws Exception {
        stack.saveLogs();
        assertEquals(0, stack.down(), "./gantry compose down -v failed; see " + stack.logs);
        String label = "label=com.docker.compose.project=" + stack.project;
        assertEquals("", ComposeStack.output(List.of(engine, "ps", "-a", "-q", "--filter", label)), "containers left");
        assertEquals("", ComposeStack.output(List.of(engine, "volume", "ls", "-q", "--filter", label)), "volumes left");
        assertEquals("", ComposeStack.output(List.of(engine, "network", "ls", "-q", "--filter", label)), "networks left");
    }

    /**
     * GET through the published port, until it answers 200 or a minute has passed (the last answer or error is then
     * what fails): on a loaded two-core machine a healthy container may take seconds to answer.
     */
    private static HttpResponse<String> get(HttpClient http, String url) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 || System.nanoTime() > deadline) {
                    return r;
                }
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no answer from " + url + " within a minute", e);
                }
            }
            Thread.sleep(1000);
        }
    }

    private static String inspect(String engine, String container, String format) throws IOException, InterruptedException {
        return ComposeStack.output(List.of(engine, "inspect", "--format", format, container));
    }
}
