package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.JobRequest;
import java.util.Comparator;

/** Stage one: which pending job is considered first. Like kube-scheduler's QueueSort plugin. */
@FunctionalInterface
public interface QueueSort {
    Comparator<JobRequest> order(SchedulingContext ctx);
}
