package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.JobRequest;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Microsoft Philly job summaries as shipped with Pollux ({@code timestamp,duration,num_gpus,gpu_time,cluster}).
 * Tenant = the virtual cluster ({@code cluster}). Jobs larger than one node become gangs of identical
 * tasks ({@link NodeShape#gangFor}); CPU and memory, absent from the trace, scale with the GPUs.
 * Jobs are named {@code philly-<line>} since the file has no id.
 */
public final class PhillyTraceLoader implements TraceLoader {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @Override
    public Trace load(Path file, NodeShape shape) {
        List<CsvTable.Row> rows = CsvTable.read(file, "timestamp", "duration", "num_gpus", "cluster");
        List<JobRequest> jobs = new ArrayList<>(rows.size());
        List<BadRow> bad = new ArrayList<>();
        String name = file.getFileName().toString();
        for (CsvTable.Row row : rows) {
            try {
                double submit;
                try {
                    submit = LocalDateTime.parse(row.get("timestamp"), TIMESTAMP).toEpochSecond(ZoneOffset.UTC);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("timestamp is not 'yyyy-MM-dd HH:mm:ss': '" + row.get("timestamp") + "'");
                }
                double duration = row.number("duration");
                double gpus = row.number("num_gpus");
                if (duration < 0 || gpus < 1 || gpus != Math.rint(gpus)) {
                    throw new IllegalArgumentException("needs duration ≥ 0 and a whole num_gpus ≥ 1: " + duration + ", " + gpus);
                }
                NodeShape.Gang gang = shape.gangFor((int) gpus);
                jobs.add(new JobRequest("philly-" + row.line(), row.get("cluster"), gang.tasks(), gang.perTask(), submit, 0,
                        Double.NaN, duration));
            } catch (IllegalArgumentException e) {
                bad.add(new BadRow(name, row.line(), e.getMessage()));
            }
        }
        double origin = jobs.stream().mapToDouble(JobRequest::submitTime).min().orElse(Double.NaN);
        return new Trace("philly", file, TraceTimes.fromZero(jobs), bad, List.of(), origin);
    }
}
