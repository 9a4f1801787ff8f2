package io.gantry.scheduler.service;

import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobTuned;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the scheduler's three topics (jobs tuned, decisions made, lifecycle) say about every job, folded to each job's
 * latest state before any of it touches {@link LiveEngine}. Folding first matters: applied one topic after the
 * other, a decision of a job that completed long ago would hold its room again until the completion was read, and
 * two such jobs on one node refuse each other ("node ... cannot hold ...").
 *
 * <p>Per job: a terminal lifecycle event (completed, failed, rejected) ends it, whatever else the topics hold.
 * Otherwise its latest decided attempt {@code A} is either preempted (a {@code JobPreempted} for {@code A}: the job
 * waits for attempt {@code A + 1}), stopping (a later decision's {@code preempts} names {@code A} and its
 * {@code JobPreempted} has not come: it holds nothing and waits for it), or running on the decision's nodes. A job
 * with no decision waits for its first attempt. The service a job received is summed over its preempted stints.
 * A job re-tuned while it ran is queued and held by its newest revision; a running stint that holds other room than
 * that asks for is re-sized again by {@link LiveEngine#restore} (the restart came between the re-tune and its stop).
 *
 * <p>Where the topics disagree, these rules settle it, and each case is listed in {@link #disagreements()}:
 * <ul>
 *   <li>two {@code JobTuned} with one job id: the first on the topic is the job (a later one reused the id, and the
 *       live channel dead-letters it);</li>
 *   <li>a decision whose job's {@code JobTuned} is gone from the topic: the job holds its room until it ends, but it
 *       cannot be queued again;</li>
 *   <li>a stint before the latest decided one without its {@code JobPreempted}: it counts as having run 0 s.</li>
 * </ul>
 * Restoring never refuses to start: over-full nodes are {@link LiveEngine#restore held} beyond capacity.
 */
public final class RestorePlan {

    /**
     * A stint that holds room (running) or held it until a decision stopped it (stopping).
     *
     * @param job null when the job's {@code JobTuned} is no longer on the topic
     * @param startConfirmed whether the lifecycle topic holds the stint's {@code JobStarted} (policies may stop
     *                       only a stint the cluster said it started)
     */
    public record Stint(JobTuned job, SchedulingDecision decision, double attainedGpuSBefore, double ranSBefore,
                        boolean startConfirmed) {
        String jobId() {
            return decision.jobId();
        }
    }

    private final Map<String, String> tunedEventIds = new LinkedHashMap<>();
    private final List<PendingJob> pending = new ArrayList<>();
    private final List<Stint> running = new ArrayList<>();
    private final List<Stint> stopping = new ArrayList<>();
    private final Set<String> ended = new HashSet<>();
    private final List<String> disagreements = new ArrayList<>();

    private RestorePlan() {
    }

    /** One job's events from the three topics. */
    private static final class Trail {
        JobTuned tuned;
        /** The newest re-tune (revision above 0), null when none: what the job is queued and re-sized by. */
        JobTuned retuned;

        /** The job as it is now: its newest tuning; null when its JobTuned is gone. */
        JobTuned job() {
            return retuned != null ? retuned : tuned;
        }
        final TreeMap<Integer, SchedulingDecision> decisions = new TreeMap<>();
        final Map<Integer, JobPreempted> preempted = new HashMap<>();
        final Set<Integer> stopped = new HashSet<>();
        final Set<Integer> started = new HashSet<>();
        boolean ended;
    }

    /** Folds the topics, each read from its beginning to its end, in offset order per partition. */
    public static RestorePlan fold(List<JobTuned> tuned, List<SchedulingDecision> decisions,
                                   List<LifecycleEvent> lifecycle, JobClock clock) {
        RestorePlan plan = new RestorePlan();
        Map<String, Trail> trails = new LinkedHashMap<>();
        for (JobTuned t : tuned) {
            Trail trail = trails.computeIfAbsent(t.jobId(), id -> new Trail());
            if (t.retune()) {
                // A running job's re-tune: the job is its revision 0; it runs, and queues again, by its newest.
                if (trail.retuned == null || t.revision() > trail.retuned.revision()) {
                    trail.retuned = t;
                }
                continue;
            }
            if (trail.tuned == null) {
                trail.tuned = t;
            } else if (!trail.tuned.eventId().equals(t.eventId())) {
                plan.disagreements.add("job " + t.jobId() + " was tuned twice (events " + trail.tuned.eventId() + ", "
                        + t.eventId() + "): the first is the job");
            }
        }
        for (SchedulingDecision d : decisions) {
            // One job's decisions share its partition, so the first for an attempt is the one the dispatcher binds.
            trails.computeIfAbsent(d.jobId(), id -> new Trail()).decisions.putIfAbsent(d.attempt(), d);
            for (Preemption stop : d.preempts()) {
                trails.computeIfAbsent(stop.jobId(), id -> new Trail()).stopped.add(stop.attempt());
            }
        }
        for (LifecycleEvent e : lifecycle) {
            Trail trail = trails.computeIfAbsent(e.jobId(), id -> new Trail());
            if (e instanceof JobPreempted p) {
                trail.preempted.putIfAbsent(p.attempt(), p);
            } else if (e instanceof JobStarted s) {
                trail.started.add(s.attempt());
            } else if (e.terminal()) {
                trail.ended = true;
            }
        }
        trails.forEach((jobId, trail) -> plan.add(jobId, trail, clock));
        return plan;
    }

    private void add(String jobId, Trail trail, JobClock clock) {
        tunedEventIds.put(jobId, trail.tuned == null ? "" : trail.tuned.eventId());
        if (trail.ended) {
            ended.add(jobId);
            return;
        }
        if (trail.decisions.isEmpty()) {
            if (trail.job() != null) {
                pending.add(new PendingJob(trail.job()));
            }
            return;
        }
        double attainedGpuS = 0;
        double ranS = 0;
        int latest = trail.decisions.lastKey();
        for (SchedulingDecision d : trail.decisions.headMap(latest).values()) {
            JobPreempted p = trail.preempted.get(d.attempt());
            if (p == null) {
                disagreements.add("job " + jobId + " attempt " + d.attempt() + " was followed by attempt " + latest
                        + " without a JobPreempted: counted as having run 0 s");
                continue;
            }
            double ran = ranS(p, d, clock);
            attainedGpuS += ran * gpus(d);
            ranS += ran;
        }
        SchedulingDecision last = trail.decisions.get(latest);
        JobPreempted lastStop = trail.preempted.get(latest);
        if (lastStop != null) {
            if (trail.job() != null) {
                double ran = ranS(lastStop, last, clock);
                pending.add(new PendingJob(trail.job(), latest + 1, attainedGpuS + ran * gpus(last), ranS + ran));
            } else {
                disagreements.add("job " + jobId + " was preempted but its JobTuned is gone: it cannot be queued again");
            }
            return;
        }
        if (trail.job() == null) {
            disagreements.add("job " + jobId + " holds its room but its JobTuned is gone: it cannot be queued again");
        }
        Stint stint = new Stint(trail.job(), last, attainedGpuS, ranS, trail.started.contains(latest));
        (trail.stopped.contains(latest) ? stopping : running).add(stint);
    }

    /** Job seconds the stint ran: as the dispatcher reported, else from its decision to its stop. */
    private static double ranS(JobPreempted p, SchedulingDecision d, JobClock clock) {
        return p.ranS() != null ? p.ranS() : Math.max(0, clock.seconds(p.occurredAt()) - clock.seconds(d.occurredAt()));
    }

    private static double gpus(SchedulingDecision d) {
        return d.perTask().gpuMilli() / 1000.0 * d.nodes().size();
    }

    /** Every job the topics name, with the event id of its {@code JobTuned} ("" when that is gone). */
    public Map<String, String> tunedEventIds() {
        return tunedEventIds;
    }

    /** Jobs waiting for a start: never decided, or preempted and waiting for their next attempt. */
    public List<PendingJob> pending() {
        return pending;
    }

    /** Stints that hold their nodes. */
    public List<Stint> running() {
        return running;
    }

    /** Stints a decision stopped whose {@code JobPreempted} has not come: they hold nothing and wait for it. */
    public List<Stint> stopping() {
        return stopping;
    }

    public Set<String> ended() {
        return ended;
    }

    /** Jobs not ended: waiting, stopping or running. */
    public Set<String> liveJobIds() {
        Set<String> live = new HashSet<>();
        pending.forEach(p -> live.add(p.job().jobId()));
        stopping.forEach(s -> live.add(s.jobId()));
        running.forEach(s -> live.add(s.jobId()));
        return live;
    }

    /** How each disagreement between the topics was settled, for the log. */
    public List<String> disagreements() {
        return disagreements;
    }
}
