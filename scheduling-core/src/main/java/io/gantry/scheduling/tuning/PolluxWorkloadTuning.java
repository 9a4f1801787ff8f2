package io.gantry.scheduling.tuning;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.CsvTable;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.PolluxAppProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies the {@link TrainingTuner} to the jobs of a Pollux workload file in a replay. The tuner decides with its
 * fitted models; the run time the simulator uses is what the <em>measured</em> profile gives for the tuned
 * configuration ({@link PolluxAppProfile#runSeconds(int, int, int)}, the same derivation as the untuned jobs), and
 * the final metric is read from the measured validation curves — so model error shows in the results instead of
 * flattering them. With tuning off, each job keeps its submitted configuration and Pollux's {@code max_epochs}.
 */
public final class PolluxWorkloadTuning {

    private record Submitted(String app, int replicas, int batch) {
    }

    private final TrainingTuner tuner;
    private final Map<String, PolluxAppProfile> profiles = new HashMap<>();
    private final Map<String, Submitted> submitted = new HashMap<>();
    private final Path profilesDir;

    public PolluxWorkloadTuning(Path workloadFile, TrainingTuner tuner) {
        this.tuner = tuner;
        this.profilesDir = workloadFile.toAbsolutePath().getParent().resolveSibling("app-profiles");
        for (CsvTable.Row r : CsvTable.read(workloadFile, "name", "application", "num_replicas", "batch_size")) {
            submitted.put(r.get("name"), new Submitted(r.get("application"), (int) r.number("num_replicas"), (int) r.number("batch_size")));
        }
    }

    /** The profiles folder next to a Pollux workloads folder. */
    public static Path profilesDirFor(Path workloadFile) {
        return workloadFile.toAbsolutePath().getParent().resolveSibling("app-profiles");
    }

    /** One job of the file with what the tuner made of it. */
    private record Tuning(Submitted submitted, GoodputModel model, PolluxAppProfile measured, int submittedEpochs,
                          double target, TrainingTuner.Result result) {
    }

    private Tuning tune(JobRequest j) {
        Submitted s = submitted.get(baseId(j.id()));
        if (s == null) {
            throw new IllegalArgumentException("job " + j.id() + " is not in the workload file");
        }
        GoodputModel model = tuner.models().get(s.app());
        PolluxAppProfile measured = profiles.computeIfAbsent(s.app(), a -> PolluxAppProfile.load(profilesDir.resolve(a)));
        int epochs = measured.maxEpochs();
        int submittedEpochs = Math.min(epochs, model.convergence().epochsMeasured());
        double target = model.convergence().bestMetric(s.batch(), submittedEpochs);
        TrainingTuner.Result r = tuner.tune(new TrainingTuner.Request(s.app(), s.replicas(), s.batch(), epochs,
                TrainingTuner.Bounds.NONE));
        return new Tuning(s, model, measured, submittedEpochs, target, r);
    }

    /**
     * Each job as {@code mode} queues it, with its target and final metric: as submitted ({@code off}); tuned once
     * ({@code once}); or, {@code adaptive}, tuned once and re-tuned while it runs ({@link #retuner}), so its final
     * metric is known only after the replay ({@link AdaptiveRetuner#finalMetric}), NaN here.
     */
    public List<TunedJob> apply(List<JobRequest> jobs, NodeShape shape, TunerMode mode) {
        List<TunedJob> out = new ArrayList<>(jobs.size());
        for (JobRequest j : jobs) {
            Tuning t = tune(j);
            if (mode == TunerMode.OFF) {
                out.add(new TunedJob(j, null, Double.NaN, t.target(), t.target()));
                continue;
            }
            TrainingTuner.Result r = t.result();
            double duration = t.measured().runSeconds(r.gpus(), r.batchSize(), r.epochs());
            NodeShape.Gang gang = shape.gangFor(r.gpus());
            JobRequest tuned = new JobRequest(j.id(), j.user(), gang.tasks(), gang.perTask(), j.submitTime(), j.priority(),
                    j.predictedDurationS(), duration);
            double reached = mode == TunerMode.ADAPTIVE ? Double.NaN : t.model().convergence().bestMetric(r.batchSize(), r.epochs());
            out.add(new TunedJob(tuned, null, Double.NaN, t.target(), reached));
        }
        return out;
    }

    /**
     * A fresh re-tuner for a replay of {@code jobs} in adaptive mode: each job's plan starts from the one-time tuner's
     * choice (its epochs and target; GPUs at most the submitted count, as the one-time tuner allows).
     */
    public AdaptiveRetuner retuner(List<JobRequest> jobs, NodeShape shape) {
        return retuner(jobs, shape, false);
    }

    /** The same, with idle-GPU scaling ({@link IdleScaling}) when {@code idleScaling}. */
    public AdaptiveRetuner retuner(List<JobRequest> jobs, NodeShape shape, boolean idleScaling) {
        Map<String, RetunePlan> plans = new HashMap<>();
        Map<String, RetunePlan> longer = new HashMap<>();
        Map<String, RetunePlan> shared = new HashMap<>();
        for (JobRequest j : jobs) {
            Tuning t = tune(j);
            TrainingTuner.Result r = t.result();
            int cap = Math.min(Math.max(1, t.submitted().replicas()), t.model().maxBatch());
            RetunePlan plan = plan(t, cap, r.epochs(), shared);
            plans.put(j.id(), plan);
            RetunePlan asSubmitted = idleScaling ? plan(t, cap, t.submittedEpochs(), shared) : plan;
            if (asSubmitted.candidates() > plan.candidates()) { // only idle scaling switches a job to it
                longer.put(j.id(), asSubmitted);
            }
        }
        return new AdaptiveRetuner(plans, longer, tuner.settings().minScalingEfficiency(), shape, idleScaling);
    }

    /** The plan of {@code t}'s kind of job for {@code epochs} epochs (one per kind, shared by the jobs of a replay). */
    private RetunePlan plan(Tuning t, int cap, int epochs, Map<String, RetunePlan> shared) {
        TrainingTuner.Result r = t.result();
        String key = t.submitted().app() + "|" + t.submitted().batch() + "|" + r.batchSize() + "|" + epochs + "|" + cap;
        return shared.computeIfAbsent(key, k -> {
            java.util.Set<Integer> batches = new java.util.TreeSet<>(t.model().convergence().validatedBatches());
            batches.add(t.submitted().batch());
            batches.add(r.batchSize());
            return new RetunePlan(t.model(), t.measured(), cap, epochs, t.target(),
                    batches.stream().mapToInt(Integer::intValue).toArray(), tuner.settings().gpusPerNode());
        });
    }

    /** True when a job's final metric reaches its target (its application says whether higher is better). */
    public boolean reachesTarget(TunedJob job, double metric) {
        return tuner.models().get(submitted.get(baseId(job.job().id())).app()).convergence().reaches(metric, job.targetMetric());
    }

    /** Strips the {@code ~rK} suffix that {@code --repeat} gives copies of a job. */
    static String baseId(String id) {
        int tilde = id.indexOf('~');
        return tilde < 0 ? id : id.substring(0, tilde);
    }
}
