package io.gantry.tuner.service;

import io.gantry.events.JobResult;
import io.gantry.events.JobTuned;
import io.gantry.events.TrainingSpec;
import io.gantry.scheduling.tuning.RunnerProfile;
import io.gantry.tuner.mapping.Tuning;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the tuner has learnt about real training runs: the {@link RunnerProfile} of every model, filled from the
 * built-in profile measured on this machine (the {@code runner-profile.csv} resource, written by
 * {@code ./gantry bench tuner-profile}, or {@code gantry.tuner.runner-profile}) and from every {@link JobResult} on
 * {@code gantry.jobs.lifecycle}. Nothing is stored by the tuner itself: after a restart it is rebuilt from the topics
 * ({@code TunerRecovery}), and a result read twice is kept once (job id and attempt).
 *
 * <p>A {@code JobResult} names the model, optimiser, target, batch size and learning rate. The dataset, and the
 * optimiser and target of a result written before it named them, come from the job's own {@code JobTuned}
 * (remembered for the {@value #REMEMBERED_JOBS} newest training jobs), else are unknown; a run whose optimiser or
 * target is unknown counts for right-sizing only, never for epochs to a target. A resumed attempt's wall time covers only that attempt while its {@code epochsRun} counts them all: it is
 * kept for right-sizing (peak RSS, CPU) but not for the time profile.
 */
public final class RunnerHistory {

    static final int REMEMBERED_JOBS = 100_000;

    private final RunnerProfile profile = new RunnerProfile();
    private final Map<String, TrainingSpec> specs = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TrainingSpec> eldest) {
            return size() > REMEMBERED_JOBS;
        }
    };
    private final int builtIn;

    /** @param builtInProfile the CSV to seed from; null: the {@code runner-profile.csv} resource */
    public RunnerHistory(Path builtInProfile) {
        List<RunnerProfile.Run> seed = builtInProfile != null ? RunnerProfile.readCsv(builtInProfile) : resource();
        seed.forEach(profile::add);
        this.builtIn = seed.size();
    }

    private static List<RunnerProfile.Run> resource() {
        try (InputStream in = RunnerHistory.class.getResourceAsStream("/runner-profile.csv")) {
            if (in == null) {
                return List.of();
            }
            Path tmp = Files.createTempFile("runner-profile", ".csv");
            try {
                Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                return RunnerProfile.readCsv(tmp);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the built-in runner profile", e);
        }
    }

    public RunnerProfile profile() {
        return profile;
    }

    /** Runs of the built-in profile. */
    public int builtInRuns() {
        return builtIn;
    }

    /** Remembers the spec a training job was queued with, so its result can be matched to its optimiser. */
    public void tuned(JobTuned t) {
        if (t.training() != null) {
            synchronized (specs) {
                specs.put(t.jobId(), t.training());
            }
        }
    }

    /** Learns from a run's result; false when it was known already. */
    public boolean result(JobResult r) {
        TrainingSpec spec;
        synchronized (specs) {
            spec = specs.get(r.jobId());
        }
        return profile.add(Tuning.run(r, spec));
    }
}
