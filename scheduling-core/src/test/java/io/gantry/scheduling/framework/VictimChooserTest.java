package io.gantry.scheduling.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The one victim chooser: least urgent first, only less urgent jobs, only as many as make room, nothing on failure. */
class VictimChooserTest {

    private static JobRequest job(String id, double gpus) {
        return new JobRequest(id, "u", 1, Resources.ofGpus(gpus, 4, 16), 0, 0, Double.NaN, 10);
    }

    /** Two 4-GPU nodes, each full with one running job; candidates given least urgent first. */
    private static final ClusterState FULL = full();
    private static final VictimChooser.Candidate ON_A = new VictimChooser.Candidate(
            new RunningJob(job("on-a", 4), List.of("a"), 0, 0), 300);
    private static final VictimChooser.Candidate ON_B = new VictimChooser.Candidate(
            new RunningJob(job("on-b", 4), List.of("b"), 0, 0), 200);

    private static ClusterState full() {
        ClusterState c = new ClusterState(List.of(new NodeSpec("a", Resources.ofGpus(4, 48, 192)),
                new NodeSpec("b", Resources.ofGpus(4, 48, 192))));
        c.allocate("a", Resources.ofGpus(4, 4, 16));
        c.allocate("b", Resources.ofGpus(4, 4, 16));
        return c;
    }

    private static GangPlacer placer() {
        return new GangPlacer(FULL.nodes(), List.of(), NodeScorer.LEAST_ALLOCATED);
    }

    private static Predicate<GangPlacer> fits(JobRequest j) {
        return p -> p.slotsFor(j.perTask()) >= j.tasks();
    }

    @Test
    void stopsTheLeastUrgentFirstAndNoMoreThanMakeRoom() {
        JobRequest j = job("new", 4);
        GangPlacer placer = placer();
        VictimChooser.Plan plan = new VictimChooser(0).choose(placer, List.of(ON_A, ON_B), Set.of(), j, 100, fits(j));
        assertEquals(List.of(ON_A), plan.victims());
        assertEquals(4000, plan.trial().free(0).gpuMilli(), "a is released on the trial");
        assertEquals(0, placer.free(0).gpuMilli(), "the placer itself is unchanged until the caller adopts the trial");
    }

    @Test
    void neverStopsAJobAsUrgentAsTheOneToStartNorOneAlreadyGone() {
        JobRequest j = job("new", 4);
        VictimChooser free = new VictimChooser(0);
        assertNull(free.choose(placer(), List.of(ON_A, ON_B), Set.of(), j, 300, fits(j)), "on-a is as urgent");
        assertEquals(List.of(ON_B), free.choose(placer(), List.of(ON_A, ON_B), Set.of("on-a"), j, 100, fits(j))
                .victims(), "on-a was stopped already: on-b is next");
    }

    @Test
    void aRestartCostSparesVictimsNotLessUrgentByMoreThanWhatTheyWouldLose() {
        JobRequest j = job("new", 4);
        // on-a is 200 less urgent; stopping it loses 60 s × 4 GPUs = 240 GPU-seconds: not worth it. on-b (100) neither.
        assertNull(new VictimChooser(60).choose(placer(), List.of(ON_A, ON_B), Set.of(), j, 100, fits(j)));
        assertEquals(List.of(ON_A), new VictimChooser(40).choose(placer(), List.of(ON_A, ON_B), Set.of(), j, 100,
                fits(j)).victims(), "at 40 s (160 GPU-seconds) on-a is worth stopping");
    }

    @Test
    void aJobThatNoStopCanMakeRoomForStopsNothing() {
        JobRequest j = new JobRequest("gang", "u", 3, Resources.ofGpus(4, 4, 16), 0, 0, Double.NaN, 10);
        assertNull(new VictimChooser(0).choose(placer(), List.of(ON_A, ON_B), Set.of(), j, 100, fits(j)),
                "three 4-GPU tasks never fit two 4-GPU nodes");
    }
}
