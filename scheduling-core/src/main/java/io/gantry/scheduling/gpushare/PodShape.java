package io.gantry.scheduling.gpushare;

import java.util.Arrays;
import java.util.Comparator;

/**
 * What a pod asks for, as the FGD study's simulator sees it (its {@code PodResource}): CPU millicores, the number of GPUs
 * and the share of each ({@code gpuMilli}, 1000 = a whole card), and the GPU models it accepts ({@code gpu_spec},
 * {@code |}-separated, empty = any). A share below 1000 only comes with one GPU (trace README, "Pod schema"): such a
 * pod shares one device; a pod of whole GPUs takes whole devices. Memory is a filter, not part of the shape, because the
 * fragmentation measure ignores it.
 */
public record PodShape(int cpuMilli, int gpus, int gpuMilli, String gpuSpec) {

    /** Decreasing by the simulator's {@code PodResource.Less}: CPU, then GPU share, then count, then spec. */
    static final Comparator<PodShape> SIMULATOR_ORDER = Comparator.comparingInt(PodShape::cpuMilli)
            .thenComparingInt(PodShape::gpuMilli).thenComparingInt(PodShape::gpus).thenComparing(PodShape::gpuSpec);

    public PodShape {
        if (cpuMilli < 0) {
            throw new IllegalArgumentException("cpu_milli must not be negative, got " + cpuMilli);
        }
        if (gpus < 0 || gpus > GpuNode.MAX_GPUS) {
            throw new IllegalArgumentException("num_gpu must be 0.." + GpuNode.MAX_GPUS + ", got " + gpus);
        }
        if (gpus == 0 && gpuMilli != 0 || gpus > 0 && (gpuMilli <= 0 || gpuMilli > 1000)) {
            throw new IllegalArgumentException("gpu_milli must be 1..1000 with num_gpu > 0 and 0 without, got num_gpu "
                    + gpus + ", gpu_milli " + gpuMilli);
        }
        if (gpus > 1 && gpuMilli < 1000) {
            throw new IllegalArgumentException("a GPU share below 1000 only comes with num_gpu 1, got num_gpu " + gpus);
        }
        gpuSpec = normalise(gpuSpec);
    }

    /** A fraction of one card, shared with other pods. */
    public boolean sharesGpu() {
        return gpus == 1 && gpuMilli < 1000;
    }

    public int totalGpuMilli() {
        return gpus * gpuMilli;
    }

    /** Whether a node of {@code model} may run this pod: any model when the spec is empty; CPU-only nodes never. */
    public boolean accepts(String model) {
        if (gpuSpec.isEmpty()) {
            return true;
        }
        if (model.isEmpty()) {
            return false;
        }
        for (String m : gpuSpec.split("\\|")) {
            if (m.equals(model)) {
                return true;
            }
        }
        return false;
    }

    /** The accepted models sorted, so two spellings of the same set are one shape. */
    private static String normalise(String spec) {
        if (spec == null || spec.isBlank()) {
            return "";
        }
        return String.join("|", Arrays.stream(spec.split("\\|")).map(String::trim).filter(s -> !s.isEmpty()).sorted()
                .distinct().toList());
    }
}
