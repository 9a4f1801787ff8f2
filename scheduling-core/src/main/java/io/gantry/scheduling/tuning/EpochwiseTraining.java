package io.gantry.scheduling.tuning;

import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.PolluxAppProfile;
import java.util.List;

/**
 * A job model that trains epoch by epoch, as Pollux's simulator does: an epoch is a fixed amount of statistical
 * progress, and within an epoch progress accrues at a constant rate that depends on the job's placement and on the
 * batch it chose for that epoch. Subclasses say how many epochs a job trains, where each ends and how fast it goes;
 * the job runs one task per GPU, so its placement is read from its node list.
 */
public abstract class EpochwiseTraining implements ElasticPolicy.JobModel {

    /** Epochs the job trains to be done. */
    protected abstract int epochs(JobRequest job);

    /** Statistical progress at the end of {@code epoch} (0 before the first). */
    protected abstract double progressAt(JobRequest job, int epoch);

    /** Progress per second during {@code epoch} on {@code placement} (GPUs per node). */
    protected abstract double rate(JobRequest job, int[] placement, int epoch);

    @Override
    public double total(JobRequest job) {
        return progressAt(job, epochs(job));
    }

    /** The epoch (0-based) the job is in at {@code progress}, at most the last one. */
    public int epochAt(JobRequest job, double progress) {
        int last = epochs(job) - 1;
        int e = 0;
        while (e < last && progress >= progressAt(job, e + 1)) {
            e++;
        }
        return e;
    }

    @Override
    public double secondsToFinish(JobRequest job, List<String> nodes, double progress) {
        int[] placement = PolluxAppProfile.placementOf(nodes);
        double seconds = 0;
        double at = progress;
        for (int e = epochAt(job, progress); e < epochs(job); e++) {
            double end = progressAt(job, e + 1);
            if (end > at) {
                seconds += (end - at) / rate(job, placement, e);
                at = end;
            }
        }
        return seconds;
    }

    @Override
    public double progressAfter(JobRequest job, List<String> nodes, double progress, double seconds) {
        int[] placement = PolluxAppProfile.placementOf(nodes);
        double at = progress;
        double left = seconds;
        for (int e = epochAt(job, progress); e < epochs(job) && left > 0; e++) {
            double end = progressAt(job, e + 1);
            if (end <= at) {
                continue;
            }
            double rate = rate(job, placement, e);
            double need = (end - at) / rate;
            if (need >= left) {
                return at + left * rate;
            }
            left -= need;
            at = end;
        }
        return Math.min(at, total(job));
    }

    @Override
    public double restartDelayS() {
        return PolluxAppProfile.RESCALE_DELAY_S;
    }
}
