package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ./gantry up} watches what it started: a service killed (SIGKILL) in the middle of a replay is reported on the
 * launcher's output, started again, and the run still ends with every job done exactly once; with
 * {@code --no-restart} the death stops the run instead. Either way no process of the run is left behind. The first
 * run also shows that the launcher's broker is secured by default (its every client logged in to finish the run).
 */
class LauncherSupervisionTest {

    private static final int JOBS = 120;
    /** Arrivals at a fixed rate, so the kill lands while jobs are still being submitted (about 30 s of them). */
    private static final String[] REPLAY = {"--jobs", String.valueOf(JOBS), "--rate", "4", "--speedup", "1000000",
            "--exit-when-done", "--timeout-s", "900"};
    /** Jobs submitted before the kill. */
    private static final int KILL_AFTER = 20;
    private static final Duration START = Duration.ofSeconds(300);
    private static final Duration RUN = Duration.ofSeconds(900);

    @ParameterizedTest
    @ValueSource(strings = {"sac-scheduler"})
    void aKilledServiceIsReportedRestartedAndNoJobIsLostOrDoneTwice(String service) throws Exception {
        try (GantryLauncher gantry = new GantryLauncher()) {
            Path summary = gantry.work().resolve("summary.json");
            gantry.up(withSummary(summary));
            long killed = killMidRun(gantry, service);

            GantryProcesses.await(Duration.ofSeconds(240), service + " running again under a new pid", () -> {
                OptionalLong now = gantry.pid(service);
                return now.isPresent() && now.getAsLong() != killed && gantry.ready(service);
            });
            long restarted = gantry.pid(service).orElseThrow();
            assertNotEquals(killed, restarted, "a new process");
            assertTheBrokerIsSecured(gantry);

            int exit = gantry.awaitExit(RUN);
            String out = gantry.output();
            assertEquals(0, exit, "the run ends well; output:\n" + gantry.tail());
            assertTrue(out.contains(service + " exited (code 137, killed by SIGKILL); restarting (1/3)"),
                    "the death is reported with its cause and the restart:\n" + gantry.tail());
            assertTrue(out.contains(service + " ready again (pid " + restarted),
                    "the recovery is reported:\n" + gantry.tail());

            JsonNode s = EventCodec.mapper().readTree(Files.readString(summary));
            assertEquals(JOBS, s.get("submitted").asInt(), "submitted: " + s);
            assertEquals(JOBS, s.get("completed").asInt(), "every job completed: " + s);
            assertEquals(0, s.get("failed").asInt(), "failed: " + s);
            assertEquals(0, s.get("duplicates").asInt(), "no job started or ended twice: " + s);
            assertEquals(0, s.get("unfinished").asInt(), "unfinished: " + s);
            assertEquals(1, s.get("service_restarts").asInt(), "one restart counted: " + s);

            assertNothingLeft(gantry, List.of(killed, restarted));
        }
    }

    @Test
    void withNoRestartADeathStopsTheRunWithExitCode3() throws Exception {
        String service = "job-tuner";
        try (GantryLauncher gantry = new GantryLauncher()) {
            Path summary = gantry.work().resolve("summary.json");
            String[] args = withSummary(summary);
            String[] noRestart = Arrays.copyOf(args, args.length + 1);
            noRestart[args.length] = "--no-restart";
            gantry.up(noRestart);
            long killed = killMidRun(gantry, service);

            int exit = gantry.awaitExit(Duration.ofSeconds(180));
            String out = gantry.output();
            assertEquals(3, exit, "a process down for good ends the run with exit code 3; output:\n" + gantry.tail());
            assertTrue(out.contains(service + " exited (code 137, killed by SIGKILL); not restarted (--no-restart)"),
                    "the death is reported:\n" + gantry.tail());
            assertTrue(out.contains(service + " is down and not restarted"), "the launcher says why it stops:\n"
                    + gantry.tail());
            assertTrue(gantry.pid(service).isEmpty() || gantry.pid(service).getAsLong() == killed,
                    "no new " + service);
            // The replay was stopped, not finished: its summary says so.
            JsonNode s = EventCodec.mapper().readTree(Files.readString(summary));
            assertTrue(s.get("submitted").asInt() < JOBS || s.get("unfinished").asInt() > 0, "stopped early: " + s);
            assertEquals(0, s.get("service_restarts").asInt(), "no restart: " + s);

            assertNothingLeft(gantry, List.of(killed));
        }
    }

    /**
     * The run's broker (the default, secured): its users file is the owner's only, a producer without credentials
     * cannot write {@code gantry.scheduling.decisions}, nor can the run's own submitter, which may write submissions;
     * and the broker said it runs with SASL/SCRAM. (Every principal's table: embedded-kafka's BrokerSecurityTest.)
     */
    private static void assertTheBrokerIsSecured(GantryLauncher gantry) throws Exception {
        Path users = gantry.run().resolve("security/kafka-users.properties");
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(users), users.toString());
        assertTrue(Files.readString(gantry.run().resolve("logs/kafka.log")).contains("SECURITY SASL/SCRAM-SHA-512"),
                "the broker says it is secured");

        Exception plain = assertThrows(Exception.class,
                () -> send(gantry.bootstrap(), KafkaClientAuth.PLAINTEXT, Topics.SCHEDULING_DECISIONS));
        assertInstanceOf(TimeoutException.class, causeOf(plain), "no credentials, not even metadata: " + plain);

        Properties passwords = new Properties();
        try (var in = Files.newBufferedReader(users)) {
            passwords.load(in);
        }
        KafkaClientAuth submitter = KafkaClientAuth.scram("submitter", passwords.getProperty("submitter"));
        Exception forged = assertThrows(Exception.class,
                () -> send(gantry.bootstrap(), submitter, Topics.SCHEDULING_DECISIONS));
        assertInstanceOf(TopicAuthorizationException.class, causeOf(forged), "the submitter forging a decision: " + forged);
    }

    /** One record, sent and waited for; a client that cannot fetch metadata gives up after 5 s. */
    private static void send(String bootstrap, KafkaClientAuth auth, String topic) throws Exception {
        Map<String, Object> p = new HashMap<>(auth.clientConfig());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "forged-1", "{}")).get(30, TimeUnit.SECONDS);
        }
    }

    private static Throwable causeOf(Exception e) {
        return e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    }

    private static String[] withSummary(Path summary) {
        String[] args = Arrays.copyOf(REPLAY, REPLAY.length + 2);
        args[REPLAY.length] = "--summary";
        args[REPLAY.length + 1] = summary.toString();
        return args;
    }

    /** Waits until the replay is under way, then kills the service's process as a crash would; its pid. */
    private static long killMidRun(GantryLauncher gantry, String service) throws Exception {
        GantryProcesses.await(START, KILL_AFTER + " jobs submitted", () -> {
            if (!gantry.running()) {
                // An AssertionError is not retried: a run that ended (a service that could not start) fails at once.
                throw new AssertionError("./gantry up ended before " + KILL_AFTER + " jobs were submitted; its output "
                        + "ends with:\n" + gantry.tail());
            }
            return gantry.submitted() >= KILL_AFTER;
        });
        // What finds the leftovers at the end must see the running system now: broker, five services, studio, replay.
        assertEquals(8, gantry.leftovers().size(), "the run's processes: " + GantryLauncher.describe(gantry.leftovers()));
        long pid = gantry.pid(service).orElseThrow(() -> new AssertionError("no pid file for " + service));
        ProcessHandle p = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError(service + " (" + pid + ") is gone"));
        assertTrue(p.destroyForcibly(), "SIGKILL sent to " + service);
        p.onExit().get();
        return pid;
    }

    private static void assertNothingLeft(GantryLauncher gantry, List<Long> servicePids) throws Exception {
        // The launcher waits for what it stops, so nothing should remain; a process may take a moment to vanish.
        try {
            GantryProcesses.await(Duration.ofSeconds(10), "no process of the run left", () -> gantry.leftovers().isEmpty());
        } catch (AssertionError e) {
            throw new AssertionError("left behind: " + GantryLauncher.describe(gantry.leftovers()), e);
        }
        for (long pid : servicePids) {
            assertTrue(ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true), "process " + pid + " still runs");
        }
    }
}
