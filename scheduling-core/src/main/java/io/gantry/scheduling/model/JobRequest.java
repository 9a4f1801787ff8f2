package io.gantry.scheduling.model;

import java.util.Objects;

/**
 * A job waiting to be placed. A job is a gang of {@code tasks} identical pods, each needing
 * {@code perTask}; it runs only when every task has a place (all-or-nothing).
 *
 * @param submitTime   seconds on the caller's clock (virtual time in the simulator, epoch seconds live)
 * @param priority     the owner's dynamic priority (higher runs first); 0 when unknown
 * @param predictedDurationS what may be known at submission (a user's estimate or a predictor); NaN when unknown
 * @param trueDurationS the real run time: known to the simulator, never used by a deployable policy; NaN live
 */
public record JobRequest(
        String id,
        String user,
        int tasks,
        Resources perTask,
        double submitTime,
        double priority,
        double predictedDurationS,
        double trueDurationS) {

    public JobRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(perTask, "perTask");
        if (tasks < 1) {
            throw new IllegalArgumentException("a job has at least one task: " + id);
        }
        user = user == null ? "" : user;
    }

    public Resources total() {
        return perTask.times(tasks);
    }

    public double gpus() {
        return total().gpus();
    }
}
