package io.gantry.cli.bench;

import io.gantry.scheduling.sim.JobOutcome;
import io.gantry.scheduling.sim.SimulationResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code jobs.csv} of {@code gantry bench --per-job on}: one row per job of every replay, in finishing order, so that
 * a mean can be taken apart (by model, by arrival, by run) without re-running anything; {@code bench/pollux-means.py}
 * reads it for its per-model table. Rows match summary.csv's by policy, tuner, load and seed. {@code gpus} is what
 * the job held when it finished (adaptive jobs change it).
 */
final class PerJobCsv {

    static final String HEADER = "policy,tuner,load,seed,job,user,gpus,submit_s,first_start_s,finish_s,jct_s,run_s,preemptions,"
            + "restarts,restart_s";

    private final StringBuilder csv = new StringBuilder(HEADER).append('\n');

    /** The jobs of the replay summed up in {@code row}, under its policy, tuner, load and seed. */
    void add(BenchRow row, SimulationResult result) {
        for (JobOutcome o : result.outcomes()) {
            Object[] v = {row.policy(), row.tuner().mode(), row.load(), row.seed(), o.id(), o.user(), o.gpus(), o.submit(), o.firstStart(), o.finish(), o.jctS(),
                    o.durationS(), o.preemptions(), o.restarts(), o.restartS()};
            for (int i = 0; i < v.length; i++) {
                csv.append(i == 0 ? "" : ",").append(SummaryWriter.csvValue(v[i]));
            }
            csv.append('\n');
        }
    }

    void write(Path dir) throws IOException {
        Files.writeString(dir.resolve("jobs.csv"), csv, StandardCharsets.UTF_8);
    }
}
