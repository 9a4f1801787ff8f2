package io.gantry.scheduler.service;

import io.gantry.events.JobTuned;
import io.gantry.scheduling.engine.Clock;
import io.gantry.scheduling.model.ClusterState;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Re-tunes of jobs while they run (a {@code JobTuned} revision above 0, issue 21's adaptive jobs, live), applied once
 * per revision: from then on the revision is the job's tuning wherever the job is, waiting, stopping or running.
 *
 * <p>When it asks a running stint for other room (GPUs per task, tasks), the job is re-sized as the simulator's
 * adaptive jobs are: the stint is stopped (the dispatcher checkpoints it) and the next attempt is queued at once with
 * the new request, for the policy to place like any job, on the same nodes when they have room. The old room is free
 * for the policy at once; the stop travels in the job's own next decision and in any decision placed into that room
 * ({@link StoppingJobs#stopsBefore}), so the dispatcher stops the stint before either binds. The stint's
 * {@code JobPreempted} then only confirms the stop: the next attempt is queued already. A request that no node, or
 * no cluster of this size, can ever hold is not taken (logged), and the stint runs on as it is: rejecting it would
 * end a job that runs. Owned by {@link LiveEngine}, on its one thread.
 */
final class RunningRetunes {

    private static final Logger LOG = Logger.getLogger(RunningRetunes.class);

    private final WaitingJobs pending;
    private final StoppingJobs stopping;
    private final Map<String, LiveStint> running;
    private final Consumer<String> release;
    private final ClusterState cluster;
    private final Clock clock;
    /** The newest revision applied per job, so a redelivered or stale one changes nothing. */
    private final Map<String, Integer> revisions = new HashMap<>();
    /** Restored stints whose newest tuning asks for other room: re-sized in the first round, once nodes are known. */
    private final Set<String> afterRestore = new LinkedHashSet<>();

    /** {@code release} gives a running job's room back to the engine and forgets the stint. */
    RunningRetunes(WaitingJobs pending, StoppingJobs stopping, Map<String, LiveStint> running, Consumer<String> release,
                   ClusterState cluster, Clock clock) {
        this.pending = pending;
        this.stopping = stopping;
        this.running = running;
        this.release = release;
        this.cluster = cluster;
        this.clock = clock;
    }

    /** Applies re-tune {@code t}; true when a round may decide something new (a waiting job or a re-size changed). */
    boolean apply(JobTuned t) {
        String id = t.jobId();
        Integer applied = revisions.get(id);
        if (!t.retune() || applied != null && t.revision() <= applied) {
            return false; // revision 0 is the job itself; a redelivered or stale update changes nothing
        }
        PendingJob waiting = pending.get(id);
        LiveStint stopped = stopping.get(id);
        LiveStint stint = running.get(id);
        if (waiting == null && stopped == null && stint == null) {
            return false; // ended, or never queued here
        }
        revisions.put(id, t.revision());
        if (waiting != null) {
            pending.remove(id);
            pending.add(new PendingJob(t, waiting.attempt(), waiting.attainedGpuS(), waiting.ranS()));
            return true;
        }
        if (stopped != null) {
            stopping.put(id, stopped.withJob(t)); // queued with this tuning once its stop is confirmed
            return false;
        }
        return resize(stint, t);
    }

    /**
     * Re-sizes {@code stint} for its job's tuning {@code t} when that asks for other room it may ever get; true when it
     * did. A request it can never get is not taken: the stint runs on as it is, and would queue again as it is.
     */
    private boolean resize(LiveStint stint, JobTuned t) {
        String id = t.jobId();
        LiveStint retuned = stint.withJob(t);
        if (retuned.holdsAsTuned()) {
            running.put(id, retuned);
            return false; // the same room: only the batch changed, which the dispatcher carries out
        }
        double ran = Math.max(0, clock.now() - stint.startedAt());
        PendingJob next = new PendingJob(t, stint.attempt() + 1, stint.attainedGpuSBefore() + ran * stint.gpus(),
                stint.ranSBefore() + ran);
        String never = UnfitJobs.whyNever(next, cluster);
        if (never != null) {
            LOG.warnf("job %s's re-tune (revision %d) is not carried out: %s; it runs on as it is", id, t.revision(),
                    never);
            return false;
        }
        release.accept(id);
        stopping.put(id, retuned);
        pending.add(next);
        return true;
    }

    /** The job ended: its revisions are forgotten. */
    void ended(String jobId) {
        revisions.remove(jobId);
        afterRestore.remove(jobId);
    }

    /** After a restart: {@code job}, as the topics left it, is at its newest revision (a re-tune if above 0). */
    void restored(JobTuned job) {
        if (job != null && job.retune()) {
            revisions.put(job.jobId(), job.revision());
        }
    }

    /** A restored running stint: re-sized in the first round when it holds other room than its tuning asks for. */
    void resizeOnceNodesKnown(LiveStint restored) {
        if (!restored.holdsAsTuned()) {
            afterRestore.add(restored.job().jobId()); // re-tuned, and the restart came before its re-size
        }
    }

    /** Re-sizes the restored stints marked so (called when a round runs, so the nodes are known). */
    void resizeRestored() {
        for (String id : afterRestore) {
            LiveStint stint = running.get(id);
            if (stint != null) {
                resize(stint, stint.job());
            }
        }
        afterRestore.clear();
    }
}
