package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns a trace into the workload of one run: drop jobs that fit no cluster (reported), cut a window
 * of consecutive jobs at a seeded offset, then optionally rescale arrival times so the offered load
 * ρ = Σ(GPUs × duration) ÷ (cluster GPUs × arrival span) hits a target. Durations never change.
 * A contiguous window rather than a random subset keeps the trace's burstiness.
 *
 * <p>For scale runs beyond a trace's size, {@code repeat} K concatenates K copies of the real jobs,
 * each shifted in time by the trace's span (plus one mean inter-arrival gap, so the seam keeps the
 * trace's arrival rate) and with {@code ~rK} appended to the id from the second copy on. Nothing is
 * invented: every job is a real one, only replayed again later.
 */
public final class WorkloadShaper {

    private WorkloadShaper() {
    }

    /**
     * @param jobs       the shaped jobs, sorted by submit time, the first at 0
     * @param unfit      ids of jobs larger than what the whole cluster could ever hold
     * @param offeredLoad ρ of the shaped jobs on this cluster
     * @param timeScale  factor applied to arrival times (1 when replayed as recorded)
     */
    public record Shaped(List<JobRequest> jobs, List<String> unfit, double offeredLoad, double timeScale) {
    }

    /**
     * @param targetLoad  desired ρ, or NaN to replay arrivals as recorded
     * @param windowJobs  number of consecutive jobs to keep, or 0 for all
     */
    public static Shaped shape(List<JobRequest> trace, List<NodeSpec> cluster, double targetLoad, int windowJobs, long seed) {
        return shape(trace, cluster, targetLoad, windowJobs, 1, seed);
    }

    /**
     * As {@link #shape(List, List, double, int, long)}, with the fitting jobs first repeated {@code repeat}
     * times back to back (1 = the trace as it is); the window is cut from the repeated sequence.
     */
    public static Shaped shape(List<JobRequest> trace, List<NodeSpec> cluster, double targetLoad, int windowJobs,
                               int repeat, long seed) {
        if (repeat < 1) {
            throw new IllegalArgumentException("repeat must be at least 1, got " + repeat);
        }
        if (!Double.isNaN(targetLoad) && !(targetLoad > 0)) {
            throw new IllegalArgumentException("target load must be positive, got " + targetLoad);
        }
        List<JobRequest> fit = new ArrayList<>(trace.size());
        List<String> unfit = new ArrayList<>();
        for (JobRequest j : trace) {
            if (fitsEmptyCluster(j, cluster)) {
                fit.add(j);
            } else {
                unfit.add(j.id());
            }
        }
        fit.sort(Comparator.comparingDouble(JobRequest::submitTime));
        fit = repeated(fit, repeat);
        List<JobRequest> window = fit;
        if (windowJobs > 0 && windowJobs < fit.size()) {
            int start = new SplittableRandom(seed).nextInt(fit.size() - windowJobs + 1);
            window = fit.subList(start, start + windowJobs);
        }
        window = TraceTimes.fromZero(new ArrayList<>(window));
        double clusterGpus = cluster.stream().mapToLong(n -> n.capacity().gpuMilli()).sum() / 1000.0;
        double rho = offeredLoad(window, clusterGpus);
        double scale = 1;
        if (!Double.isNaN(targetLoad) && rho > 0 && !Double.isInfinite(rho)) {
            scale = rho / targetLoad;
            List<JobRequest> scaled = new ArrayList<>(window.size());
            for (JobRequest j : window) {
                scaled.add(TraceTimes.withSubmit(j, j.submitTime() * scale));
            }
            window = scaled;
            rho = offeredLoad(window, clusterGpus);
        }
        return new Shaped(window, unfit, rho, scale);
    }

    /** K back-to-back copies of time-sorted jobs; copy k is shifted by k × (span + mean gap), ids suffixed {@code ~rk}. */
    static List<JobRequest> repeated(List<JobRequest> sorted, int repeat) {
        if (repeat == 1 || sorted.isEmpty()) {
            return sorted;
        }
        double first = sorted.get(0).submitTime();
        double span = sorted.get(sorted.size() - 1).submitTime() - first;
        double period = span + (sorted.size() > 1 ? span / (sorted.size() - 1) : 1);
        List<JobRequest> out = new ArrayList<>(sorted.size() * repeat);
        out.addAll(sorted);
        for (int k = 1; k < repeat; k++) {
            double shift = k * period;
            for (JobRequest j : sorted) {
                out.add(new JobRequest(j.id() + "~r" + k, j.user(), j.tasks(), j.perTask(), j.submitTime() + shift,
                        j.priority(), j.predictedDurationS(), j.trueDurationS()));
            }
        }
        return out;
    }

    /** ρ = Σ(GPUs × duration) ÷ (cluster GPUs × arrival span); infinite when all arrive at once. */
    public static double offeredLoad(List<JobRequest> jobs, double clusterGpus) {
        if (jobs.isEmpty() || clusterGpus <= 0) {
            return 0;
        }
        double first = Double.POSITIVE_INFINITY;
        double last = Double.NEGATIVE_INFINITY;
        double work = 0;
        for (JobRequest j : jobs) {
            first = Math.min(first, j.submitTime());
            last = Math.max(last, j.submitTime());
            work += j.gpus() * j.trueDurationS();
        }
        double span = last - first;
        return span > 0 ? work / (clusterGpus * span) : Double.POSITIVE_INFINITY;
    }

    /** Could the whole gang run on the empty cluster? */
    static boolean fitsEmptyCluster(JobRequest j, List<NodeSpec> cluster) {
        Resources t = j.perTask();
        long slots = 0;
        for (NodeSpec n : cluster) {
            Resources c = n.capacity();
            if (!c.covers(t)) {
                continue;
            }
            long s = Math.min(per(c.gpuMilli(), t.gpuMilli()), Math.min(per(c.cpuMilli(), t.cpuMilli()), per(c.memoryMib(), t.memoryMib())));
            slots += s;
            if (slots >= j.tasks()) {
                return true;
            }
        }
        return false;
    }

    private static long per(long cap, long need) {
        return need == 0 ? Integer.MAX_VALUE : cap / need;
    }
}
