package io.gantry.scheduling.gpushare;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The target workload of the FGD paper (§3.2): the pod shapes a cluster expects and how popular each one is. FGD
 * measures fragmentation against it. As in the study's simulator ({@code pkg/utils/frag.go}, {@code GetTypicalPods},
 * run with {@code isInvolvedCpuPods: true}, {@code podPopularityThreshold: 95}, {@code podIncreaseStep: 1} by its
 * {@code scripts/generate_config_and_run.py}), the shapes are counted over a pod list (CPU-only pods included, memory
 * ignored), taken most frequent first until they cover 95% of the pods, and their frequencies renormalised to 1.
 */
public final class TargetWorkload {

    /** One expected shape and its popularity (the shares of a workload sum to 1). */
    public record Share(PodShape shape, double popularity) {
    }

    private final List<Share> shares;
    final int[] cpu;
    final int[] gpus;
    final int[] milli;
    final double[] popularity;
    private final Map<String, boolean[]> acceptsByModel = new HashMap<>();

    public TargetWorkload(List<Share> shares) {
        double sum = shares.stream().mapToDouble(Share::popularity).sum();
        if (shares.isEmpty() || !(sum > 0)) {
            throw new IllegalArgumentException("a target workload needs at least one shape with a positive popularity");
        }
        this.shares = shares.stream().map(s -> new Share(s.shape(), s.popularity() / sum)).toList();
        int n = shares.size();
        cpu = new int[n];
        gpus = new int[n];
        milli = new int[n];
        popularity = new double[n];
        for (int i = 0; i < n; i++) {
            Share s = this.shares.get(i);
            cpu[i] = s.shape().cpuMilli();
            gpus[i] = s.shape().gpus();
            milli[i] = s.shape().gpuMilli();
            popularity[i] = s.popularity();
        }
    }

    /** The simulator's typical pods of {@code pods}: the most frequent shapes covering {@code coverage} of them. */
    public static TargetWorkload typicalPods(Collection<GpuPod> pods, double coverage) {
        Map<PodShape, Double> counts = new LinkedHashMap<>();
        for (GpuPod p : pods) {
            counts.merge(p.shape(), 1.0, Double::sum);
        }
        return fromCounts(counts, coverage);
    }

    /**
     * From weighted counts: shapes sorted by decreasing weight (ties: the simulator's reverse {@code PodResource} order),
     * kept until their cumulative weight reaches {@code coverage} of the total, then renormalised.
     */
    public static TargetWorkload fromCounts(Map<PodShape, Double> counts, double coverage) {
        if (!(coverage > 0 && coverage <= 1)) {
            throw new IllegalArgumentException("coverage must be in (0, 1], got " + coverage);
        }
        List<Map.Entry<PodShape, Double>> sorted = new ArrayList<>(counts.entrySet());
        sorted.removeIf(e -> !(e.getValue() > 0));
        sorted.sort(Map.Entry.<PodShape, Double>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(PodShape.SIMULATOR_ORDER)).reversed());
        double total = sorted.stream().mapToDouble(Map.Entry::getValue).sum();
        List<Share> kept = new ArrayList<>();
        double cum = 0;
        for (Map.Entry<PodShape, Double> e : sorted) {
            if (cum >= coverage * total) {
                break;
            }
            kept.add(new Share(e.getKey(), e.getValue()));
            cum += e.getValue();
        }
        return new TargetWorkload(kept);
    }

    public List<Share> shares() {
        return shares;
    }

    public int size() {
        return shares.size();
    }

    /** For each shape, whether a node of {@code model} may run it (its {@code gpu_spec}). */
    boolean[] accepts(String model) {
        return acceptsByModel.computeIfAbsent(model, m -> {
            boolean[] a = new boolean[shares.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = shares.get(i).shape().accepts(m);
            }
            return a;
        });
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        shares.stream().sorted(Comparator.comparingDouble(Share::popularity).reversed())
                .forEach(s -> b.append(String.format("%s %.4f%n", s.shape(), s.popularity())));
        return b.toString();
    }
}
