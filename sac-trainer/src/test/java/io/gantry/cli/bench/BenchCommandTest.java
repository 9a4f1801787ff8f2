package io.gantry.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import io.gantry.scheduling.trace.PolluxAppProfile;
import io.gantry.scheduling.tuning.TunerMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {

    private static int bench(ByteArrayOutputStream err, String... args) throws Exception {
        return new BenchCommand(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err)).run(args);
    }

    private static String withoutWall(String json) {
        return json.replaceAll("\"wall_s\": [0-9.eE+-]+", "\"wall_s\": X");
    }

    @Test
    void sameSeedSameSummaryApartFromWallTime(@TempDir Path tmp) throws Exception {
        String[] common = {"--trace", "philly", "--load", "1.0", "--jobs", "1500", "--seeds", "4", "--policies", "kube-default,tiresias"};
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, bench(err, concat(common, "--out", tmp.resolve("a").toString())));
        assertEquals(0, bench(err, concat(common, "--out", tmp.resolve("b").toString())));
        String a = Files.readString(tmp.resolve("a/summary.json"));
        String b = Files.readString(tmp.resolve("b/summary.json"));
        assertEquals(withoutWall(a), withoutWall(b));
        for (String key : SummaryWriter.COLUMNS) {
            assertTrue(a.contains("\"" + key + "\": "), key);
        }
        assertTrue(Files.size(tmp.resolve("a/jct-cdf-rho1.00.png")) > 1000);
        assertTrue(Files.size(tmp.resolve("a/gpu-alloc-rho1.00.png")) > 1000);
        assertEquals(3, Files.readAllLines(tmp.resolve("a/summary.csv")).size());
    }

    @Test
    void badFlagsAreRefusedWithAReason() throws Exception {
        assertRefused("unknown policy 'fifo-magic'", "--policies", "fifo-magic");
        assertRefused("--load values must be positive", "--load", "0");
        assertRefused("pass --trace-file", "--trace", "pai2020");
        assertRefused("GPUS,VCPUS,MEM_GIB", "--node-shape", "8,96");
        assertRefused("--fair-half-life takes a finite number of seconds > 0, got '0'",
                "--fair", "on", "--fair-half-life", "0");
        assertRefused("need --fair on", "--fair-weight", "50");
        assertRefused("--preemption-cost takes a finite number of seconds ≥ 0, got '-30'", "--preemption-cost", "-30");
        try {
            assertRefused("sac: checkpoint /nonexistent/checkpoint could not be loaded", "--policies", "sac",
                    "--policy-setting", "sac.checkpoint=/nonexistent/checkpoint");
        } finally {
            io.gantry.scheduling.sac.SacConfig.use(io.gantry.scheduling.sac.SacConfig.DEFAULT);
        }
    }

    /**
     * --predictor races duration predictors on the same jobs: a row per predictor, named policy@predictor (the oracle
     * marked), history unmarked; a policy that reads predictions (qssf) changes with them, one that does not
     * (tiresias) gives the same JCT under every predictor.
     */
    @Test
    void predictorsAreAListAndEachIsARow(@TempDir Path tmp) throws Exception {
        assertRefused("--predictor: unknown predictor 'psychic'; known: history, learned, oracle-durations",
                "--predictor", "psychic");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, bench(err, "--trace", "philly", "--load", "1.2", "--jobs", "800", "--policies", "qssf,tiresias",
                "--predictor", "history,learned,oracle-durations", "--out", tmp.toString()), err.toString());
        List<String> rows = Files.readAllLines(tmp.resolve("summary.csv"));
        int policy = List.of(SummaryWriter.COLUMNS).indexOf("policy");
        int jct = List.of(SummaryWriter.COLUMNS).indexOf("avg_jct_s");
        java.util.Map<String, Double> byPolicy = new java.util.LinkedHashMap<>();
        for (String row : rows.subList(1, rows.size())) {
            String[] v = row.split(",");
            byPolicy.put(v[policy], Double.parseDouble(v[jct]));
        }
        assertEquals(List.of("qssf", "qssf@learned", "qssf@oracle-durations*", "tiresias", "tiresias@learned",
                "tiresias@oracle-durations*"), List.copyOf(byPolicy.keySet()));
        assertTrue(!byPolicy.get("qssf").equals(byPolicy.get("qssf@oracle-durations*")), byPolicy.toString());
        assertEquals(byPolicy.get("tiresias"), byPolicy.get("tiresias@learned"));
        assertEquals(byPolicy.get("tiresias"), byPolicy.get("tiresias@oracle-durations*"));
    }

    /** --nodes-file: the cluster is the listed nodes; a bad file stops the run with the file and why. */
    @Test
    void aNodeListIsTheClusterAndABadOneIsRefused(@TempDir Path tmp) throws Exception {
        Path nodes = Files.writeString(tmp.resolve("nodes.csv"), "sn,cpu_milli,memory_mib,gpu,model\n"
                + "openb-node-0001,96000,786432,8,G2\nopenb-node-0002,64000,262144,2,T4\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, bench(err, "--trace", "philly", "--jobs", "200", "--policies", "kube-default", "--nodes-file",
                nodes.toString(), "--out", tmp.resolve("out").toString()), err.toString());
        assertTrue(Files.readString(tmp.resolve("out/summary.json")).contains("\"policy\": \"kube-default\""));
        assertRefused("no such file", "--nodes-file", tmp.resolve("missing.csv").toString());
        Path bad = Files.writeString(tmp.resolve("bad.csv"), "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,12,G2\n");
        assertRefused("1 bad row(s) in " + bad, "--nodes-file", bad.toString());
    }

    /** --tuner takes a comma list of modes, on meaning once; every mode runs on the same jobs and is a column. */
    @Test
    void tunerModesAreAListAndEachIsARow(@TempDir Path tmp) throws Exception {
        assertEquals(List.of(TunerMode.OFF, TunerMode.ONCE, TunerMode.ADAPTIVE),
                BenchOptions.parse(new String[] {"--trace", "pollux", "--tuner", "off,on,adaptive,once"}).tuners());
        assertEquals(List.of(TunerMode.OFF), BenchOptions.parse(new String[] {"--trace", "pollux"}).tuners());
        assertRefused("tuner mode is off, once (or on) or adaptive, got 'sometimes'", "--tuner", "sometimes");
        assertRefused("--tuner adaptive needs --trace pollux", "--trace", "philly", "--tuner", "once,adaptive");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, bench(err, "--trace", "pollux", "--jobs", "40", "--nodes", "16", "--node-shape", "4,64,256",
                "--policies", "tiresias", "--tuner", "off,once,adaptive", "--out", tmp.toString()), err.toString());
        List<String> rows = Files.readAllLines(tmp.resolve("summary.csv"));
        int tuner = List.of(rows.get(0).split(",")).indexOf("tuner");
        assertEquals(List.of("off", "once", "adaptive"), rows.subList(1, rows.size()).stream()
                .map(r -> r.split(",")[tuner]).toList());
    }

    /** --tuner-idle-scaling off,on runs adaptive jobs both ways on the same jobs, the second as adaptive+idle. */
    @Test
    void idleScalingIsAnotherAdaptiveRow(@TempDir Path tmp) throws Exception {
        assertEquals(List.of(false), BenchOptions.parse(new String[] {"--trace", "pollux", "--tuner", "adaptive"}).idleScaling());
        assertRefused("--tuner-idle-scaling on needs --tuner adaptive", "--trace", "pollux", "--tuner", "once",
                "--tuner-idle-scaling", "on");
        assertRefused("--tuner-idle-scaling takes on or off, got 'maybe'", "--trace", "pollux", "--tuner", "adaptive",
                "--tuner-idle-scaling", "maybe");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, bench(err, "--trace", "pollux", "--jobs", "40", "--nodes", "16", "--node-shape", "4,64,256",
                "--policies", "tiresias", "--tuner", "once,adaptive", "--tuner-idle-scaling", "off,on",
                "--out", tmp.toString()), err.toString());
        List<String> rows = Files.readAllLines(tmp.resolve("summary.csv"));
        int tuner = List.of(rows.get(0).split(",")).indexOf("tuner");
        assertEquals(List.of("once", "adaptive", "adaptive+idle"), rows.subList(1, rows.size()).stream()
                .map(r -> r.split(",")[tuner]).toList());
    }

    /**
     * The restart keys of summary.csv. Once-tuned jobs under kube-default (which never preempts) never restart. Adaptive
     * jobs under it restart only in place, to change their GPU count, and each restart is charged Pollux's re-scale
     * delay plus --preemption-cost, so the run time charged is restarts × jobs × (30 + 10) s.
     */
    @Test
    void restartKeysCountEachRunsRestartsAndWhatTheyWereCharged(@TempDir Path tmp) throws Exception {
        double costS = 10;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, bench(err, "--trace", "pollux", "--jobs", "40", "--nodes", "16", "--node-shape", "4,64,256",
                "--policies", "kube-default", "--tuner", "once,adaptive", "--preemption-cost", String.valueOf(costS),
                "--out", tmp.toString()), err.toString());
        List<String> rows = Files.readAllLines(tmp.resolve("summary.csv"));
        List<String> header = List.of(rows.get(0).split(","));
        List<String> once = List.of(rows.get(1).split(","));
        List<String> adaptive = List.of(rows.get(2).split(","));
        assertEquals(List.of("once", "adaptive"), List.of(once.get(header.indexOf("tuner")),
                adaptive.get(header.indexOf("tuner"))));
        for (String key : List.of("restarts_per_job", "resizes_per_job", "restarted_share", "restart_s")) {
            assertEquals(0.0, Double.parseDouble(once.get(header.indexOf(key))), key + " of once-tuned jobs");
        }
        double restarts = Double.parseDouble(adaptive.get(header.indexOf("restarts_per_job")));
        double jobs = Double.parseDouble(adaptive.get(header.indexOf("jobs")));
        assertTrue(restarts > 0, "adaptive jobs change their GPU count on 64 GPUs: " + rows.get(2));
        assertEquals(restarts, Double.parseDouble(adaptive.get(header.indexOf("resizes_per_job"))),
                "kube-default preempts nobody: every restart is a resize");
        double share = Double.parseDouble(adaptive.get(header.indexOf("restarted_share")));
        assertTrue(share > 0 && share <= Math.min(1, restarts), "restarted share " + share);
        assertEquals(restarts * jobs * (PolluxAppProfile.RESCALE_DELAY_S + costS),
                Double.parseDouble(adaptive.get(header.indexOf("restart_s"))), 1e-2, "restarts_per_job is written to 6 decimals");
    }

    /**
     * jobs.csv takes the summary apart: one row per job of every replay, whose JCTs average to the run's avg_jct_s and
     * whose restarts to its restarts_per_job; without --per-job on there is no such file.
     */
    @Test
    void perJobRowsAddUpToTheSummary(@TempDir Path tmp) throws Exception {
        assertRefused("--per-job takes on or off, got 'all'", "--per-job", "all");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, bench(err, "--trace", "pollux", "--jobs", "40", "--nodes", "16", "--node-shape", "4,64,256",
                "--policies", "tiresias", "--tuner", "once,adaptive", "--per-job", "on", "--out", tmp.resolve("on").toString()),
                err.toString());
        List<String> summary = Files.readAllLines(tmp.resolve("on/summary.csv"));
        List<String> header = List.of(summary.get(0).split(","));
        List<String> jobs = Files.readAllLines(tmp.resolve("on/jobs.csv"));
        List<String> jobHeader = List.of(jobs.get(0).split(","));
        assertEquals(List.of(PerJobCsv.HEADER.split(",")), jobHeader);
        assertEquals(1 + 2 * 40, jobs.size(), "40 jobs in each of the two runs");
        for (String row : summary.subList(1, summary.size())) {
            List<String> v = List.of(row.split(","));
            String run = v.get(header.indexOf("policy")) + "/" + v.get(header.indexOf("tuner"));
            List<List<String>> mine = jobs.subList(1, jobs.size()).stream().map(j -> List.of(j.split(",")))
                    .filter(j -> (j.get(jobHeader.indexOf("policy")) + "/" + j.get(jobHeader.indexOf("tuner"))).equals(run))
                    .toList();
            assertEquals(40, mine.size(), run);
            double jct = mine.stream().mapToDouble(j -> Double.parseDouble(j.get(jobHeader.indexOf("jct_s")))).average().orElseThrow();
            double restarts = mine.stream().mapToDouble(j -> Double.parseDouble(j.get(jobHeader.indexOf("restarts")))).average()
                    .orElseThrow();
            assertEquals(Double.parseDouble(v.get(header.indexOf("avg_jct_s"))), jct, 1e-3 * jct, run);
            assertEquals(Double.parseDouble(v.get(header.indexOf("restarts_per_job"))), restarts, 1e-5, run);
        }
        assertEquals(0, bench(err, "--trace", "pollux", "--jobs", "40", "--nodes", "16", "--node-shape", "4,64,256",
                "--policies", "kube-default", "--out", tmp.resolve("off").toString()), err.toString());
        assertTrue(Files.exists(tmp.resolve("off/summary.csv")) && !Files.exists(tmp.resolve("off/jobs.csv")));
    }

    /** Exit code 2 for {@code args}, with {@code reason} on stderr. */
    private static void assertRefused(String reason, String... args) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, bench(err, args));
        assertTrue(err.toString().contains(reason), err.toString());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
