package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.JobRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pollux workloads ({@code name,time,application,num_replicas,batch_size}). The files have no duration:
 * each job's run time is derived from the measured profile of its application
 * ({@link PolluxAppProfile#runSeconds}) found in {@code ../app-profiles/<application>/} next to the
 * workload folder. No user column: the application name is used as the grouping for fairness.
 */
public final class PolluxWorkloadLoader implements TraceLoader {

    @Override
    public Trace load(Path file, NodeShape shape) {
        Path profilesDir = file.toAbsolutePath().getParent().resolveSibling("app-profiles");
        Map<String, PolluxAppProfile> profiles = new HashMap<>();
        List<CsvTable.Row> rows = CsvTable.read(file, "name", "time", "application", "num_replicas", "batch_size");
        List<JobRequest> jobs = new ArrayList<>(rows.size());
        List<BadRow> bad = new ArrayList<>();
        String name = file.getFileName().toString();
        for (CsvTable.Row row : rows) {
            try {
                String app = row.get("application");
                PolluxAppProfile profile = profiles.computeIfAbsent(app, a -> {
                    Path dir = profilesDir.resolve(a);
                    if (!Files.isDirectory(dir)) {
                        throw new IllegalArgumentException("no measured profile for application '" + a + "' in " + profilesDir);
                    }
                    return PolluxAppProfile.load(dir);
                });
                double replicas = row.number("num_replicas");
                double batch = row.number("batch_size");
                if (replicas < 1 || replicas != Math.rint(replicas) || batch < 1) {
                    throw new IllegalArgumentException("num_replicas must be a whole number ≥ 1 and batch_size ≥ 1");
                }
                double duration = profile.runSeconds((int) replicas, (int) batch);
                NodeShape.Gang gang = shape.gangFor((int) replicas);
                jobs.add(new JobRequest(row.get("name"), app, gang.tasks(), gang.perTask(), row.number("time"), 0, Double.NaN, duration));
            } catch (IllegalArgumentException e) {
                bad.add(new BadRow(name, row.line(), e.getMessage()));
            }
        }
        return new Trace("pollux", file, jobs, bad, List.of("durations derived from app-profiles (Pollux's training model)"));
    }
}
