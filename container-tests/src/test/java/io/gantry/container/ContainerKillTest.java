package io.gantry.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Topics;
import io.gantry.kafka.TopicProbe;
import io.gantry.system.ExactlyOnceChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 18: the sac-scheduler container killed with SIGKILL while 300 jobs are in flight. The jobs are a real trace
 * window (Alibaba openb, fractional GPUs, on two simulated nodes at 10 submissions/s, so they queue and {@code sac}
 * preempts), submitted by the replay CLI as {@code ./gantry up} does, as RestartUnderLoadTest does with processes.
 *
 * <p>The kill is of the container's main process, from the host, as the kernel's OOM killer or a crash would end it:
 * compose's {@code restart: unless-stopped} brings it back. ({@code podman kill}/{@code docker kill} would not do:
 * the engine records a kill through its API as a stop by the user, which {@code unless-stopped} does not restart.)
 * Then every job ends exactly once: the replay's summary (0 lost, 0 duplicates, 0 unfinished, 0 failed) and the
 * topics themselves (one start per stint, one decision per stint), the checks of the process-level restart tests.
 */
class ContainerKillTest {

    private static final int JOBS = 300;
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
    private static final String CONTAINER = "sac-scheduler";

    @Test
    void sacSchedulerContainerSigkilledMidRunIsRestartedAndEveryJobEndsExactlyOnce() throws Exception {
        String engine = ComposeStack.engineOrSkip();
        try (ComposeStack stack = new ComposeStack("gantry-ct-kill", Map.of(
                "GANTRY_SIMULATED_CLUSTER_NODES", "2", "GANTRY_SIMULATED_CLUSTER_SPEEDUP", "1000"))) {
            stack.up();
            // By its labels: docker-compose 1.29 and compose v2 name containers differently.
            String container = ComposeStack.output(List.of(engine, "ps", "-q", "--filter",
                    "label=com.docker.compose.project=" + stack.project, "--filter", "label=com.docker.compose.service=" + CONTAINER));
            assertTrue(container.matches("[0-9a-f]+"), "one " + CONTAINER + " container: " + container);
            Path summary = stack.logs.resolve("summary.json");
            Files.deleteIfExists(summary);
            Process replay = ComposeStack.replay(stack.bootstrap(), JOBS, 6500, summary, RUN_TIMEOUT, stack.logs);
            try (TopicProbe probe = new TopicProbe(stack.bootstrap())) {
                // In flight: a tenth of the jobs have ended, the rest are queued, running or still to be submitted.
                probe.await(Topics.JOBS_LIFECYCLE, JOBS / 10, RUN_TIMEOUT, ExactlyOnceChecks::terminal);
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
                        CONTAINER + " was not restarted by its restart policy: " + state + "\n" + stack.status());

                assertTrue(replay.waitFor(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
                        "the replay did not end within " + RUN_TIMEOUT + "; logs in " + stack.logs);
                String context = CONTAINER + " container SIGKILLed after " + JOBS / 10 + " jobs ended; logs in " + stack.logs;
                assertEquals(0, replay.exitValue(), "replay exit code; " + context);
                ExactlyOnceChecks.summaryEndedEveryJobOnce(summary, JOBS, context);
                ExactlyOnceChecks.eachStintStartedOnceAndNothingFailed(probe, context);
            } finally {
                replay.destroyForcibly();
            }
        }
    }

    private static String inspect(String engine, String container, String format) throws IOException, InterruptedException {
        return ComposeStack.output(List.of(engine, "inspect", "--format", format, container));
    }
}
