package io.gantry.training.model;

import io.gantry.events.TrainingSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The four shipped datasets ({@code ../shared/datasets}, see its README) and their fixed split. Every dataset is split
 * the same way for every job, whatever the job's seed, so results of different runs are comparable:
 * <ul>
 *   <li>per class, the rows are shuffled with {@link #SPLIT_SEED}; the first 15% (rounded) go to test, the next 15%
 *       to validation, the rest to training (stratified, so each split holds every class in its proportion);</li>
 *   <li>each split is then shuffled with {@link #SPLIT_SEED} once more so classes are interleaved;</li>
 *   <li>digits: the 64 pixel values (0-16) divided by 16, as a 1×8×8 image; the others: each feature standardised with
 *       the mean and standard deviation of the training split.</li>
 * </ul>
 */
public final class Datasets {

    /** The one seed of every split. */
    public static final long SPLIT_SEED = 20_261_201L;
    public static final double TEST_FRACTION = 0.15;
    public static final double VALIDATION_FRACTION = 0.15;

    /** What the shape inference needs of a dataset: its sample shape and class count. */
    public record Info(String name, String file, int[] inputShape, int classes) {
        public List<Integer> shape() {
            return Arrays.stream(inputShape).boxed().toList();
        }
    }

    /** Rows of one split: {@code x[i]} flattened sample, {@code y[i]} its class. */
    public record Split(float[][] x, int[] y) {
        public int size() {
            return y.length;
        }
    }

    /** A loaded dataset. */
    public record Loaded(Info info, List<String> classNames, Split train, Split validation, Split test) {
    }

    public static final List<Info> ALL = List.of(
            new Info("digits", "digits.csv", new int[]{1, 8, 8}, 10),
            new Info("iris", "iris.csv", new int[]{4}, 3),
            new Info("wine", "wine_data.csv", new int[]{13}, 3),
            new Info("breast-cancer", "breast_cancer.csv", new int[]{30}, 2));

    private Datasets() {
    }

    /** The dataset named {@code name} ({@link TrainingSpec#DATASETS}), or an exception naming the known ones. */
    public static Info info(String name) {
        return ALL.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow(() ->
                new SpecException("training.dataset", "unknown dataset '" + name + "'; must be one of "
                        + String.join(", ", TrainingSpec.DATASETS)));
    }

    /** Reads and splits {@code name} from {@code dir}. */
    public static Loaded load(Path dir, String name) {
        Info info = info(name);
        Path file = dir.resolve(info.file());
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dataset " + name + " at " + file, e);
        }
        boolean digits = name.equals("digits");
        // The tabular files name their classes in a header; digits has none, its classes are the digits.
        List<String> classNames = new ArrayList<>();
        if (digits) {
            for (int c = 0; c < 10; c++) {
                classNames.add(String.valueOf(c));
            }
        } else {
            String[] header = lines.get(0).split(",");
            classNames.addAll(Arrays.asList(header).subList(2, header.length));
        }
        int features = Arrays.stream(info.inputShape()).reduce(1, (a, b) -> a * b);
        Rows rows = parse(file, lines, digits ? 0 : 1, features);
        Partition p = stratifiedSplit(rows.ys(), info.classes());
        Scaling scaling = digits ? Scaling.pixels(features) : Scaling.standardise(rows.xs(), p.train(), features);
        return new Loaded(info, List.copyOf(classNames), split(rows, p.train(), scaling),
                split(rows, p.validation(), scaling), split(rows, p.test(), scaling));
    }

    /** Every sample as read ({@code xs[i]}, its class {@code ys[i]}), before the split and scaling. */
    private record Rows(List<float[]> xs, List<Integer> ys) {
    }

    /** The data lines from {@code first} on: {@code features} values, then the class; blank lines skipped. */
    private static Rows parse(Path file, List<String> lines, int first, int features) {
        List<float[]> xs = new ArrayList<>();
        List<Integer> ys = new ArrayList<>();
        for (int i = first; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split(",");
            if (cells.length != features + 1) {
                throw new IllegalStateException(file + " line " + (i + 1) + ": expected " + (features + 1)
                        + " values, found " + cells.length);
            }
            float[] x = new float[features];
            for (int f = 0; f < features; f++) {
                x[f] = Float.parseFloat(cells[f]);
            }
            xs.add(x);
            ys.add((int) Double.parseDouble(cells[features]));
        }
        return new Rows(xs, ys);
    }

    /** Row indices of each split. */
    private record Partition(List<Integer> train, List<Integer> validation, List<Integer> test) {
    }

    /** The fixed stratified split of the class docs above, from one {@link #SPLIT_SEED} sequence. */
    private static Partition stratifiedSplit(List<Integer> ys, int classes) {
        List<List<Integer>> byClass = new ArrayList<>();
        for (int c = 0; c < classes; c++) {
            byClass.add(new ArrayList<>());
        }
        for (int i = 0; i < ys.size(); i++) {
            byClass.get(ys.get(i)).add(i);
        }
        Random random = new Random(SPLIT_SEED);
        List<Integer> train = new ArrayList<>();
        List<Integer> validation = new ArrayList<>();
        List<Integer> test = new ArrayList<>();
        for (List<Integer> rows : byClass) {
            Collections.shuffle(rows, random);
            int nTest = (int) Math.round(rows.size() * TEST_FRACTION);
            int nVal = (int) Math.round(rows.size() * VALIDATION_FRACTION);
            test.addAll(rows.subList(0, nTest));
            validation.addAll(rows.subList(nTest, nTest + nVal));
            train.addAll(rows.subList(nTest + nVal, rows.size()));
        }
        Collections.shuffle(train, random);
        Collections.shuffle(validation, random);
        Collections.shuffle(test, random);
        return new Partition(train, validation, test);
    }

    /** Each feature becomes {@code (x - mean) / scale}. */
    private record Scaling(float[] mean, float[] scale) {

        /** Digits' pixel values 0-16 divided by 16. */
        static Scaling pixels(int features) {
            float[] scale = new float[features];
            Arrays.fill(scale, 16f);
            return new Scaling(new float[features], scale);
        }

        /** Mean and standard deviation of the training rows only, so nothing of validation or test leaks in. */
        static Scaling standardise(List<float[]> xs, List<Integer> train, int features) {
            float[] mean = new float[features];
            float[] scale = new float[features];
            for (int f = 0; f < features; f++) {
                double sum = 0;
                double sq = 0;
                for (int i : train) {
                    sum += xs.get(i)[f];
                }
                double m = sum / train.size();
                for (int i : train) {
                    sq += (xs.get(i)[f] - m) * (xs.get(i)[f] - m);
                }
                double sd = Math.sqrt(sq / train.size());
                mean[f] = (float) m;
                scale[f] = sd > 1e-12 ? (float) sd : 1f;
            }
            return new Scaling(mean, scale);
        }
    }

    private static Split split(Rows all, List<Integer> rows, Scaling scaling) {
        float[][] x = new float[rows.size()][];
        int[] y = new int[rows.size()];
        for (int r = 0; r < rows.size(); r++) {
            float[] src = all.xs().get(rows.get(r));
            float[] dst = new float[src.length];
            for (int f = 0; f < src.length; f++) {
                dst[f] = (src[f] - scaling.mean()[f]) / scaling.scale()[f];
            }
            x[r] = dst;
            y[r] = all.ys().get(rows.get(r));
        }
        return new Split(x, y);
    }

    /** One line for a README or a log: the sizes of the split. */
    public static String describe(Loaded d) {
        return String.format(Locale.ROOT, "%s: %d train / %d validation / %d test (split seed %d)", d.info().name(),
                d.train().size(), d.validation().size(), d.test().size(), SPLIT_SEED);
    }
}
