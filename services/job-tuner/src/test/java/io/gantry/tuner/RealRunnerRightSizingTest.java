package io.gantry.tuner;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobResult;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import io.gantry.events.ModelGraph;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.gantry.scheduling.trace.SharedTraces;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Right-sizing from what the real job runner measured: five runs of one model by the runner jar as processes, each
 * publishing its {@code JobResult} (peak RSS from {@code /proc/self/status}, CPU-seconds) to a real broker; the tuner's
 * {@code JobTuned} for the sixth run of that model asks for memory within 1.5 x of the largest measured peak and not
 * below it. Needs {@code job-runner/target/job-runner-*.jar} (the reactor builds it before this module); without it
 * the test is skipped, and fails under {@code CI=true}.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class RealRunnerRightSizingTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static Path runnerJar() throws IOException {
        Path dir = Path.of("../../job-runner/target");
        Path jar = null;
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                jar = s.filter(p -> p.getFileName().toString().matches("job-runner-.*\\.jar")
                        && !p.getFileName().toString().contains("sources")).findFirst().orElse(null);
            }
        }
        String why = "no job runner jar in " + dir.toAbsolutePath().normalize()
                + " (./mvnw -B -DskipTests package -pl job-runner -am)";
        if (jar == null && "true".equals(System.getenv("CI"))) {
            throw new AssertionError(why);
        }
        Assumptions.assumeTrue(jar != null, why);
        return jar;
    }

    @Test
    void afterFiveRealRunsTheSixthRunsMemoryRequestIsWithinOneAndAHalfTimesTheMeasuredPeakAndNotBelowIt()
            throws Exception {
        Path jar = runnerJar();
        double before = measuredRuns();
        String bootstrap = KafkaBrokerTestResource.broker().bootstrapServers();
        // An MLP on iris of its own (13 hidden units), stopping at test accuracy 0.9: a run takes a few seconds.
        TrainingSpec spec = new TrainingSpec(new ModelGraph(List.of(
                new ModelGraph.Layer("in", "Input", Map.of()),
                new ModelGraph.Layer("fc1", "Linear", Map.of("units", 13)),
                new ModelGraph.Layer("relu", "ReLU", Map.of()),
                new ModelGraph.Layer("out", "Output", Map.of())),
                List.of(new ModelGraph.Edge("in", "fc1"), new ModelGraph.Edge("fc1", "relu"),
                        new ModelGraph.Edge("relu", "out"))),
                "iris", "sgd", 0.05, 16, 30, 7L, new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.9));
        Path dir = Files.createTempDirectory("right-sizing");
        Path specFile = dir.resolve("spec.json");
        Files.writeString(specFile, EventCodec.mapper().writeValueAsString(spec));
        try (TopicProbe probe = new TopicProbe(bootstrap)) {
            // Two runners at a time: each trains on one thread, so a pair uses both of this machine's cores where one
            // after the other left one idle. Each still measures its own process's peak RSS and CPU.
            List<Process> pair = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                pair.add(new ProcessBuilder("java", "-Xmx256m", "-XX:+UseSerialGC", "-jar", jar.toString(),
                        "--spec", specFile.toString(), "--job-id", "real-rs-" + i, "--user", "alice",
                        "--checkpoint-dir", dir.resolve("ck-" + i).toString(),
                        "--datasets", SharedTraces.sharedDir().resolve("datasets").toString(),
                        "--bootstrap", bootstrap, "--topic", Topics.JOBS_LIFECYCLE)
                        .redirectErrorStream(true).redirectOutput(dir.resolve("runner-" + i + ".log").toFile()).start());
                if (pair.size() == 2 || i == 4) {
                    for (Process p : pair) {
                        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "runner pid " + p.pid() + " did not end");
                        assertEquals(0, p.exitValue(), "a runner failed; logs in " + dir);
                    }
                    pair.clear();
                }
            }
            List<JobResult> results = probe.await(Topics.JOBS_LIFECYCLE, 5, WAIT,
                    s -> s.key().startsWith("real-rs-") && s.value().contains("\"JobResult\"")).stream()
                    .map(s -> EventCodec.decode(s.value(), JobResult.class)).toList();
            long peak = results.stream().mapToLong(JobResult::peakRssBytes).max().orElseThrow();
            assertTrue(peak > 50L << 20, "a JVM with DJL peaks far above 50 MiB: " + peak);
            results.forEach(r -> assertEquals(spec.modelKey(), r.modelKey()));

            // The tuner has taken the five results (its gauge counts them) before the sixth run is submitted.
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (measuredRuns() < before + results.size()) {
                assertTrue(System.nanoTime() < deadline, "the tuner never took the five results");
                Thread.sleep(200);
            }
            probe.send(Topics.JOBS_SUBMITTED, "real-rs-5", EventCodec.encode(new JobSubmitted(Events.newId(), 1,
                    Instant.now(), "real-rs-5", "alice", "iris-mlp", null, 1, new ResourceAmounts(0, 2000, 8192),
                    null, null, null, null, true, spec)));
            JobTuned tuned = EventCodec.decode(probe.await(Topics.JOBS_TUNED, 1, WAIT,
                    s -> s.key().equals("real-rs-5")).get(0).value(), JobTuned.class);
            long request = tuned.perTask().memoryMib() << 20;
            assertTrue(request >= peak, "memory request " + tuned.perTask().memoryMib() + " MiB below the measured peak "
                    + (peak >> 20) + " MiB");
            assertTrue(request <= 1.5 * peak, "memory request " + tuned.perTask().memoryMib() + " MiB above 1.5 x the"
                    + " measured peak " + (peak >> 20) + " MiB");
        }
    }

    /** What the tuner's {@code gantry_tuner_measured_runs} gauge says (each run counted once, by job and attempt). */
    private static double measuredRuns() {
        String body = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return body.lines().filter(l -> l.startsWith("gantry_tuner_measured_runs "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1))).findFirst().orElseThrow();
    }
}
