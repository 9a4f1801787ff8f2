package io.gantry.scheduling.sim;

/**
 * How one job fared in a replay.
 *
 * @param firstStart  when it first got resources
 * @param finish      when its last task ended
 * @param durationS   its own run time (what it would take alone, without waiting)
 * @param preemptions how many times it was stopped and put back in the queue
 */
public record JobOutcome(String id, String user, double gpus, double submit, double firstStart, double finish,
                         double durationS, int preemptions) {

    public double jctS() {
        return finish - submit;
    }

    /** Time not spent running: waiting before the first start plus any time spent preempted. */
    public double queueS() {
        return jctS() - durationS;
    }
}
