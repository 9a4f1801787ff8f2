package io.gantry.scheduler.service;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The ids of the jobs this scheduler has queued, each with its {@code JobTuned}'s event id ("" when restored without
 * one): a redelivered submission is never queued twice, and a new submission that reuses a job's id is refused.
 *
 * <p>A job is remembered for as long as it is live (queued, running or stopping). Once it has ended it moves to a
 * window of the {@link #ENDED_REMEMBERED} most recently ended jobs, so the registry stays bounded however many jobs
 * pass through: remembering every id ever queued cost about 200 B per job, 39 MiB of live heap over the
 * 10-minute soak's 120,000 jobs. Only a job whose {@code JobTuned} was consumed but not yet committed when the
 * scheduler crashed is redelivered, and commits trail consumption by seconds; the window is minutes of jobs even at
 * the soak's 200 jobs/s. Forgetting an ended job means a later submission may reuse its id.
 */
final class KnownJobs {

    static final int ENDED_REMEMBERED = 50_000;

    private final Map<String, String> live = new LinkedHashMap<>();
    private final Map<String, String> ended;

    KnownJobs() {
        this(ENDED_REMEMBERED);
    }

    KnownJobs(int endedRemembered) {
        if (endedRemembered < 1) {
            throw new IllegalArgumentException("endedRemembered must be at least 1, not " + endedRemembered);
        }
        this.ended = new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
                return size() > endedRemembered;
            }
        };
    }

    /**
     * Remembers {@code jobId} as live with {@code eventId} unless it is remembered already.
     *
     * @return the event id it was first queued with, or null when it is new (and now live)
     */
    String putIfAbsent(String jobId, String eventId) {
        String before = ended.get(jobId);
        return before != null ? before : live.putIfAbsent(jobId, eventId);
    }

    /** The job has ended: from now on it is only in the bounded window. Nothing for a job not live. */
    void ended(String jobId) {
        String eventId = live.remove(jobId);
        if (eventId != null) {
            ended.put(jobId, eventId);
        }
    }

    /** After a restore: every remembered job not in {@code liveIds} has ended, in the order it was remembered. */
    void endAllBut(Set<String> liveIds) {
        live.keySet().stream().filter(id -> !liveIds.contains(id)).toList().forEach(this::ended);
    }

    int liveCount() {
        return live.size();
    }

    int endedCount() {
        return ended.size();
    }
}
