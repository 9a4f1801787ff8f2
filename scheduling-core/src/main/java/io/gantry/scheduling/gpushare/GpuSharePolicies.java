package io.gantry.scheduling.gpushare;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BiFunction;

/**
 * The GPU-sharing placement policies by name: the six of the FGD study (§5.1) and Gantry's own. Each is built per run
 * from the pod list (FGD measures fragmentation against its shapes) and the run's seed (only random draws from it).
 * <p>
 * {@code fgd} takes every shape of the pod list as its target workload, the paper's M ("the task classes of the
 * workload", §3.2). {@code fgd-typical95} keeps only the most frequent shapes covering 95% of the pods, the cut-off
 * the simulator's run script passes ({@code --pod-popularity-threshold 95}); on the default list that drops every
 * 2-, 4- and 8-GPU shape (0.9% of the pods), FGD then stops keeping whole nodes free, and it allocates 89.6% instead of
 * the published 95.2% (bench/README.md, "Fidelity").
 * <p>
 * Gantry's: {@code gantry-frag} ({@link GantryFragScorer}: FGD with informed tie-breaks) and {@code fgd-learned}
 * (FGD whose target workload is learned online from the arrivals, {@link ArrivalMix}: no pod list in advance).
 */
public final class GpuSharePolicies {

    private static final Map<String, BiFunction<List<GpuPod>, Long, GpuScorer>> FACTORIES = new LinkedHashMap<>();

    static {
        FACTORIES.put("random", (pods, seed) -> new RandomScorer(new SplittableRandom(seed ^ 0x5DEECE66DL)));
        FACTORIES.put("dot-product", (pods, seed) -> new DotProductScorer());
        FACTORIES.put("gpu-clustering", (pods, seed) -> new GpuClusteringScorer());
        FACTORIES.put("gpu-packing", (pods, seed) -> new GpuPackingScorer());
        FACTORIES.put("best-fit", (pods, seed) -> new BestFitScorer());
        FACTORIES.put("fgd", (pods, seed) -> FgdScorer.paper(TargetWorkload.typicalPods(pods, 1.0)));
        FACTORIES.put("fgd-typical95", (pods, seed) -> new FgdScorer("fgd-typical95",
                WorkloadSource.fixed(TargetWorkload.typicalPods(pods, 0.95)), true));
        FACTORIES.put("gantry-frag", (pods, seed) -> new GantryFragScorer(TargetWorkload.typicalPods(pods, 1.0)));
        FACTORIES.put("fgd-learned", (pods, seed) -> new FgdScorer("fgd-learned", new ArrivalMix(2000), true));
    }

    private GpuSharePolicies() {
    }

    public static List<String> names() {
        return List.copyOf(FACTORIES.keySet());
    }

    /** A fresh scorer of {@code name}; an unknown name is an {@link IllegalArgumentException} listing the known ones. */
    public static GpuScorer create(String name, List<GpuPod> podList, long seed) {
        BiFunction<List<GpuPod>, Long, GpuScorer> f = FACTORIES.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown policy '" + name + "'; known: " + String.join(", ", names()));
        }
        return f.apply(podList, seed);
    }
}
