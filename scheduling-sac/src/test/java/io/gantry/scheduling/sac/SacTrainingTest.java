package io.gantry.scheduling.sac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.TraceFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class SacTrainingTest {

    private static final List<NodeSpec> NODES = NodeShape.ALIBABA_G2.nodes(4);

    private static List<JobRequest> firstPhillyJobs(int n) {
        List<JobRequest> jobs = new ArrayList<>(TraceFormat.PHILLY.loader()
                .load(TraceFormat.PHILLY.defaultFile(), NodeShape.ALIBABA_G2).jobs());
        jobs.sort(Comparator.comparingDouble(JobRequest::submitTime).thenComparing(JobRequest::id));
        return jobs.subList(0, n);
    }

    /** The log without wall times, which are the only thing allowed to differ between runs. */
    private static List<String> trainLog(List<JobRequest> jobs, long seed) {
        SacSettings settings = new SacSettings(8, 4, 32, 0.99, 0.005, 3e-4, 3e-4, 0.2, 0.3, 32, 5000, 100.0 * 3600, 0.5, 0.5);
        List<String> log = new ArrayList<>();
        try (SacAgent agent = SacAgent.create(settings, seed)) {
            SacTraining.train(new SacTraining.Config(jobs, NODES, List.of(1.0, 1.2), 3, 80, 0.5, 32, seed, settings), agent,
                    l -> log.add(new SacTraining.EpisodeLog(l.episode(), l.load(), l.jobs(), l.decisions(), l.episodeReturn(),
                            l.avgJctS(), l.policyEntropy(), l.alpha(), l.actorLoss(), l.criticLoss(), l.updates(), 0).toString()));
        }
        return log;
    }

    @Test
    void theSameSeedGivesTheSameTrainingLog() {
        List<JobRequest> jobs = firstPhillyJobs(400);
        List<String> first = trainLog(jobs, 7);
        assertEquals(3, first.size());
        assertTrue(first.get(2).contains("updates=") && !first.get(2).contains("updates=0,"),
                "the run must take gradient steps for the comparison to mean anything: " + first.get(2));
        assertEquals(first, trainLog(jobs, 7));
        assertNotEquals(first, trainLog(jobs, 8));
    }
}
