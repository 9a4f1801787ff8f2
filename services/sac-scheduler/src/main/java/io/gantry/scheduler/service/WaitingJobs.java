package io.gantry.scheduler.service;

import io.gantry.events.JobRejected;
import io.gantry.events.UserPriority;
import io.gantry.scheduling.engine.Clock;
import io.gantry.scheduling.engine.SchedulingEngine;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The live scheduler's waiting jobs: the submissions behind the engine's queue (in arrival order), the users'
 * priorities they are queued at, and which of them still have to be judged for "can this ever fit". The engine keeps
 * the queue's order; this keeps it in step with the submissions. Not thread-safe, like {@link LiveEngine}.
 */
final class WaitingJobs {

    private final SchedulingEngine engine;
    private final Clock clock;
    private final double defaultPriority;
    private final Map<String, PendingJob> pending = new LinkedHashMap<>();
    private final Map<String, Double> priorities = new HashMap<>();
    /** Waiting jobs not yet judged against the current nodes for "can this ever fit". */
    private final Set<String> uncheckedForFit = new LinkedHashSet<>();

    WaitingJobs(SchedulingEngine engine, Clock clock, double defaultPriority) {
        this.engine = engine;
        this.clock = clock;
        this.defaultPriority = defaultPriority;
    }

    /** What the policy sees of {@code p}, at its user's priority now. */
    JobRequest request(PendingJob p) {
        return p.toRequest(priorities.getOrDefault(p.job().user(), defaultPriority), clock);
    }

    /** Queues {@code p}: a job that ran before keeps the service it received (which preemptive policies weigh). */
    void add(PendingJob p) {
        JobRequest r = request(p);
        pending.put(r.id(), p);
        if (p.attempt() > 1 || p.attainedGpuS() > 0) {
            engine.requeue(r, p.attainedGpuS(), p.job().preemptible());
        } else {
            engine.submit(r, p.job().preemptible());
        }
        uncheckedForFit.add(r.id());
    }

    /** Takes a waiting job out of the queue (rejected, withdrawn, ended); null when it was not waiting. */
    PendingJob remove(String jobId) {
        PendingJob p = pending.remove(jobId);
        engine.withdraw(jobId);
        return p;
    }

    /** A waiting job the engine just started: it leaves this book (the engine's queue has let it go already). */
    PendingJob started(String jobId) {
        return pending.remove(jobId);
    }

    PendingJob get(String jobId) {
        return pending.get(jobId);
    }

    boolean contains(String jobId) {
        return pending.containsKey(jobId);
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    int size() {
        return pending.size();
    }

    Collection<PendingJob> inArrivalOrder() {
        return pending.values();
    }

    /** True when the user's priority changed: the user's waiting jobs move in the order. */
    boolean updatePriority(UserPriority p) {
        Double old = priorities.put(p.user(), p.priority());
        if (old != null && old == p.priority()) {
            return false;
        }
        pending.values().stream().filter(j -> j.job().user().equals(p.user())).forEach(j -> engine.reprice(request(j)));
        engine.capacityChanged(); // the whole queue must be walked in its new order
        return true;
    }

    /** Capacity changed: every waiting job's fit must be judged again. */
    void judgeFitAgain() {
        uncheckedForFit.addAll(pending.keySet());
    }

    /** Rejects (and takes out) the waiting jobs not judged yet that can never run on {@code cluster}. */
    List<JobRejected> rejectUnfit(ClusterState cluster, Instant now) {
        return UnfitJobs.reject(uncheckedForFit, pending::get, cluster, now, this::remove);
    }
}
