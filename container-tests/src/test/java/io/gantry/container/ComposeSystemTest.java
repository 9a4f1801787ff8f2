package io.gantry.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Topics;
import io.gantry.kafka.TopicProbe;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 18: the system in containers, as a user starts it. {@code ./gantry compose up} (the real broker, PostgreSQL,
 * the five services and Prometheus from docker-compose.yml, on the images built by {@code -Pimages}); every
 * service's {@code /q/health/ready} answers UP through its published port; the README's console-producer example
 * submits a job, and {@code JobCompleted} appears on the lifecycle topic; {@code docker-compose down -v} leaves no
 * container, volume or network of the project behind.
 */
class ComposeSystemTest {

    private static final String JOB = "all-gpus-1";

    @Test
    void composeUpRunsAJobFromTheReadmeExampleAndDownLeavesNothing() throws Exception {
        String engine = ComposeStack.engineOrSkip();
        try (ComposeStack stack = new ComposeStack("gantry-ct-system", Map.of())) {
            stack.up();

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (var service : ComposeStack.SERVICE_PORTS.entrySet()) {
                HttpResponse<String> ready = get(http, "http://localhost:" + service.getValue() + "/q/health/ready");
                assertEquals(200, ready.statusCode(), service.getKey() + " not ready: " + ready.body());
                assertTrue(ready.body().matches("(?s)\\{\\s*\"status\"\\s*:\\s*\"UP\".*"),
                        service.getKey() + " /q/health/ready: " + ready.body());
            }
            HttpResponse<String> prometheus = get(http, "http://localhost:39090/-/ready");
            assertEquals(200, prometheus.statusCode(), "Prometheus /-/ready: " + prometheus.body());

            // The README's example, word for word but for the bootstrap address (the published Kafka port) and the
            // one job: all-gpus-1 needs every GPU of the 13 nodes and runs 600 trace seconds.
            String readmeExample = "cd " + ComposeStack.ROOT + " && "
                    + "echo '" + JOB + "|{\"type\":\"JobSubmitted\",\"eventId\":\"'$(cat /proc/sys/kernel/random/uuid)'\","
                    + "\"schemaVersion\":1,\"occurredAt\":\"'$(date -u +%FT%TZ)'\",\"jobId\":\"" + JOB + "\",\"user\":\"bob\","
                    + "\"tasks\":13,\"perTask\":{\"gpuMilli\":8000,\"cpuMilli\":12000,\"memoryMib\":16384},\"durationS\":600}'"
                    + " | java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp \"embedded-kafka/target/lib/*\""
                    + " org.apache.kafka.tools.ConsoleProducer --bootstrap-server " + stack.bootstrap()
                    + " --topic gantry.jobs.submitted --property parse.key=true --property key.separator='|'";
            assertEquals(0, ComposeStack.run(List.of("bash", "-c", readmeExample), Duration.ofMinutes(2), Map.of(),
                    stack.logs.resolve("console-producer.log")), "the console producer failed; see " + stack.logs);
            try (TopicProbe probe = new TopicProbe(stack.bootstrap())) {
                List<TopicProbe.Seen> completed = probe.await(Topics.JOBS_LIFECYCLE, 1, Duration.ofMinutes(3),
                        r -> r.value().contains("\"JobCompleted\"") && r.value().contains("\"jobId\":\"" + JOB + "\""));
                assertEquals(1, completed.size());
            }
            stack.saveLogs();

            assertEquals(0, stack.down(), "./gantry compose down -v failed; see " + stack.logs);
            String label = "label=com.docker.compose.project=" + stack.project;
            assertEquals("", ComposeStack.output(List.of(engine, "ps", "-a", "-q", "--filter", label)), "containers left");
            assertEquals("", ComposeStack.output(List.of(engine, "volume", "ls", "-q", "--filter", label)), "volumes left");
            assertEquals("", ComposeStack.output(List.of(engine, "network", "ls", "-q", "--filter", label)), "networks left");
        }
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
}
