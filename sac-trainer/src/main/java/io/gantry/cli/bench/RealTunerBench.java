package io.gantry.cli.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.events.EventCodec;
import io.gantry.events.JobResult;
import io.gantry.events.ModelGraph;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.tuning.RealTrainingTuner;
import io.gantry.scheduling.tuning.RunnerProfile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The tuner on the real job runner, two sub-commands of {@code gantry bench}:
 * <ul>
 *   <li>{@code tuner-profile}: measures the built-in runner profile on this machine: each bench model at 1, 2, 4, 8
 *       and 16 × its user's batch size (the learning rate scaled as the tuner scales it), to its target, and writes
 *       the runs as the CSV the job tuner ships ({@code services/job-tuner/src/main/resources/runner-profile.csv}).</li>
 *   <li>{@code tuner-real}: for each dataset, runs the user's spec as submitted (tuner off) and as the tuner would queue
 *       it from that profile (tuner on), each {@code --repeat} times, and prints and writes wall time to the target and
 *       final test accuracy ({@code bench/results/tuner-real.csv}, {@code .json}).</li>
 * </ul>
 * Every run is the real runner jar as a process ({@code java -jar job-runner/target/job-runner-<version>.jar}, one
 * thread, no Kafka: its {@code JobResult} is read from {@code result-1.json}), with a fresh checkpoint directory. The
 * seeds are fixed (the spec's seed 7; the runner's split seed is its own constant), so accuracies repeat exactly and
 * only wall times vary with the machine's load.
 */
final class RealTunerBench {

    /** One bench job: the spec a user submits. */
    record Case(String dataset, TrainingSpec user) {
    }

    private final PrintStream out;
    private final PrintStream err;

    RealTunerBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static final String USAGE = """
            usage: gantry bench tuner-profile [--out FILE] [--runner-jar JAR]
                   gantry bench tuner-real [--profile FILE] [--repeat N] [--out DIR] [--runner-jar JAR]
              tuner-profile  measure the job tuner's built-in runner profile on this machine: each bench model
                             (MLPs on iris, wine, breast-cancer; a small CNN on digits) at 1, 2, 4, 8, 16 x the
                             user's batch size, the learning rate scaled as the tuner does, to the target
                             (--out, default services/job-tuner/src/main/resources/runner-profile.csv)
              tuner-real     for each dataset run the user's spec (tuner off) and the tuner's choice from that
                             profile (tuner on), --repeat times each (3; the median wall time counts); print and
                             write wall time to the target and final test accuracy (--out, default bench/results:
                             tuner-real.csv, tuner-real.json)
              --runner-jar   the job runner (default job-runner/target/job-runner-*.jar; build it with
                             ./mvnw -B -DskipTests package -pl job-runner -am)
            """;

    /** The four bench jobs: what a user might submit, small batches and a modest learning rate, seed 7. */
    static List<Case> cases() {
        return List.of(
                new Case("iris", spec(mlp(16), "iris", "sgd", 0.0002, 4, 1000, 0.9)),
                new Case("wine", spec(mlp(16), "wine", "sgd", 0.00005, 4, 1000, 0.9)),
                new Case("breast-cancer", spec(mlp(16), "breast-cancer", "sgd", 0.00001, 4, 1000, 0.93)),
                new Case("digits", spec(cnn(), "digits", "adam", 0.001, 8, 100, 0.95)));
    }

    private static TrainingSpec spec(ModelGraph model, String dataset, String optimizer, double lr, int batch, int epochs,
                                     double target) {
        return new TrainingSpec(model, dataset, optimizer, lr, batch, epochs, 7L,
                new TrainingTarget(TrainingTarget.TEST_ACCURACY, target));
    }

    private static ModelGraph mlp(int hidden) {
        return new ModelGraph(List.of(new ModelGraph.Layer("in", "Input", Map.of()),
                new ModelGraph.Layer("fc1", "Linear", Map.of("units", hidden)),
                new ModelGraph.Layer("relu1", "ReLU", Map.of()),
                new ModelGraph.Layer("out", "Output", Map.of())),
                List.of(new ModelGraph.Edge("in", "fc1"), new ModelGraph.Edge("fc1", "relu1"),
                        new ModelGraph.Edge("relu1", "out")));
    }

    private static ModelGraph cnn() {
        return new ModelGraph(List.of(new ModelGraph.Layer("in", "Input", Map.of()),
                new ModelGraph.Layer("conv1", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                new ModelGraph.Layer("relu1", "ReLU", Map.of()),
                new ModelGraph.Layer("pool1", "MaxPool2d", Map.of("kernel", 2)),
                new ModelGraph.Layer("flat", "Flatten", Map.of()),
                new ModelGraph.Layer("out", "Output", Map.of())),
                List.of(new ModelGraph.Edge("in", "conv1"), new ModelGraph.Edge("conv1", "relu1"),
                        new ModelGraph.Edge("relu1", "pool1"), new ModelGraph.Edge("pool1", "flat"),
                        new ModelGraph.Edge("flat", "out")));
    }

    int run(String sub, String[] args) throws IOException, InterruptedException {
        Path profile = Path.of("services/job-tuner/src/main/resources/runner-profile.csv");
        Path outDir = Path.of("bench/results");
        Path jar = null;
        int repeat = 3;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                out.print(USAGE);
                return 0;
            }
            if (i + 1 >= args.length) {
                err.print("gantry bench " + sub + ": " + flag + " needs a value\n" + USAGE);
                return 2;
            }
            String v = args[++i];
            switch (flag) {
                case "--out" -> {
                    if (sub.equals("tuner-profile")) {
                        profile = Path.of(v);
                    } else {
                        outDir = Path.of(v);
                    }
                }
                case "--profile" -> profile = Path.of(v);
                case "--runner-jar" -> jar = Path.of(v);
                case "--repeat" -> repeat = Integer.parseInt(v);
                default -> {
                    err.print("gantry bench " + sub + ": unknown option " + flag + "\n" + USAGE);
                    return 2;
                }
            }
        }
        if (jar == null) {
            jar = findJar();
        }
        if (jar == null || !Files.isRegularFile(jar)) {
            err.println("gantry bench " + sub + ": no job runner jar (job-runner/target/job-runner-*.jar); build it with"
                    + " ./mvnw -B -DskipTests package -pl job-runner -am");
            return 2;
        }
        return sub.equals("tuner-profile") ? profile(jar, profile) : compare(jar, profile, outDir, Math.max(1, repeat));
    }

    private static Path findJar() throws IOException {
        Path dir = Path.of("job-runner/target");
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("job-runner-.*\\.jar")
                    && !p.getFileName().toString().contains("sources")).findFirst().orElse(null);
        }
    }

    // ------------------------------------------------------------------ tuner-profile

    private int profile(Path jar, Path file) throws IOException, InterruptedException {
        RealTrainingTuner tuner = new RealTrainingTuner(RealTrainingTuner.Settings.DEFAULT);
        List<RunnerProfile.Run> runs = new ArrayList<>();
        for (Case c : cases()) {
            TrainingSpec u = c.user();
            for (int factor : new int[] {1, 2, 4, 8, 16}) {
                int b = u.batchSize() * factor;
                double lr = tuner.scaledLearningRate(u.optimizer(), u.learningRate(), u.batchSize(), b);
                TrainingSpec s = u.with(b, lr, u.epochs());
                Measured m = runOnce(jar, s, "profile-" + c.dataset() + "-b" + b);
                JobResult r = m.result();
                runs.add(new RunnerProfile.Run("profile-" + c.dataset() + "-b" + b, r.modelKey(), c.dataset(),
                        u.optimizer(), u.target().metric(), u.target().value(), b, lr, r.epochsRun(), r.targetReachedEpoch(), r.wallSeconds(),
                        r.meanSamplesPerSecond(), r.peakRssBytes(), r.cpuSeconds()));
                out.printf(Locale.ROOT, "%-14s batch %4d  lr %-8s epochs %3d  target %s  %6.2f s  %7.0f samples/s  "
                                + "test accuracy %.4f%n", c.dataset(), b, fmt(lr), r.epochsRun(),
                        r.targetReachedEpoch() == null ? "missed " : "epoch " + r.targetReachedEpoch(), r.wallSeconds(),
                        r.meanSamplesPerSecond(), r.testAccuracy());
            }
        }
        RunnerProfile.writeCsv(file, List.of(
                "The job tuner's built-in runner profile, measured by: ./gantry bench tuner-profile",
                "on " + Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version")
                        + ", " + Instant.now() + "; the runner on one thread, seed 7, stopping at each spec's target."),
                runs);
        out.println("wrote " + file + " (" + runs.size() + " runs)");
        return 0;
    }

    // ------------------------------------------------------------------ tuner-real

    /** One dataset's result: the median-wall run of each side (accuracies are identical across repeats). */
    record Row(String dataset, double target, TrainingSpec user, TrainingSpec tuned, JobResult off, JobResult on,
               double[] offWalls, double[] onWalls, String tunerSummary) {

        boolean onReached() {
            return on.targetReachedEpoch() != null && on.testAccuracy() >= target - 1e-12;
        }

        boolean faster() {
            return median(onWalls) < median(offWalls);
        }
    }

    private int compare(Path jar, Path profileFile, Path outDir, int repeat) throws IOException, InterruptedException {
        if (!Files.isRegularFile(profileFile)) {
            err.println("gantry bench tuner-real: no runner profile at " + profileFile + "; run ./gantry bench"
                    + " tuner-profile first");
            return 2;
        }
        RunnerProfile profile = new RunnerProfile();
        RunnerProfile.readCsv(profileFile).forEach(profile::add);
        RealTrainingTuner tuner = new RealTrainingTuner(RealTrainingTuner.Settings.DEFAULT);
        List<Row> rows = new ArrayList<>();
        for (Case c : cases()) {
            TrainingSpec u = c.user();
            String key = u.modelKey();
            RealTrainingTuner.Result choice = tuner.tune(new RealTrainingTuner.Spec(key, u.optimizer(), u.learningRate(),
                    u.batchSize(), u.epochs(), u.target().metric(), u.target().value()),
                    new RealTrainingTuner.Bounds(true, null, null),
                    profile.runs(key));
            TrainingSpec tuned = choice.changed() ? u.with(choice.batchSize(), choice.learningRate(), choice.epochs()) : u;
            out.printf(Locale.ROOT, "%s: %s%n", c.dataset(), choice.summary());
            List<Measured> off = new ArrayList<>();
            List<Measured> on = new ArrayList<>();
            for (int i = 0; i < repeat; i++) {
                // Alternate, so a load change on the machine hits both sides alike.
                off.add(runOnce(jar, u, "off-" + c.dataset() + "-" + i));
                on.add(runOnce(jar, tuned, "on-" + c.dataset() + "-" + i));
            }
            rows.add(new Row(c.dataset(), u.target().value(), u, tuned, medianRun(off), medianRun(on), walls(off),
                    walls(on), choice.summary()));
        }
        print(rows, repeat);
        write(rows, outDir, repeat);
        long faster = rows.stream().filter(Row::faster).count();
        long below = rows.stream().filter(r -> !r.onReached()).count();
        out.printf(Locale.ROOT, "tuned faster to the target on %d of %d datasets; tuned runs below their target: %d%n",
                faster, rows.size(), below);
        return 0;
    }

    private static double[] walls(List<Measured> runs) {
        return runs.stream().mapToDouble(m -> m.result().wallSeconds()).toArray();
    }

    private static JobResult medianRun(List<Measured> runs) {
        List<Measured> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(m -> m.result().wallSeconds()));
        return sorted.get((sorted.size() - 1) / 2).result();
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[(s.length - 1) / 2];
    }

    private void print(List<Row> rows, int repeat) {
        out.printf(Locale.ROOT, "%n%-14s %6s | %-22s %9s %9s | %-26s %9s %9s | %s%n", "dataset", "target",
                "tuner off (user)", "wall s", "test acc", "tuner on (batch, lr, ep)", "wall s", "test acc", "faster");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%-14s %6.2f | %-22s %9.2f %9.4f | %-26s %9.2f %9.4f | %s%n", r.dataset(), r.target(),
                    "b " + r.user().batchSize() + ", lr " + fmt(r.user().learningRate()) + ", ep " + r.off().epochsRun(),
                    median(r.offWalls()), r.off().testAccuracy(),
                    "b " + r.tuned().batchSize() + ", lr " + fmt(r.tuned().learningRate()) + ", ep "
                            + r.on().epochsRun(), median(r.onWalls()), r.on().testAccuracy(),
                    r.faster() ? "yes" : "no");
        }
        out.printf(Locale.ROOT, "wall s: the runner's JobResult.wallSeconds (JVM start to result; the run stops at the"
                + " target), median of %d run(s) each%n", repeat);
    }

    private void write(List<Row> rows, Path dir, int repeat) throws IOException {
        Files.createDirectories(dir);
        List<String> csv = new ArrayList<>();
        csv.add("dataset,target,off_batch,off_lr,off_epochs_run,off_target_epoch,off_wall_s,off_test_accuracy,"
                + "on_batch,on_lr,on_epoch_budget,on_epochs_run,on_target_epoch,on_wall_s,on_test_accuracy,on_faster,"
                + "on_reached_target,off_walls,on_walls");
        ArrayNode json = EventCodec.mapper().createArrayNode();
        for (Row r : rows) {
            csv.add(String.join(",", r.dataset(), fmt(r.target()), String.valueOf(r.user().batchSize()),
                    fmt(r.user().learningRate()), String.valueOf(r.off().epochsRun()), String.valueOf(r.off().targetReachedEpoch()),
                    fmt(median(r.offWalls())), fmt(r.off().testAccuracy()), String.valueOf(r.tuned().batchSize()),
                    fmt(r.tuned().learningRate()), String.valueOf(r.tuned().epochs()), String.valueOf(r.on().epochsRun()),
                    String.valueOf(r.on().targetReachedEpoch()), fmt(median(r.onWalls())), fmt(r.on().testAccuracy()),
                    String.valueOf(r.faster()), String.valueOf(r.onReached()), joined(r.offWalls()), joined(r.onWalls())));
            ObjectNode o = json.addObject();
            o.put("dataset", r.dataset());
            o.put("target_test_accuracy", r.target());
            o.put("model_key", r.user().modelKey());
            o.set("tuner_off", side(r.user(), r.off(), r.offWalls()));
            o.set("tuner_on", side(r.tuned(), r.on(), r.onWalls()));
            o.put("tuner_summary", r.tunerSummary());
            o.put("tuned_faster", r.faster());
            o.put("tuned_reached_target", r.onReached());
        }
        Files.write(dir.resolve("tuner-real.csv"), csv);
        ObjectNode root = EventCodec.mapper().createObjectNode();
        root.put("command", "./gantry bench tuner-real --repeat " + repeat);
        root.put("cores", Runtime.getRuntime().availableProcessors());
        root.put("measured_at", Instant.now().toString());
        root.set("datasets", json);
        EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValue(dir.resolve("tuner-real.json").toFile(), root);
        out.println("wrote " + dir.resolve("tuner-real.csv") + " and tuner-real.json");
    }

    private static ObjectNode side(TrainingSpec spec, JobResult r, double[] walls) {
        ObjectNode o = EventCodec.mapper().createObjectNode();
        o.put("batch_size", spec.batchSize());
        o.put("learning_rate", spec.learningRate());
        o.put("epoch_budget", spec.epochs());
        o.put("epochs_run", r.epochsRun());
        if (r.targetReachedEpoch() != null) {
            o.put("target_reached_epoch", r.targetReachedEpoch());
        }
        o.put("wall_s_median", median(walls));
        ArrayNode all = o.putArray("wall_s_runs");
        Arrays.stream(walls).forEach(all::add);
        o.put("test_accuracy", r.testAccuracy());
        o.put("test_loss", r.testLoss());
        o.put("samples_per_second", r.meanSamplesPerSecond());
        o.put("peak_rss_bytes", r.peakRssBytes());
        o.put("cpu_seconds", r.cpuSeconds());
        return o;
    }

    private static String joined(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double x : v) {
            b.append(b.isEmpty() ? "" : ";").append(fmt(x));
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ one run

    record Measured(JobResult result, double processSeconds) {
    }

    /** Runs the runner jar once on {@code spec} in a fresh checkpoint directory and reads its result. */
    private Measured runOnce(Path jar, TrainingSpec spec, String jobId) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("gantry-bench-" + jobId + "-");
        Path specFile = dir.resolve("spec.json");
        Files.writeString(specFile, EventCodec.mapper().writeValueAsString(spec));
        Path ckpt = dir.resolve("checkpoints");
        Path log = dir.resolve("runner.log");
        ProcessBuilder pb = new ProcessBuilder("java", "-Xmx256m", "-XX:+UseSerialGC", "-Dai.djl.offline=true",
                "-jar", jar.toAbsolutePath().toString(), "--spec", specFile.toString(), "--job-id", jobId,
                "--user", "bench", "--checkpoint-dir", ckpt.toString(),
                "--datasets", SharedTraces.sharedDir().resolve("datasets").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("OMP_NUM_THREADS", "1");
        long t0 = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("the runner took over 30 minutes on " + jobId + "; log " + log);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Path result = ckpt.resolve("result-1.json");
        if (p.exitValue() != 0 || !Files.isRegularFile(result)) {
            List<String> lines = Files.readAllLines(log);
            throw new IllegalStateException("the runner failed on " + jobId + " (exit " + p.exitValue() + "): "
                    + (lines.isEmpty() ? "no output" : lines.get(lines.size() - 1)) + "; log " + log);
        }
        JobResult r = EventCodec.decode(Files.readString(result), JobResult.class);
        deleteTree(dir);
        return new Measured(r, seconds);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static String fmt(double v) {
        return new java.math.BigDecimal(Double.toString(v)).round(new java.math.MathContext(6)).stripTrailingZeros()
                .toPlainString();
    }
}
