package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Alibaba GPU 2023 pod lists ({@code openb_pod_list_*.csv}). One pod = one single-task job.
 * <ul>
 *   <li>GPU: {@code num_gpu × gpu_milli} thousandths (fractional when shared); CPU millicores; memory MiB.</li>
 *   <li>Duration: {@code deletion_time − scheduled_time}, the time it actually ran. Pods still Running at
 *       the end of the trace are censored there, as in the data.</li>
 *   <li>Pods that never got scheduled (Pending, empty {@code scheduled_time}) have no run time: they are
 *       left out and counted in the notes.</li>
 *   <li>Tenant: the trace has no user; the {@code qos} class (LS, BE, Burstable, Guaranteed) is used as the
 *       grouping for DRF and the fairness metrics.</li>
 * </ul>
 * The resources-only variants ({@code multigpu*}) have no timestamps and are rejected with a clear error.
 */
public final class OpenbTraceLoader implements TraceLoader {

    @Override
    public Trace load(Path file, NodeShape shape) {
        List<CsvTable.Row> rows = CsvTable.read(file, "name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli",
                "creation_time", "deletion_time", "scheduled_time");
        List<JobRequest> jobs = new ArrayList<>(rows.size());
        List<BadRow> bad = new ArrayList<>();
        int neverScheduled = 0;
        String name = file.getFileName().toString();
        for (CsvTable.Row row : rows) {
            try {
                if (row.get("scheduled_time").isEmpty()) {
                    neverScheduled++;
                    continue;
                }
                long gpuMilli = Math.round(row.number("num_gpu") * row.number("gpu_milli"));
                Resources perTask = new Resources(gpuMilli, Math.round(row.number("cpu_milli")), Math.round(row.number("memory_mib")));
                double created = row.number("creation_time");
                double scheduled = row.number("scheduled_time");
                double deleted = row.number("deletion_time");
                double duration = deleted - scheduled;
                if (duration < 0 || scheduled < created) {
                    throw new IllegalArgumentException("times out of order: created " + created + ", scheduled " + scheduled + ", deleted " + deleted);
                }
                String qos = row.columns().containsKey("qos") ? row.get("qos") : "";
                jobs.add(new JobRequest(row.get("name"), qos, 1, perTask, created, 0, Double.NaN, duration));
            } catch (IllegalArgumentException e) {
                bad.add(new BadRow(name, row.line(), e.getMessage()));
            }
        }
        List<String> notes = new ArrayList<>();
        if (neverScheduled > 0) {
            notes.add(neverScheduled + " pods never scheduled in the trace (Pending, no run time): left out");
        }
        return new Trace("openb", file, TraceTimes.fromZero(jobs), bad, notes);
    }
}
