package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Alibaba PAI 2020 job sample format, as in {@code pai_job_duration_estimate_100K.csv}
 * ({@code job_id,user,num_gpu,num_cpu,num_pod,duration,job_name,submit_time,...}; times in seconds,
 * GPUs and CPUs in whole units such as 0.25 GPU or 6.0 CPU). Read as: {@code num_gpu} and {@code num_cpu}
 * are the job's totals, split evenly over {@code num_pod} identical tasks (at least one). Memory is not
 * in the format; it is given in proportion to the GPU (or, for CPU-only jobs, CPU) share of a node.
 * Tenant = {@code user}.
 */
public final class Pai2020TraceLoader implements TraceLoader {

    @Override
    public Trace load(Path file, NodeShape shape) {
        List<CsvTable.Row> rows = CsvTable.read(file, "job_id", "user", "num_gpu", "num_cpu", "duration", "submit_time");
        List<JobRequest> jobs = new ArrayList<>(rows.size());
        List<BadRow> bad = new ArrayList<>();
        String name = file.getFileName().toString();
        boolean hasPods = !rows.isEmpty() && rows.get(0).columns().containsKey("num_pod");
        for (CsvTable.Row row : rows) {
            try {
                double gpus = row.number("num_gpu");
                double cpus = row.number("num_cpu");
                double duration = row.number("duration");
                int pods = hasPods ? (int) row.number("num_pod") : 1;
                if (gpus < 0 || cpus < 0 || duration < 0 || pods < 1) {
                    throw new IllegalArgumentException("needs num_gpu, num_cpu, duration ≥ 0 and num_pod ≥ 1");
                }
                double gpuPerTask = gpus / pods;
                double cpuPerTask = cpus / pods;
                double share = shape.gpus() > 0 && gpuPerTask > 0 ? gpuPerTask / shape.gpus() : cpuPerTask / shape.vcpus();
                Resources perTask = Resources.ofGpus(gpuPerTask, cpuPerTask, shape.memoryGib() * Math.min(1, share));
                jobs.add(new JobRequest(row.get("job_id"), row.get("user"), pods, perTask, row.number("submit_time"), 0,
                        Double.NaN, duration));
            } catch (IllegalArgumentException e) {
                bad.add(new BadRow(name, row.line(), e.getMessage()));
            }
        }
        return new Trace("pai2020", file, TraceTimes.fromZero(jobs), bad, List.of());
    }
}
