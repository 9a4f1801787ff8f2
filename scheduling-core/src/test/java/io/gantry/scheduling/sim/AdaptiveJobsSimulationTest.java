package io.gantry.scheduling.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.policy.KubeDefaultPolicy;
import io.gantry.scheduling.policy.TiresiasPolicy;
import io.gantry.scheduling.pollux.PolluxJobModel;
import io.gantry.scheduling.pollux.PolluxPolicy;
import io.gantry.scheduling.trace.NodeShape;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hand-worked replays of adaptive jobs on one 4-GPU node: job "a" has 400 units of work, trains at one unit per
 * second per GPU, and loses {@value #DELAY_S} s at every start; a GPU-count change costs that plus the preemption
 * cost ({@value #COST_S} s). Re-tunes happen at t = 60, 120, ...
 */
class AdaptiveJobsSimulationTest {

    private static final NodeShape SHAPE = new NodeShape(4, 64, 256);
    private static final List<NodeSpec> ONE_NODE = SHAPE.nodes(1);
    private static final double DELAY_S = 5;
    private static final double COST_S = 7;

    /** Wants a fixed GPU count per job; records what each stint trained. */
    private static final class Scripted implements AdaptiveJobs {
        final Map<String, Integer> wants = new HashMap<>();
        final Map<String, Double> trainedTotal = new HashMap<>();
        final List<Double> restartCosts = new java.util.ArrayList<>();

        @Override
        public double retuneIntervalS() {
            return 60;
        }

        @Override
        public boolean adapts(JobRequest job) {
            return wants.containsKey(job.id());
        }

        @Override
        public ElasticPolicy.JobModel model() {
            return new ElasticPolicy.JobModel() {
                @Override
                public double total(JobRequest job) {
                    return 400;
                }

                @Override
                public double secondsToFinish(JobRequest job, List<String> nodes, double progress) {
                    return (400 - progress) / nodes.size();
                }

                @Override
                public double progressAfter(JobRequest job, List<String> nodes, double progress, double seconds) {
                    return Math.min(400, progress + seconds * nodes.size());
                }

                @Override
                public double restartDelayS() {
                    return DELAY_S;
                }
            };
        }

        @Override
        public int wantedGpus(JobRequest job, double progress, int currentGpus, double restartCostS) {
            restartCosts.add(restartCostS);
            return wants.get(job.id());
        }

        @Override
        public JobRequest resized(JobRequest job, int gpus) {
            NodeShape.Gang g = SHAPE.gangFor(gpus);
            return new JobRequest(job.id(), job.user(), g.tasks(), g.perTask(), job.submitTime(), job.priority(),
                    job.predictedDurationS(), job.trueDurationS());
        }

        @Override
        public JobRequest inPlace(JobRequest job, int gpus) {
            return new JobRequest(job.id(), job.user(), gpus, SHAPE.gangFor(1).perTask(), job.submitTime(),
                    job.priority(), job.predictedDurationS(), job.trueDurationS());
        }

        @Override
        public void trained(JobRequest job, List<String> nodes, double fromProgress, double toProgress) {
            trainedTotal.merge(job.id(), toProgress - fromProgress, Double::sum);
        }
    }

    private static JobRequest job(String id, int gpus, double submit, double durationS) {
        NodeShape.Gang g = SHAPE.gangFor(gpus);
        return new JobRequest(id, "u", g.tasks(), g.perTask(), submit, 0, Double.NaN, durationS);
    }

    private static JobOutcome outcome(SimulationResult r, String id) {
        return r.outcomes().stream().filter(o -> o.id().equals(id)).findFirst().orElseThrow();
    }

    private static SimulationResult replay(Scripted adaptive, List<JobRequest> jobs) {
        return replay(new KubeDefaultPolicy(), adaptive, jobs);
    }

    private static SimulationResult replay(SchedulingPolicy policy, Scripted adaptive, List<JobRequest> jobs) {
        return new Simulator(ONE_NODE, policy, null).withPreemptionCost(COST_S).withAdaptiveJobs(adaptive).run(jobs, null);
    }

    @Test
    void aShrinkIsChargedTheRestartAndThePreemptionCostExactlyOnce() {
        Scripted adaptive = new Scripted();
        adaptive.wants.put("a", 2);
        SimulationResult r = replay(adaptive, List.of(job("a", 4, 0, 100)));
        // 0-5 s restart, 5-60 s at 4 GPUs: 220 units; then 5 + 7 s and 180 units at 2 GPUs: 102 s.
        assertEquals(60 + DELAY_S + COST_S + 90, outcome(r, "a").finish(), 1e-9);
        assertEquals(400, adaptive.trainedTotal.get("a"), 1e-9);
        assertEquals(0, outcome(r, "a").preemptions(), "a resize is not a preemption");
        assertEquals(DELAY_S + COST_S, adaptive.restartCosts.get(0), 1e-12, "the re-tune weighs what a change costs");
    }

    @Test
    void everyGpuCountChangeIsCountedAsARestartInPlaceWithWhatItWasCharged() {
        Scripted adaptive = new Scripted();
        adaptive.wants.put("a", 4);
        adaptive.wants.put("b", 2);
        SimulationResult r = replay(adaptive, List.of(job("a", 2, 0, 100), job("b", 4, 200, 100)));
        // a grows at 60 and is done at 144.5; b starts at 200 on 4 GPUs and shrinks at its first re-tune, 240.
        for (String id : List.of("a", "b")) {
            JobOutcome o = outcome(r, id);
            assertEquals(List.of(0, 1, 1, DELAY_S + COST_S), List.of(o.preemptions(), o.restarts(), o.resizes(),
                    o.restartS()), id);
        }
        assertEquals(new RestartMetrics(1, 1, 1, 2 * (DELAY_S + COST_S)), RunMetrics.of(r, 4).restarts());
    }

    /**
     * Tiresias with one threshold of 10 GPU-s: adaptive a (4 GPUs) passes it at 2.5 s; fixed b (4 GPUs, 10 s) arrives
     * at 3 in the first queue and preempts a, which has trained nothing yet (still in its 5 s restart). b runs 3-13;
     * a restarts at 13 on the 4 GPUs it still wants, 5 + 7 s and 400 units at 4 GPUs: done at 125. One restart,
     * a preemption, not a resize, charged the restart delay and the preemption cost.
     */
    @Test
    void aPreemptedAdaptiveJobIsChargedItsRestartAsAPreemption() {
        Scripted adaptive = new Scripted();
        adaptive.wants.put("a", 4);
        SimulationResult r = replay(new TiresiasPolicy(new double[] {10}), adaptive,
                List.of(job("a", 4, 0, 100), job("b", 4, 3, 10)));
        JobOutcome a = outcome(r, "a");
        assertEquals(List.of(13.0, 13 + DELAY_S + COST_S + 100), List.of(outcome(r, "b").finish(), a.finish()));
        assertEquals(List.of(1, 1, 0, DELAY_S + COST_S), List.of(a.preemptions(), a.restarts(), a.resizes(),
                a.restartS()));
        JobOutcome b = outcome(r, "b");
        assertEquals(List.of(0, 0, 0.0), List.of(b.preemptions(), b.restarts(), b.restartS()));
        assertEquals(new RestartMetrics(0.5, 0, 0.5, DELAY_S + COST_S), RunMetrics.of(r, 4).restarts());
    }

    @Test
    void aShrinkFreesGpusThatAWaitingJobThenGets() {
        Scripted adaptive = new Scripted();
        adaptive.wants.put("a", 2);
        SimulationResult r = replay(adaptive, List.of(job("a", 4, 0, 100), job("b", 2, 1, 50)));
        assertEquals(60, outcome(r, "b").firstStart(), 1e-9);
        assertEquals(110, outcome(r, "b").finish(), 1e-9);
    }

    @Test
    void aGrowTakesFreeGpusAtTheNextRetune() {
        Scripted adaptive = new Scripted();
        adaptive.wants.put("a", 4);
        SimulationResult r = replay(adaptive, List.of(job("a", 2, 0, 100)));
        // 0-5 s restart, 5-60 s at 2 GPUs: 110 units; then 5 + 7 s and 290 units at 4 GPUs.
        assertEquals(60 + DELAY_S + COST_S + 72.5, outcome(r, "a").finish(), 1e-9);
        assertEquals(400, adaptive.trainedTotal.get("a"), 1e-9);
    }

    @Test
    void aGrowWaitsUntilThePolicyCanPlaceIt() {
        Scripted adaptive = new Scripted();
        adaptive.wants.put("a", 4);
        SimulationResult r = replay(adaptive, List.of(job("a", 2, 0, 100), job("x", 2, 0, 100)));
        // x holds the other two GPUs until t = 100; a has trained (100 - 5) · 2 = 190 units by then.
        assertEquals(100, outcome(r, "x").finish(), 1e-9);
        assertEquals(100 + DELAY_S + COST_S + 210 / 4.0, outcome(r, "a").finish(), 1e-9);
        assertEquals(1.0, r.maxGpuAllocRatioSeen(), 1e-12);
    }

    @Test
    void aPolicyThatSizesItsJobsItselfTakesNoAdaptiveJobs() {
        PolluxPolicy pollux = new PolluxPolicy(new PolluxJobModel(Path.of(".")), 1);
        Simulator sim = new Simulator(ONE_NODE, pollux, null);
        assertThrows(IllegalArgumentException.class, () -> sim.withAdaptiveJobs(new Scripted()));
    }
}
