package io.gantry.scheduling.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.policy.PolicyRegistry;
import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import io.gantry.scheduling.sim.SpareGpus;
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

    /**
     * A job that arrives while nobody waits starts straight with more GPUs than the tuner gave it (no restart to pay
     * for), and takes them from the spare ones; with a job waiting, or idle scaling off, it starts at the tuner's count.
     */
    @Test
    void aJobArrivingAtAnIdleClusterStartsWithTheIdleGpusItWouldGrowInto() {
        PolluxWorkloadTuning tuning = tuning();
        List<JobRequest> jobs = jobs(tuning, 20);
        AdaptiveRetuner idle = tuning.retuner(jobs, SHAPE, true);
        JobRequest cifar = jobs.stream().filter(j -> j.user().equals("cifar10")).findFirst().orElseThrow();
        int tuned = (int) Math.round(cifar.gpus());
        int[] free = new int[16];
        java.util.Arrays.fill(free, 4);
        SpareGpus spare = new SpareGpus(false, free);
        int first = idle.arrivalGpus(cifar, spare);
        assertTrue(first > tuned, "more than the tuner's " + tuned + ": " + first);
        assertEquals(64 - first, spare.free(), "its GPUs are taken from the spare ones");
        assertEquals(tuned, idle.arrivalGpus(cifar, new SpareGpus(true, free)), "a job waits: the tuner's count");
        assertEquals(tuned, tuning.retuner(jobs, SHAPE, false).arrivalGpus(cifar, new SpareGpus(false, free)));
    }

    /**
     * Pollux's yolov3 jobs (workloads-0.5/workload-1, submitted at batch 64) are tuned to the epochs batch 64 needs,
     * where no larger batch reaches their target, so their plan cannot spread over many GPUs. With idle scaling a job
     * restarting on 32 GPUs takes its longer plan, the epochs it was submitted with, where larger batches reach the
     * target; it trains longer, and is credited by that plan's curves. Without idle scaling nothing changes.
     */
    @Test
    void onManyIdleGpusAJobTakesTheLongerPlanOfItsSubmittedEpochs() {
        Path file = SharedTraces.tracesDir().resolve("philly-pollux/workloads-0.5/workload-1.csv");
        PolluxWorkloadTuning tuning = new PolluxWorkloadTuning(file, TrainingTuner.fromProfiles(
                PolluxWorkloadTuning.profilesDirFor(file), TrainingTuner.Settings.DEFAULT));
        List<TunedJob> tuned = tuning.apply(new PolluxWorkloadLoader().load(file, SHAPE).jobs(), SHAPE, TunerMode.ADAPTIVE);
        List<JobRequest> jobs = tuned.stream().map(TunedJob::job).toList();
        TunedJob yolo = tuned.stream().filter(t -> t.job().user().equals("yolov3")).findFirst().orElseThrow();
        AdaptiveRetuner frozen = tuning.retuner(jobs, SHAPE, false);
        AdaptiveRetuner idle = tuning.retuner(jobs, SHAPE, true);
        double planned = idle.model().total(yolo.job());
        frozen.restarting(yolo.job(), 32, 0);
        assertEquals(planned, frozen.model().total(yolo.job()), "no idle scaling: the plan stays");
        idle.restarting(yolo.job(), 4, 0);
        assertEquals(planned, idle.model().total(yolo.job()), "on the 4 GPUs batch 64 spreads over, the plan stays");
        idle.restarting(yolo.job(), 32, 0);
        assertTrue(idle.model().total(yolo.job()) > planned, "on 32 GPUs it trains the longer plan's epochs");
        List<String> nodes = java.util.Collections.nCopies(32, "n");
        idle.trained(yolo.job(), nodes, 0, idle.model().total(yolo.job()));
        assertTrue(idle.batchesUsed(yolo.job().id()).stream().anyMatch(b -> b > 64), "at batches past 64");
        double metric = idle.finalMetric(yolo.job().id());
        assertTrue(tuning.reachesTarget(yolo, metric), "and reaches its target: " + metric + " against " + yolo.targetMetric());
    }
}
