package io.gantry.dispatcher.kubernetes;

import io.gantry.events.JobSubmitted;
import io.gantry.events.NodeMetrics;

/** What the Kubernetes cluster tells the rest of Gantry besides lifecycle events. */
public interface ClusterAnnouncements {

    /** A job made of pods someone else created with {@code schedulerName: gantry}, for the queue. */
    void submitted(JobSubmitted job);

    /** A node's allocatable resources and what is requested on it, so the scheduler sees the real cluster. */
    void nodeMetrics(NodeMetrics metrics);
}
