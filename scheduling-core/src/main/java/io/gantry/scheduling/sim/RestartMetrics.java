package io.gantry.scheduling.sim;

import java.util.List;

/**
 * How often the jobs of one replay were restarted on a new allocation, and what it cost them: every restart is a
 * checkpoint-restart charged its restart delay and the preemption cost ({@link JobOutcome#restartS}), so churn shows
 * here before it shows in JCT. Means are over the jobs that finished.
 *
 * @param perJob        mean restarts per job (preemptions and resizes)
 * @param resizesPerJob mean restarts in place to change a running adaptive job's GPU count
 * @param restartedShare share of jobs restarted at least once
 * @param totalS        run time charged for restarts, summed over the jobs
 */
public record RestartMetrics(double perJob, double resizesPerJob, double restartedShare, double totalS) {

    public static RestartMetrics of(List<JobOutcome> outcomes) {
        if (outcomes.isEmpty()) {
            return new RestartMetrics(0, 0, 0, 0);
        }
        long restarts = 0;
        long resizes = 0;
        int restarted = 0;
        double seconds = 0;
        for (JobOutcome o : outcomes) {
            restarts += o.restarts();
            resizes += o.resizes();
            restarted += o.restarts() > 0 ? 1 : 0;
            seconds += o.restartS();
        }
        double n = outcomes.size();
        return new RestartMetrics(restarts / n, resizes / n, restarted / n, seconds);
    }
}
