package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import java.util.List;

/**
 * The extra features of a candidate (issue 20, item 3), what a heuristic that ranks by one prediction cannot use:
 * where the job stands in the whole queue, not only in the offered window; how much of the queue is its user's; and
 * what the policy has seen its user's jobs do ({@link ObservedRuntimes}): how many ended, how long they ran, and by
 * how much they outlived the durations predicted for them. All are known at submission or observed since; the only run
 * times read are those of jobs that have ended. They follow the base features ({@link Features#NAMES}) in a checkpoint trained with them, and are
 * absent from one trained without. The "wait" candidate carries zeros here.
 */
final class QueueAndHistoryFeatures {

    static final List<String> NAMES = List.of(
            "job_queue_urgency_rank", "job_user_queued_share", "job_user_seen_ends_over_10",
            "job_user_seen_log1p_runtime_over_ln1e6", "job_user_outlived_prediction_log_ratio_tanh");

    private static final double LN_1E6 = Math.log(1e6);

    private QueueAndHistoryFeatures() {
    }

    /** Writes the extra features of {@code job} from {@code f[offset]} on. */
    static void fill(float[] f, int offset, JobRequest job, RoundQueue queue, ObservedRuntimes seen) {
        int i = queue.indexOf(job.id());
        f[offset] = i < 0 ? 0f : (float) queue.urgencyRank(i);
        f[offset + 1] = queue.waiting() > 0 ? (float) queue.waitingOf(job.user()) / queue.waiting() : 0f;
        ObservedRuntimes.UserHistory h = seen.of(job.user());
        f[offset + 2] = (float) h.ends() / ObservedRuntimes.MEMORY;
        f[offset + 3] = (float) (h.meanLogRunS() / LN_1E6);
        f[offset + 4] = (float) Math.tanh(h.meanLogOutlived());
    }
}
