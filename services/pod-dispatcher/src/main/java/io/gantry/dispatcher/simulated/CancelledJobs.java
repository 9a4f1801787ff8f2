package io.gantry.dispatcher.simulated;

import io.gantry.events.JobCancelRequested;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cancel requests for jobs not bound here yet: the scheduler may have placed such a job before it read the request
 * (it then leaves the job to the dispatcher), so its decision, when it comes, is refused. A request for a job the
 * scheduler still held pending is answered by the scheduler, and no decision ever comes for it: the oldest requests
 * are forgotten past {@link #REMEMBERED}. Guarded by the simulated cluster's lock.
 */
final class CancelledJobs {

    static final int REMEMBERED = 10_000;

    private final Map<String, String> userByJob = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > REMEMBERED;
        }
    };

    void remember(JobCancelRequested request) {
        userByJob.put(request.jobId(), request.user());
    }

    /** True, once, when the owner {@code user} asked to cancel {@code jobId} before its decision came. */
    boolean asked(String jobId, String user) {
        String asker = userByJob.get(jobId);
        if (asker == null || !asker.equals(user)) {
            return false;
        }
        userByJob.remove(jobId);
        return true;
    }
}
