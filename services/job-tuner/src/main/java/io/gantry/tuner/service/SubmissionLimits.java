package io.gantry.tuner.service;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Per-user limits of {@code POST /jobs}: a token bucket (a burst, then a sustained rate) and a cap on the user's jobs
 * that were submitted here and have not ended yet. A refusal is a {@link Rejection} on the field {@code user}, with the
 * limit and how to get under it. State is in memory: after a restart every bucket is full and no job counts as pending
 * (a restart can loosen the limits for a moment, never tighten them). Kafka producers (the replay, the studio, the
 * dispatcher's retries) are not counted here.
 */
@ApplicationScoped
public class SubmissionLimits {

    private final int maxPending;
    private final double burst;
    private final double perNano;
    private final LongSupplier nanos;
    private final Map<String, Bucket> buckets = new HashMap<>();
    /** Pending job id → its user. */
    private final Map<String, String> pending = new HashMap<>();
    private final Map<String, Integer> pendingPerUser = new HashMap<>();

    @Inject
    public SubmissionLimits(TunerConfig config) {
        this(config.submissions().maxPendingPerUser(), config.submissions().burst(), config.submissions().perSecond(),
                System::nanoTime);
    }

    SubmissionLimits(int maxPending, int burst, double perSecond, LongSupplier nanos) {
        if (maxPending < 1 || burst < 1 || !(perSecond > 0) || !Double.isFinite(perSecond)) {
            throw new IllegalArgumentException("gantry.tuner.submissions: max-pending-per-user ≥ 1, burst ≥ 1 and "
                    + "per-second > 0; was " + maxPending + ", " + burst + ", " + perSecond);
        }
        this.maxPending = maxPending;
        this.burst = burst;
        this.perNano = perSecond / 1e9;
        this.nanos = nanos;
    }

    /** The outcome of asking to submit one job. */
    public sealed interface Admission permits Admitted, Refused {
    }

    /** The job counts as pending for its user until {@link #ended} (or {@link #withdraw}). */
    public record Admitted(String jobId) implements Admission {
    }

    /**
     * Refused, with the HTTP status that fits: 409 for a job id already pending here, 429 for a limit.
     */
    public record Refused(int status, Rejection rejection) implements Admission {
    }

    /** Takes one submission of {@code user}'s job {@code jobId}, or refuses it; a refusal takes nothing. */
    public synchronized Admission admit(String user, String jobId) {
        if (pending.containsKey(jobId)) {
            return new Refused(409, new Rejection("jobId", "is already the id of a pending job; a job id names one job"));
        }
        int open = pendingPerUser.getOrDefault(user, 0);
        if (open >= maxPending) {
            return new Refused(429, new Rejection("user", String.format(Locale.ROOT,
                    "has %d pending jobs submitted here, the most one user may have (gantry.tuner.submissions."
                            + "max-pending-per-user); submit again once one has completed, failed or been rejected",
                    open)));
        }
        Bucket b = buckets.computeIfAbsent(user, u -> new Bucket(burst, nanos.getAsLong()));
        long now = nanos.getAsLong();
        b.tokens = Math.min(burst, b.tokens + (now - b.at) * perNano);
        b.at = now;
        if (b.tokens < 1) {
            double waitS = (1 - b.tokens) / perNano / 1e9;
            return new Refused(429, new Rejection("user", String.format(Locale.ROOT,
                    "submits faster than the %s jobs per second (bursts of %d) one user may (gantry.tuner.submissions."
                            + "per-second, burst); retry in %.1f s", count(perNano * 1e9), (long) burst, waitS)));
        }
        b.tokens -= 1;
        pending.put(jobId, user);
        pendingPerUser.merge(user, 1, Integer::sum);
        return new Admitted(jobId);
    }

    /** The job ended (completed, failed or rejected): it no longer counts. Unknown ids change nothing. */
    public synchronized void ended(String jobId) {
        String user = pending.remove(jobId);
        if (user != null) {
            pendingPerUser.computeIfPresent(user, (u, n) -> n <= 1 ? null : n - 1);
        }
    }

    /** An admitted job that was never published (Kafka did not take it): it no longer counts as pending. */
    public void withdraw(String jobId) {
        ended(jobId);
    }

    /** {@code user}'s pending jobs submitted here. */
    public synchronized int pending(String user) {
        return pendingPerUser.getOrDefault(user, 0);
    }

    private static String count(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static final class Bucket {
        double tokens;
        long at;

        Bucket(double tokens, long at) {
            this.tokens = tokens;
            this.at = at;
        }
    }
}
