package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.Topics;
import io.gantry.kafka.TopicProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22's kill test: a real trace replayed into the whole system (the broker and the five services as processes,
 * the replay CLI as {@code ./gantry up} runs it), with the {@code sac} policy preempting, while the scheduler and the
 * dispatcher are each killed with SIGKILL three times, taking turns at seeded random moments, and started again each
 * time. One run per trace kills both (rather than one run per service and trace): it halves the test's time and
 * also covers a service restarting while the other one's restore is still catching up. Afterwards every job ended
 * exactly once (0 lost, 0 duplicates, 0 unfinished) and none failed: a restart is never a job's failure. Two traces:
 * the Alibaba openb window is mostly fractional-GPU pods (on two nodes, submitted at a fixed rate, so they contend
 * and sac stops jobs); the Philly window has gangs of 2 and more 8-GPU tasks on the 13 nodes at Philly's own load.
 */
class RestartUnderLoadTest {

    /** The services killed, in turn: each {@value #KILLS_EACH} times per run. */
    private static final List<String> KILLED = List.of("sac-scheduler", "pod-dispatcher");
    private static final int KILLS_EACH = 3;
    private static final int JOBS = 300;
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);

    /**
     * A workload and the cluster it runs on.
     *
     * @param replay the replay CLI's flags that choose the trace window and its pace
     */
    record Scenario(String name, int nodes, double speedup, List<String> replay) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final Scenario OPENB = new Scenario("openb (fractional GPUs)", 2, 1000,
            List.of("--trace", "openb", "--skip", "6500", "--rate", "10"));
    static final Scenario PHILLY = new Scenario("philly (gangs)", 13, 15000,
            List.of("--trace", "philly", "--skip", "7250"));

    static Stream<Arguments> traces() {
        return Stream.of(Arguments.of(OPENB), Arguments.of(PHILLY));
    }

    @ParameterizedTest(name = "scheduler and dispatcher killed on {0}")
    @MethodSource("traces")
    void servicesKilledThreeTimesEachMidRunLoseNoJobFailNoneAndBindNoneTwice(Scenario scenario) throws Exception {
        // The moments: when these shares of the jobs have ended, seeded per trace so a failure can be replayed.
        Random rnd = new Random(("kills@" + scenario.name()).hashCode());
        double[] shares = new double[KILLED.size() * KILLS_EACH];
        Arrays.setAll(shares, i -> 0.05 + 0.75 * rnd.nextDouble());
        Arrays.sort(shares);
        try (GantryProcesses system = new GantryProcesses()) {
            system.startBroker();
            system.startServices(Map.of("GANTRY_SIMULATED_CLUSTER_NODES", String.valueOf(scenario.nodes()),
                    "GANTRY_SIMULATED_CLUSTER_SPEEDUP", String.valueOf(scenario.speedup())));
            Path summary = system.logs().resolve("summary.json");
            Process replay = replay(system, scenario, summary);
            List<String> kills = new ArrayList<>();
            try (TopicProbe probe = new TopicProbe(system.bootstrap())) {
                for (int i = 0; i < shares.length; i++) {
                    String service = KILLED.get(i % KILLED.size());
                    int ended = (int) Math.round(shares[i] * JOBS);
                    probe.await(Topics.JOBS_LIFECYCLE, ended, RUN_TIMEOUT, RestartUnderLoadTest::terminal);
                    long before = system.pid(service);
                    system.crashAndRestart(service);
                    assertTrue(system.pid(service) != before, service + " runs as a new process");
                    kills.add(String.format("%s after %d ended", service, ended));
                }
                assertTrue(replay.waitFor(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
                        "the replay did not end within " + RUN_TIMEOUT + "; logs in " + system.logs());
                String context = "killed " + kills + " on " + scenario + "; logs in " + system.logs();
                assertEquals(0, replay.exitValue(), "replay exit code; " + context);

                JsonNode s = ExactlyOnceChecks.summaryEndedEveryJobOnce(summary, JOBS, context);
                assertTrue(s.get("preempted").asInt() > 0, "the run must exercise preemption; " + context);
                eachStintStartedOnceAndNothingFailed(probe, context);
            } finally {
                replay.destroyForcibly();
            }
        }
    }

    private static void eachStintStartedOnceAndNothingFailed(TopicProbe probe, String context) {
        ExactlyOnceChecks.eachStintStartedOnceAndNothingFailed(probe, context);
    }

    private static boolean terminal(TopicProbe.Seen r) {
        return ExactlyOnceChecks.terminal(r);
    }

    /** The replay CLI as {@code ./gantry up} runs it, against this system's broker. */
    private static Process replay(GantryProcesses system, Scenario scenario, Path summary) throws IOException {
        Path root = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
        Path jar = root.resolve("sac-trainer/target/sac-trainer-0.1.0-SNAPSHOT.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run the build (./mvnw package) first");
        }
        List<String> command = new ArrayList<>(List.of("java", "-Xmx512m", GantryProcesses.C1_ONLY,
                "-Dgantry.shared.dir=" + System.getProperty("gantry.shared.dir", root.resolve("../shared").toString()),
                "-jar", jar.toString(), "replay", "--bootstrap", system.bootstrap(), "--jobs", String.valueOf(JOBS),
                "--speedup", String.valueOf(scenario.speedup()), "--exit-when-done", "--summary", summary.toString(),
                "--timeout-s", String.valueOf(RUN_TIMEOUT.toSeconds())));
        command.addAll(scenario.replay());
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(system.logs().resolve("replay.log").toFile())).start();
    }
}
