package io.gantry.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.JobSubmitted;
import io.gantry.events.Violation;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.trace.Trace;
import io.gantry.scheduling.trace.TraceFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every job of every shipped trace, turned into the {@code JobSubmitted} the replay sends, is valid by the event
 * contract: the contract's bounds ({@code io.gantry.events.Limits}) and name rule reject nothing a real trace holds.
 * Read in place from the shared traces folder ({@code gantry.shared.dir}, set by the poms), on the node shape the
 * replay uses by default.
 */
class ReplayEventsTest {

    private static final Path TRACES = SharedTraces.tracesDir();

    /** The openb pod lists that have arrival times; the multi-GPU variants lack them and cannot be replayed. */
    private static boolean replayable(Path openbPodList) {
        return !openbPodList.getFileName().toString().startsWith("openb_pod_list_multigpu");
    }

    static List<Path> files(String folder, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(TRACES.resolve(folder))) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix) && p.toString().endsWith(".csv"))
                    .sorted().toList();
        }
    }

    @TestFactory
    List<DynamicTest> everyJobOfEveryShippedTraceIsAValidSubmission() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : files("alibaba-gpu-v2023-openb", "openb_pod_list_")) {
            if (replayable(f)) {
                tests.add(check(TraceFormat.OPENB, f));
            }
        }
        tests.add(check(TraceFormat.PHILLY, TRACES.resolve("philly-pollux/philly-sep-oct.csv")));
        for (String folder : List.of("workloads", "workloads-0.5", "workloads-1.5")) {
            for (Path f : files("philly-pollux/" + folder, "workload-")) {
                tests.add(check(TraceFormat.POLLUX, f));
            }
        }
        // 18 openb pod lists, Philly, and 3 × 8 Pollux workloads.
        assertEquals(18 + 1 + 24, tests.size(), "the shipped trace files");
        return tests;
    }

    private static DynamicTest check(TraceFormat format, Path file) {
        return DynamicTest.dynamicTest(TRACES.relativize(file).toString(), () -> {
            Trace trace = format.loader().load(file, NodeShape.ALIBABA_G2);
            assertTrue(!trace.jobs().isEmpty() && trace.badRows().isEmpty(), file + " read whole");
            List<String> invalid = new ArrayList<>();
            for (JobRequest j : trace.jobs()) {
                JobSubmitted e = ReplayCommand.toEvent(j, Instant.now());
                List<Violation> v = e.violations();
                if (!v.isEmpty() && invalid.size() < 10) {
                    invalid.add(j.id() + ": " + v);
                }
            }
            assertEquals(List.of(), invalid, "jobs of " + file + " the contract would reject");
        });
    }

    /** The pod lists left out above are left out because the replay cannot read them, not to hide a rejection. */
    @Test
    void theOpenbListsLeftOutHaveNoArrivalTimes() throws IOException {
        List<Path> left = files("alibaba-gpu-v2023-openb", "openb_pod_list_").stream().filter(f -> !replayable(f)).toList();
        assertEquals(4, left.size(), left.toString());
        for (Path f : left) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TraceFormat.OPENB.loader().load(f, NodeShape.ALIBABA_G2));
            assertTrue(e.getMessage().contains("creation_time"), e.getMessage());
        }
    }
}
