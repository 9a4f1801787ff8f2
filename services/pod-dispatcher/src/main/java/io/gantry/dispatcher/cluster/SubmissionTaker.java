package io.gantry.dispatcher.cluster;

import io.gantry.events.JobSubmitted;

/** A cluster where a submitted job needs something made before it can be bound: Kubernetes creates its pods. */
public interface SubmissionTaker {

    /** Prepares {@code job}'s pods, unbound; does nothing for a job that has pods or was decided already. */
    void submitted(JobSubmitted job);
}
