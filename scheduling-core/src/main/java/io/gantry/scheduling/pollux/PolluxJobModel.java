package io.gantry.scheduling.pollux;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.PolluxAppProfile;
import io.gantry.scheduling.tuning.EpochwiseTraining;
import io.gantry.scheduling.tuning.GoodputModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * How a Pollux job trains on an allocation, as Pollux's simulator ({@code simulator/simulator.py}, {@code Job.step}
 * in its Pollux mode) trains it: every epoch the job picks the batch size that maximises its <em>fitted</em>
 * goodput for its allocation ({@link GoodputOptimizer}, as the adaptdl agent does), and progresses at the
 * <em>measured</em> goodput of that batch on its placement ({@link PolluxAppProfile#goodput}). A job is done at
 * Pollux's {@code max_epochs} (the artifact has no target metric; the metric it is credited with is read from the
 * measured validation curves of the batches it trained at, {@link #finalMetric}); each new allocation costs
 * {@link PolluxAppProfile#RESCALE_DELAY_S} (the simulator's re-scale delay, 30 s).
 *
 * <p>A job's application is its {@link JobRequest#user()} (the Pollux workload loader's grouping); its placement is
 * read from its node list, one entry per GPU.
 */
public final class PolluxJobModel extends EpochwiseTraining {

    private final Path profilesDir;
    private final Map<String, PolluxAppProfile> measured = new HashMap<>();
    private final Map<String, GoodputOptimizer> fitted = new HashMap<>();
    /** By job id: its application and the batches it trained at. */
    private final Map<String, String> apps = new HashMap<>();
    private final Map<String, TreeSet<Integer>> batchesUsed = new HashMap<>();

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
    protected int epochs(JobRequest job) {
        return measured(job.user()).maxEpochs();
    }

    @Override
    protected double progressAt(JobRequest job, int epoch) {
        return measured(job.user()).progressAt(epoch);
    }

    @Override
    public void trained(JobRequest job, List<String> nodes, double fromProgress, double toProgress) {
        int[] placement = PolluxAppProfile.placementOf(nodes);
        int replicas = Arrays.stream(placement).sum();
        int first = epochAt(job, fromProgress);
        int last = toProgress > fromProgress ? epochAt(job, Math.nextDown(toProgress)) : first - 1;
        apps.put(job.id(), job.user());
        TreeSet<Integer> used = batchesUsed.computeIfAbsent(job.id(), k -> new TreeSet<>());
        for (int e = first; e <= last; e++) {
            used.add(fitted(job.user()).best(placement.length, replicas, e).batch());
        }
    }

    /**
     * The validation metric a job is credited with, by the rule adaptive Gantry jobs are credited by
     * ({@code AdaptiveRetuner.finalMetric}): the worst, over the batches it trained at, of what a whole run at that
     * batch reaches by Pollux's {@code max_epochs} in the measured validation curves (interpolated between measured
     * batches). Pollux's simulator does not ask, as its jobs have no target; it is asked here so that the share of
     * jobs reaching their target is measured for {@code pollux} too, not assumed. NaN before the job trained.
     */
    public double finalMetric(String jobId) {
        String app = apps.get(jobId);
        return app == null ? Double.NaN
                : fitted(app).model().convergence().worstMetric(batchesUsed.get(jobId), measured(app).maxEpochs());
    }

    /** Measured progress per second during {@code epoch} on {@code placement} at the fitted-best batch. */
    @Override
    protected double rate(JobRequest job, int[] placement, int epoch) {
        int replicas = Arrays.stream(placement).sum();
        GoodputOptimizer.Choice c = fitted(job.user()).best(placement.length, replicas, epoch);
        return measured(job.user()).goodput(placement, c.batch(), epoch);
    }
}
