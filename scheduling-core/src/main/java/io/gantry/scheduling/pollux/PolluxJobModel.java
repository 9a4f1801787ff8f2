package io.gantry.scheduling.pollux;

import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.PolluxAppProfile;
import io.gantry.scheduling.tuning.GoodputModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a Pollux job trains on an allocation, as Pollux's simulator ({@code simulator/simulator.py}, {@code Job.step}
 * in its Pollux mode) trains it: every epoch the job picks the batch size that maximises its <em>fitted</em>
 * goodput for its allocation ({@link GoodputOptimizer}, as the adaptdl agent does), and progresses at the
 * <em>measured</em> goodput of that batch on its placement ({@link PolluxAppProfile#goodput}). A job is done at
 * Pollux's {@code max_epochs} (the artifact has no target metric); each new allocation costs
 * {@link PolluxAppProfile#RESCALE_DELAY_S} (the simulator's re-scale delay, 30 s).
 *
 * <p>A job's application is its {@link JobRequest#user()} (the Pollux workload loader's grouping); its placement is
 * read from its node list, one entry per GPU.
 */
public final class PolluxJobModel implements ElasticPolicy.JobModel {

    private final Path profilesDir;
    private final Map<String, PolluxAppProfile> measured = new HashMap<>();
    private final Map<String, GoodputOptimizer> fitted = new HashMap<>();

    /** @param profilesDir Pollux's {@code app-profiles} folder, one sub-folder per application */
    public PolluxJobModel(Path profilesDir) {
        if (!Files.isDirectory(profilesDir)) {
            throw new IllegalArgumentException("no Pollux app-profiles folder at " + profilesDir);
        }
        this.profilesDir = profilesDir;
    }

    public PolluxAppProfile measured(String app) {
        return measured.computeIfAbsent(app, a -> PolluxAppProfile.load(appDir(a)));
    }

    public GoodputOptimizer fitted(String app) {
        return fitted.computeIfAbsent(app, a -> new GoodputOptimizer(GoodputModel.load(appDir(a))));
    }

    private Path appDir(String app) {
        Path dir = profilesDir.resolve(app);
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no measured profile for application '" + app + "' in " + profilesDir);
        }
        return dir;
    }

    @Override
    public double total(JobRequest job) {
        PolluxAppProfile p = measured(job.user());
        return p.progressAt(p.maxEpochs());
    }

    /** The epoch (0-based) the job is in at {@code progress}, at most the last one. */
    public int epochAt(JobRequest job, double progress) {
        PolluxAppProfile p = measured(job.user());
        int e = 0;
        while (e < p.maxEpochs() - 1 && progress >= p.progressAt(e + 1)) {
            e++;
        }
        return e;
    }

    /** Measured progress per second during {@code epoch} on {@code placement} at the fitted-best batch. */
    double rate(JobRequest job, int[] placement, int epoch) {
        int replicas = java.util.Arrays.stream(placement).sum();
        GoodputOptimizer.Choice c = fitted(job.user()).best(placement.length, replicas, epoch);
        return measured(job.user()).goodput(placement, c.batch(), epoch);
    }

    @Override
    public double secondsToFinish(JobRequest job, List<String> nodes, double progress) {
        PolluxAppProfile p = measured(job.user());
        int[] placement = placement(nodes);
        double seconds = 0;
        double at = progress;
        for (int e = epochAt(job, progress); e < p.maxEpochs(); e++) {
            double end = p.progressAt(e + 1);
            if (end > at) {
                seconds += (end - at) / rate(job, placement, e);
                at = end;
            }
        }
        return seconds;
    }

    @Override
    public double progressAfter(JobRequest job, List<String> nodes, double progress, double seconds) {
        PolluxAppProfile p = measured(job.user());
        int[] placement = placement(nodes);
        double at = progress;
        double left = seconds;
        for (int e = epochAt(job, progress); e < p.maxEpochs() && left > 0; e++) {
            double end = p.progressAt(e + 1);
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

    /** GPUs per node, in order of first appearance: {@code [a, a, b]} is {2, 1}. */
    static int[] placement(List<String> nodes) {
        Map<String, Integer> count = new LinkedHashMap<>();
        for (String n : nodes) {
            count.merge(n, 1, Integer::sum);
        }
        return count.values().stream().mapToInt(Integer::intValue).toArray();
    }
}
