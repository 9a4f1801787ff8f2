package io.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.Trace;
import io.gantry.scheduling.trace.TraceFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceSplitTest {

    @Test
    void eachSplitKeepsExactlyItsDatesWithTimesFromZero(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("philly.csv"), """
                timestamp,duration,num_gpus,gpu_time,cluster
                2017-10-16 00:00:00,10.0,1,10.0,a
                2017-09-30 23:59:59,10.0,1,10.0,a
                2017-09-04 00:00:00,10.0,1,10.0,a
                2017-10-15 23:59:59,10.0,1,10.0,b
                2017-10-01 00:00:00,10.0,1,10.0,b
                2017-10-31 23:00:00,10.0,1,10.0,b
                """);
        Trace trace = TraceFormat.PHILLY.loader().load(file, NodeShape.ALIBABA_G2);
        assertEquals(List.of("philly-3", "philly-4"), ids(TraceSplit.TRAIN.apply(trace)));
        assertEquals(List.of("philly-5", "philly-6"), ids(TraceSplit.VALIDATE.apply(trace)));
        assertEquals(List.of("philly-2", "philly-7"), ids(TraceSplit.REPORT.apply(trace)));
        assertEquals(6, TraceSplit.ALL.apply(trace).jobs().size());
        Trace report = TraceSplit.REPORT.apply(trace);
        assertEquals(0.0, report.jobs().get(0).submitTime());
        assertEquals(15 * 86400.0 + 23 * 3600, report.jobs().get(1).submitTime());
        // The origin moves to the split's first job, so splitting again selects by the same calendar.
        assertEquals(ids(report), ids(TraceSplit.REPORT.apply(report)));
    }

    @Test
    void aTraceWithoutDatesOrAnUnknownNameIsRefused() {
        Trace undated = new Trace("openb", Path.of("x.csv"), List.of(), List.of(), List.of());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TraceSplit.TRAIN.apply(undated)).getMessage()
                .contains("no calendar dates"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TraceSplit.byCliName("test")).getMessage()
                .contains("known: all, train, validate, report"));
    }

    private static List<String> ids(Trace t) {
        return t.jobs().stream().map(JobRequest::id).toList();
    }
}
