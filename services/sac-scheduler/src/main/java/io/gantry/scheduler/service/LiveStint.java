package io.gantry.scheduler.service;

import io.gantry.events.JobTuned;
import io.gantry.events.Preemption;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job that received a decision for its {@code attempt}-th start and still holds resources (or, while
 * stopping, held them). {@code job} is null for a job restored from a decision whose submission is no longer on
 * the tuned topic: it can be released, not re-queued. {@code startedAt} is on the jobs' clock.
 */
record LiveStint(JobTuned job, List<String> nodes, Resources perTask, int attempt, double startedAt,
                double attainedGpuSBefore, double ranSBefore) {

    double gpus() {
        return perTask.gpus() * nodes.size();
    }

    /**
     * The stops a placement carries: every stop of this round, and every stopped job not yet confirmed preempted that
     * held room on its nodes. Decisions travel on different partitions, so the dispatcher may read any of them first;
     * whichever it reads first stops the job (a stop is matched on job and attempt, so the others change nothing).
     * A victim whose room nothing of its round uses is stopped all the same (as in the simulator), so its stop rides
     * on the round's other decisions: that is where a restart finds it.
     */
    static List<Preemption> stopsBefore(Map<String, LiveStint> stopping, List<String> nodes, Set<String> stoppedNow) {
        List<Preemption> out = new ArrayList<>();
        stopping.forEach((id, r) -> {
            if (stoppedNow.contains(id) || r.nodes().stream().anyMatch(nodes::contains)) {
                out.add(new Preemption(id, r.attempt()));
            }
        });
        return out;
    }
}
