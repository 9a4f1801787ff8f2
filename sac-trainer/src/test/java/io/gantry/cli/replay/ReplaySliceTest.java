package io.gantry.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplaySliceTest {

    private static final List<JobRequest> TRACE = List.of(job("a", 10), job("b", 15), job("c", 20));

    private static JobRequest job(String id, double submitTime) {
        return new JobRequest(id, "u", 1, new Resources(1000, 1000, 1024), submitTime, 0, Double.NaN, 60);
    }

    private static List<String> ids(List<JobRequest> jobs) {
        return jobs.stream().map(JobRequest::id).toList();
    }

    @Test
    void withoutWrapATraceThatRunsOutEndsTheReplay() {
        assertEquals(List.of("b", "c"), ids(ReplayCommand.slice(TRACE, 1, 5, false)));
        assertEquals(List.of("a", "b"), ids(ReplayCommand.slice(TRACE, 0, 2, true)));
        assertEquals(List.of(), ids(ReplayCommand.slice(TRACE, 7, 2, true)));
    }

    @Test
    void wrapStartsOverWithNewIdsOneTraceSpanLater() {
        List<JobRequest> jobs = ReplayCommand.slice(TRACE, 1, 7, true);
        assertEquals(List.of("b", "c", "b-pass2", "c-pass2", "b-pass3", "c-pass3", "b-pass4"), ids(jobs));
        // The slice spans 15..20 s: each pass starts 6 s after the previous one, after its last arrival.
        assertEquals(List.of(15.0, 20.0, 21.0, 26.0, 27.0, 32.0, 33.0),
                jobs.stream().map(JobRequest::submitTime).toList());
        assertEquals(60, jobs.get(6).trueDurationS());
    }
}
