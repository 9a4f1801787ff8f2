package io.gantry.scheduler.mapping;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobRejected;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import io.gantry.scheduling.model.NodeSpec;
import java.time.Instant;
import java.util.List;

/** The one place sac-scheduler turns what the engine decided into events, and node metrics into the core's nodes. */
public final class Decisions {

    private Decisions() {
    }

    /**
     * The decision that starts {@code job}'s {@code attempt}-th stint on {@code nodes}, after {@code stops}, its tasks
     * on {@code gpuDevices} (empty when the scheduler does not place per device).
     */
    public static SchedulingDecision started(Instant now, JobTuned job, List<String> nodes, Double remainingDurationS,
                                             String policy, String policyVersion, int attempt, List<Preemption> stops,
                                             List<List<Integer>> gpuDevices) {
        return new SchedulingDecision(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId(), job.user(), nodes,
                job.perTask(), remainingDurationS, job.submittedAt(), policy, policyVersion, attempt, stops, gpuDevices);
    }

    /** The rejection of a job that can never fit the cluster, for {@code reason}. */
    public static JobRejected neverFits(Instant now, JobTuned job, String reason) {
        return new JobRejected(Events.newId(), GantryEvent.SCHEMA_VERSION, now, job.jobId(), job.user(),
                "sac-scheduler", "perTask", reason);
    }

    /** The node a metrics event describes, with its capacity. */
    public static NodeSpec node(NodeMetrics m) {
        return new NodeSpec(m.node(), Amounts.resources(m.capacity()));
    }
}
