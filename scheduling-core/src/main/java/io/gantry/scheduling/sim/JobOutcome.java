package io.gantry.scheduling.sim;

/**
 * How one job fared in a replay.
 *
 * @param firstStart  when it first got resources
 * @param finish      when its last task ended
 * @param durationS   its own run time (what it would take alone, without waiting)
 * @param preemptions how many times it was stopped and put back in the queue
 * @param restarts    how many times it started again on a new allocation: after each preemption, and at each
 *                    GPU-count change of a running adaptive job (a checkpoint-restart in place, {@link #resizes})
 * @param restartS    run time those restarts were charged (restart delay of a timed job plus the preemption cost)
 */
public record JobOutcome(String id, String user, double gpus, double submit, double firstStart, double finish,
                         double durationS, int preemptions, int restarts, double restartS) {

    /** Restarts in place to change a running adaptive job's GPU count (a policy that resizes by preempting has none). */
    public int resizes() {
        return restarts - preemptions;
    }

    public double jctS() {
        return finish - submit;
    }

    /** Time not spent running: waiting before the first start plus any time spent preempted. */
    public double queueS() {
        return jctS() - durationS;
    }
}
