package io.gantry.scheduling.tuning;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.sim.OomModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Right-sizes the CPU and memory requests of a replayed trace with a {@link ResourceRightSizer}, against the
 * {@link UsageModel}'s peak usage, and tells the simulator (as an {@link OomModel}) which jobs run out of memory.
 *
 * <p>History: jobs are taken in submission order; a job's usage is learned once it would have finished if it had
 * started on arrival (submit + run time), which ignores queueing and so lets the sizer learn slightly earlier than
 * it could in the replay. "Similar" = the same per-task request shape (GPU, CPU, memory).
 *
 * <p>Consequences, both assumptions stated in bench/README.md: a job sized below its peak memory is killed
 * {@link #OOM_AT_FRACTION} of the way through its run, loses its progress and is retried with its original request;
 * a job sized below its peak CPU is throttled, its run time stretched by peak ÷ allocated CPU for the whole run
 * (pessimistic: a peak is treated as lasting).
 */
public final class TraceRightSizing implements OomModel {

    static final double OOM_AT_FRACTION = 0.5;

    private final Map<String, JobRequest> original = new HashMap<>();
    private final Map<String, Double> killAfter = new HashMap<>();

    /** Each job with right-sized requests (or untouched with {@code tune} false). */
    public List<TunedJob> apply(List<JobRequest> jobs, UsageModel usage, ResourceRightSizer sizer, long seed, boolean tune) {
        List<JobRequest> bySubmit = new ArrayList<>(jobs);
        bySubmit.sort(Comparator.comparingDouble(JobRequest::submitTime));
        PriorityQueue<double[]> unfinished = new PriorityQueue<>(Comparator.comparingDouble(x -> x[0]));
        List<JobRequest> finishedOrder = new ArrayList<>();
        List<TunedJob> out = new ArrayList<>(jobs.size());
        for (JobRequest j : bySubmit) {
            while (!unfinished.isEmpty() && unfinished.peek()[0] <= j.submitTime()) {
                JobRequest done = finishedOrder.get((int) unfinished.poll()[1]);
                double[] peak = usage.peakFractions(done, seed);
                sizer.observe(shapeKey(done), peak[0], peak[1]);
            }
            finishedOrder.add(j);
            unfinished.add(new double[] {j.submitTime() + j.trueDurationS(), finishedOrder.size() - 1});
            if (!tune) {
                out.add(TunedJob.untouched(j));
                continue;
            }
            Resources r = j.perTask();
            ResourceRightSizer.Sizing s = sizer.size(shapeKey(j), r.cpuMilli(), r.memoryMib());
            double[] peak = usage.peakFractions(j, seed);
            double duration = j.trueDurationS();
            if (s.cpuMilli() < peak[0] * r.cpuMilli()) {
                duration *= peak[0] * r.cpuMilli() / s.cpuMilli();
            }
            JobRequest sized = new JobRequest(j.id(), j.user(), j.tasks(), new Resources(r.gpuMilli(), s.cpuMilli(), s.memoryMib()),
                    j.submitTime(), j.priority(), j.predictedDurationS(), duration);
            double oomAt = s.memoryMib() < peak[1] * r.memoryMib() ? OOM_AT_FRACTION * duration : Double.NaN;
            original.put(j.id(), j);
            if (!Double.isNaN(oomAt)) {
                killAfter.put(j.id(), oomAt);
            }
            out.add(new TunedJob(sized, j, oomAt, Double.NaN, Double.NaN));
        }
        return out;
    }

    @Override
    public double killAfterS(JobRequest job) {
        return killAfter.getOrDefault(job.id(), Double.NaN);
    }

    @Override
    public JobRequest retryAs(JobRequest job) {
        return original.getOrDefault(job.id(), job);
    }

    static String shapeKey(JobRequest j) {
        Resources r = j.perTask();
        return j.tasks() + "x" + r.gpuMilli() + "/" + r.cpuMilli() + "/" + r.memoryMib();
    }
}
