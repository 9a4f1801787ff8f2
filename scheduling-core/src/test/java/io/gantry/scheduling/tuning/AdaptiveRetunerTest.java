package io.gantry.scheduling.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.Simulator;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.PolluxWorkloadLoader;
import io.gantry.scheduling.trace.SharedTraces;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The adaptive tuner on Pollux's workload-1 and profiles, Pollux's 16 × 4 GPUs. */
class AdaptiveRetunerTest {

    private static final Path WORKLOAD = SharedTraces.tracesDir().resolve("philly-pollux/workloads/workload-1.csv");
    private static final NodeShape SHAPE = new NodeShape(4, 64, 256);
    private static final List<NodeSpec> CLUSTER = SHAPE.nodes(16);

    private static PolluxWorkloadTuning tuning() {
        return new PolluxWorkloadTuning(WORKLOAD, TrainingTuner.fromProfiles(PolluxWorkloadTuning.profilesDirFor(WORKLOAD),
                TrainingTuner.Settings.DEFAULT));
    }

    /** The first {@code n} jobs of the workload, tuned adaptive. */
    private static List<TunedJob> tuned(PolluxWorkloadTuning tuning, int n) {
        return tuning.apply(new PolluxWorkloadLoader().load(WORKLOAD, SHAPE).jobs().subList(0, n), SHAPE,
                TunerMode.ADAPTIVE);
    }

    private static List<JobRequest> jobs(PolluxWorkloadTuning tuning, int n) {
        return tuned(tuning, n).stream().map(TunedJob::job).toList();
    }

    @Test
    void theBatchGrowsAsTheNoiseScaleGrows() {
        PolluxWorkloadTuning tuning = tuning();
        List<JobRequest> jobs = jobs(tuning, 20);
        AdaptiveRetuner retuner = tuning.retuner(jobs, SHAPE);
        JobRequest cifar = jobs.stream().filter(j -> j.user().equals("cifar10")).findFirst().orElseThrow();
        GoodputModel model = GoodputModel.load(PolluxWorkloadTuning.profilesDirFor(WORKLOAD).resolve("cifar10"));
        int gpus = (int) cifar.gpus();
        int early = retuner.batchFor(cifar, gpus, 0);
        int late = retuner.batchFor(cifar, gpus, 40);
        assertTrue(model.efficiency().noiseScale(early, 40) > model.efficiency().noiseScale(early, 0),
                "cifar10's gradient noise scale grows during training");
        assertTrue(late > early, "batch at epoch 40 (" + late + ") above the one at epoch 0 (" + early + ")");
    }

    @Test
    void aChangeThatCannotPayForItsRestartIsNotAskedFor() {
        PolluxWorkloadTuning tuning = tuning();
        List<JobRequest> jobs = jobs(tuning, 20);
        AdaptiveRetuner retuner = tuning.retuner(jobs, SHAPE);
        JobRequest cifar = jobs.stream().filter(j -> j.user().equals("cifar10")).findFirst().orElseThrow();
        int gpus = (int) cifar.gpus();
        int free = retuner.wantedGpus(cifar, 0, 1, 0);
        assertTrue(free > 1, "from 1 GPU, a free change goes to more: " + free);
        assertEquals(1, retuner.wantedGpus(cifar, 0, 1, 1e9), "a change costing more than the whole run is not made");
        assertEquals(gpus, retuner.wantedGpus(cifar, retuner.model().total(cifar), gpus, 0), "nothing left: stays");
    }

    private static SimulationResult replay(List<JobRequest> jobs, AdaptiveRetuner retuner) {
        return new Simulator(CLUSTER, PolicyRegistry.create("tiresias"), null).withPreemptionCost(30)
                .withAdaptiveJobs(retuner).run(jobs, null);
    }

    @Test
    void theSameJobsGiveTheSameNumbersAndEveryJobReachesItsTarget() {
        PolluxWorkloadTuning tuning = tuning();
        List<TunedJob> tuned = tuned(tuning, 80);
        List<JobRequest> jobs = tuned.stream().map(TunedJob::job).toList();
        AdaptiveRetuner first = tuning.retuner(jobs, SHAPE);
        SimulationResult a = replay(jobs, first);
        SimulationResult b = replay(jobs, tuning.retuner(jobs, SHAPE));
        assertEquals(80, a.outcomes().size());
        assertEquals(a.outcomes(), b.outcomes());
        assertEquals(a.gpuAllocRatio(), b.gpuAllocRatio());
        boolean resized = false;
        for (TunedJob t : tuned) {
            double metric = first.finalMetric(t.job().id());
            assertTrue(tuning.reachesTarget(t, metric), t.job().id() + " reaches " + metric + ", target " + t.targetMetric());
            resized |= first.batchesUsed(t.job().id()).size() > 1;
        }
        assertTrue(resized, "some job changed batch while it ran");
        JobOutcome any = a.outcomes().get(0);
        assertTrue(any.finish() > any.submit());
    }

    /**
     * The first 30 jobs of workload-1 on 64 GPUs: a lightly loaded cluster, where idle scaling has GPUs to give.
     * With it on, the same jobs finish with a lower average JCT and still reach their targets, and the same seedless
     * run gives the same numbers twice.
     */
    @Test
    void idleScalingUsesFreeGpusOnALightlyLoadedCluster() {
        PolluxWorkloadTuning tuning = tuning();
        List<TunedJob> tuned = tuned(tuning, 30);
        List<JobRequest> jobs = tuned.stream().map(TunedJob::job).toList();
        SimulationResult off = replay(jobs, tuning.retuner(jobs, SHAPE, false));
        AdaptiveRetuner idle = tuning.retuner(jobs, SHAPE, true);
        SimulationResult on = replay(jobs, idle);
        assertTrue(idle.idleScaling());
        assertEquals(on.outcomes(), replay(jobs, tuning.retuner(jobs, SHAPE, true)).outcomes());
        double jctOff = off.outcomes().stream().mapToDouble(o -> o.finish() - o.submit()).average().orElseThrow();
        double jctOn = on.outcomes().stream().mapToDouble(o -> o.finish() - o.submit()).average().orElseThrow();
        assertTrue(jctOn < jctOff, "avg JCT with idle scaling " + jctOn + " s, without " + jctOff + " s");
        for (TunedJob t : tuned) {
            double metric = idle.finalMetric(t.job().id());
            assertTrue(tuning.reachesTarget(t, metric), t.job().id() + " reaches " + metric);
        }
    }
}
