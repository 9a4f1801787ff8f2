package io.gantry.scheduling.sim;

import io.gantry.scheduling.fairness.FairShareTracker;
import io.gantry.scheduling.engine.SchedulingEngine;
import io.gantry.scheduling.engine.VirtualClock;
import io.gantry.scheduling.fairness.TenantServiceMeter;
import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.predict.DurationPredictor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Discrete-event replay of a trace through a {@link SchedulingPolicy} in virtual time. Events are job
 * arrivals (the trace, in submit order), completions (a priority queue) and wake-ups a policy asks
 * for. All events at one instant are applied first, then one scheduling round runs. A job runs for
 * exactly its true duration once it holds its whole gang; a preempted job keeps its progress and, with
 * {@link #withPreemptionCost}, pays a fixed restart time each time it resumes (free by default).
 *
 * <p>Adaptive jobs (optional, {@link #withAdaptiveJobs}): jobs whose GPU count is re-tuned while they run. Every
 * re-tune interval each running one says how many GPUs it wants; a shrink is applied in place, a grow waits as a
 * request for the extra GPUs that the policy places or not ({@link InPlaceResizing}). Each change is a
 * checkpoint-restart charged the job model's restart delay plus the preemption cost, as a Pollux re-allocation is.
 *
 * <p>The queue, the running jobs and each round's rules (which jobs a round offers, stopping victims, gang checks,
 * wake-ups) are the {@link SchedulingEngine}'s, the same engine the live sac-scheduler drives; the simulator adds only
 * virtual time ({@link VirtualClock}), completions, OOM kills and the meters.
 *
 * <p>Fair share (optional, {@link FairShareTracker}): each pending job's {@link JobRequest#priority()} becomes its
 * trace priority plus its tenant's dynamic fair-share priority, recomputed every refresh interval; the pending
 * jobs of tenants whose priority changed are re-keyed in the sorted queue. Without it the replay is unchanged.
 * Either way each tenant's normalised service is measured ({@link TenantServiceMeter}) for Jain's index.
 */
public final class Simulator {

    /** Told what every round did, for tests that compare the simulator with the live scheduler. */
    @FunctionalInterface
    public interface RoundObserver {
        void round(double now, List<RunningJob> started, List<RunningJob> stopped);
    }

    /** Told about progress now and then; {@code done} of {@code total} jobs have finished. */
    @FunctionalInterface
    public interface ProgressListener {
        void progress(int done, int total);
    }

    final List<NodeSpec> nodes;
    final SchedulingPolicy policy;
    final DurationPredictor predictor;
    final FairShareTracker.Settings fairShare;
    final OomModel oom;
    final double preemptionCostS;
    final AdaptiveJobs adaptive;
    RoundObserver observer;

    /** @param predictor fills {@link JobRequest#predictedDurationS()} at submission; null leaves it as given */
    public Simulator(List<NodeSpec> nodes, SchedulingPolicy policy, DurationPredictor predictor) {
        this(nodes, policy, predictor, null);
    }

    /** @param fairShare fair-share priorities for the queue order; null for none (the trace's priorities alone) */
    public Simulator(List<NodeSpec> nodes, SchedulingPolicy policy, DurationPredictor predictor,
                     FairShareTracker.Settings fairShare) {
        this(nodes, policy, predictor, fairShare, null);
    }

    /** @param oom which runs are OOM-killed and what they are retried as; null for none (every job runs to the end) */
    public Simulator(List<NodeSpec> nodes, SchedulingPolicy policy, DurationPredictor predictor,
                     FairShareTracker.Settings fairShare, OomModel oom) {
        this(nodes, policy, predictor, fairShare, oom, 0, null);
    }

    private Simulator(List<NodeSpec> nodes, SchedulingPolicy policy, DurationPredictor predictor,
                      FairShareTracker.Settings fairShare, OomModel oom, double preemptionCostS, AdaptiveJobs adaptive) {
        this.nodes = List.copyOf(nodes);
        this.policy = policy;
        this.predictor = predictor;
        this.fairShare = fairShare;
        this.oom = oom;
        this.preemptionCostS = preemptionCostS;
        this.adaptive = adaptive;
    }

    /**
     * The same replay where a preempted job needs {@code seconds} more run time each time it resumes (reloading its
     * checkpoint, warming up again: Pollux charges 30 s per re-allocation). 0 keeps preemption free.
     */
    public Simulator withPreemptionCost(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("preemption cost must be a finite number of seconds >= 0, got " + seconds);
        }
        return new Simulator(nodes, policy, predictor, fairShare, oom, seconds, adaptive);
    }

    /**
     * The same replay where the jobs {@code adaptive} adapts are re-tuned while they run (null for none). Not with an
     * {@link ElasticPolicy}, which sizes its jobs itself.
     */
    public Simulator withAdaptiveJobs(AdaptiveJobs adaptive) {
        if (adaptive != null && policy instanceof ElasticPolicy) {
            throw new IllegalArgumentException(policy.name() + " sizes its jobs itself; adaptive jobs need a fixed-gang policy");
        }
        return new Simulator(nodes, policy, predictor, fairShare, oom, preemptionCostS, adaptive);
    }

    /** Tells {@code observer} what each round started and stopped (null for no one); returns this simulator. */
    public Simulator observedBy(RoundObserver observer) {
        this.observer = observer;
        return this;
    }

    public SimulationResult run(List<JobRequest> trace, ProgressListener listener) {
        long wallStart = System.nanoTime();
        List<JobRequest> jobs = new ArrayList<>(trace);
        jobs.sort(Comparator.comparingDouble(JobRequest::submitTime));
        for (JobRequest j : jobs) {
            if (!(j.trueDurationS() >= 0)) {
                throw new IllegalArgumentException("job " + j.id() + " has no valid duration: " + j.trueDurationS());
            }
        }
        Replay replay = new Replay(this, jobs, listener);
        while (replay.step()) {
            // one event time per step
        }
        return replay.result(wallStart);
    }
}
