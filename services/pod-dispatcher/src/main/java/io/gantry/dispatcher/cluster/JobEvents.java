package io.gantry.dispatcher.cluster;

import io.gantry.events.LifecycleEvent;

/** Where a cluster reports what became of a job after its bind; the dispatcher announces and counts it. */
public interface JobEvents {

    /**
     * Reports {@code event} (started, completed, failed or preempted). {@code failureCause} is a bounded metrics
     * label for a {@code JobFailed} ({@code oom_killed}, {@code pod_failed}, {@code cancelled}, ...), else null.
     */
    void report(LifecycleEvent event, String failureCause);
}
