package io.gantry.dispatcher.simulated;

import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;
import io.gantry.scheduling.model.Resources;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

/**
 * A stint of a job bound to the simulated cluster: task {@code i} is the pod {@code jobId-i} on {@code nodes.get(i)},
 * each requesting {@code perTask}.
 *
 * @param durationS simulated seconds it runs (the decision's, or the configured default)
 * @param completion the timer that ends it after {@code durationS}; null until it runs, and for a real job
 * @param training   what a real job trains (a job-runner process runs it, and its end ends the stint); null for a
 *                   trace job, which sleeps for {@code durationS}
 */
public record RunningJob(SchedulingDecision decision, List<String> nodes, Resources perTask, double durationS,
                         double startedAtSimSeconds, ScheduledFuture<?> completion, TrainingSpec training) {

    public RunningJob(SchedulingDecision decision, List<String> nodes, Resources perTask, double durationS,
                      double startedAtSimSeconds, ScheduledFuture<?> completion) {
        this(decision, nodes, perTask, durationS, startedAtSimSeconds, completion, null);
    }

    public boolean real() {
        return training != null;
    }

    public String jobId() {
        return decision.jobId();
    }

    /** Which start of the job this is: 1 for the first, one more after each preemption. */
    public int attempt() {
        return decision.attempt();
    }

    public String podName(int task) {
        return decision.jobId() + "-" + task;
    }

    /** The same stint training {@code spec} (a re-tune while it runs). */
    RunningJob withTraining(TrainingSpec spec) {
        return new RunningJob(decision, nodes, perTask, durationS, startedAtSimSeconds, completion, spec);
    }

    RunningJob withCompletion(ScheduledFuture<?> timer) {
        return new RunningJob(decision, nodes, perTask, durationS, startedAtSimSeconds, timer, training);
    }
}
