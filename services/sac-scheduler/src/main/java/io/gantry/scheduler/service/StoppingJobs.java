package io.gantry.scheduler.service;

import io.gantry.events.Preemption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The jobs a decision stopped whose stop is not yet confirmed (by {@code JobPreempted}, or by their end), indexed by
 * the nodes they held. Under a burst the confirmations lag behind, so thousands can be stopping at once, and every
 * placement asks which of them held its nodes: the index answers that in the size of the answer, where a scan of
 * them all made each round cost as much as the backlog.
 */
final class StoppingJobs {

    private final Map<String, LiveStint> byJob = new HashMap<>();
    private final Map<String, Set<String>> jobsOnNode = new HashMap<>();

    void put(String jobId, LiveStint stint) {
        remove(jobId);
        byJob.put(jobId, stint);
        stint.nodes().forEach(n -> jobsOnNode.computeIfAbsent(n, k -> new TreeSet<>()).add(jobId));
    }

    LiveStint get(String jobId) {
        return byJob.get(jobId);
    }

    LiveStint remove(String jobId) {
        LiveStint stint = byJob.remove(jobId);
        if (stint != null) {
            // A gang may hold one node more than once (a node per task).
            for (String n : Set.copyOf(stint.nodes())) {
                Set<String> jobs = jobsOnNode.get(n);
                jobs.remove(jobId);
                if (jobs.isEmpty()) {
                    jobsOnNode.remove(n);
                }
            }
        }
        return stint;
    }

    int size() {
        return byJob.size();
    }

    /**
     * The stops a placement carries: every stop of this round, and every stopped job not yet confirmed preempted that
     * held room on its nodes. Decisions travel on different partitions, so the dispatcher may read any of them first;
     * whichever it reads first stops the job (a stop is matched on job and attempt, so the others change nothing).
     * A victim whose room nothing of its round uses is stopped all the same (as in the simulator), so its stop rides
     * on the round's other decisions: that is where a restart finds it. A job's own stint still stopping (re-sized:
     * {@link RunningRetunes}) is stopped by its next attempt's decision wherever that places it. Ordered by job id.
     */
    List<Preemption> stopsBefore(String jobId, List<String> nodes, Set<String> stoppedNow) {
        Set<String> ids = new TreeSet<>();
        if (byJob.containsKey(jobId)) {
            ids.add(jobId);
        }
        stoppedNow.stream().filter(byJob::containsKey).forEach(ids::add);
        nodes.forEach(n -> ids.addAll(jobsOnNode.getOrDefault(n, Set.of())));
        List<Preemption> out = new ArrayList<>(ids.size());
        ids.forEach(id -> out.add(new Preemption(id, byJob.get(id).attempt())));
        return out;
    }
}
