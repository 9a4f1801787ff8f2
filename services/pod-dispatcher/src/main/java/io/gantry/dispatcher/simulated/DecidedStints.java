package io.gantry.dispatcher.simulated;

import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which stint of each job has been decided, for "never bound twice": a decision for a stint decided before, or for
 * one older than a stint decided before, is a duplicate. Not thread-safe: {@link SimulatedCluster} uses it under its
 * lock.
 */
final class DecidedStints {

    /** Job ids remembered; far more than any replay keeps in flight. */
    private static final int REMEMBERED_JOBS = 1_000_000;
    /** The highest attempt of a job that has ended for good: no stint of it is bound again. */
    private static final int EVERY_ATTEMPT = Integer.MAX_VALUE;

    /** Per job, the highest attempt decided: a decision for that attempt or an earlier one is a duplicate. */
    private final Map<String, Integer> decidedAttempts = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > REMEMBERED_JOBS;
        }
    };

    /** Records the job's stint {@code attempt} as decided; false when it, or a later one, was decided before. */
    boolean markDecided(String jobId, int attempt) {
        Integer highest = decidedAttempts.get(jobId);
        if (highest != null && highest >= attempt) {
            return false;
        }
        decidedAttempts.put(jobId, attempt);
        return true;
    }

    /** Every stint on the lifecycle topic counts as decided; a job that ended for good is never bound again. */
    void markDecided(LifecycleHistoryReader.History history) {
        history.highestAttempts().forEach((jobId, attempt) -> decidedAttempts.merge(jobId, attempt, Math::max));
        history.endedJobIds().forEach(jobId -> decidedAttempts.put(jobId, EVERY_ATTEMPT));
    }
}
