package io.gantry.scheduling.gpushare;

/** One pod of an {@code openb_pod_list_*.csv}: its name, its shape and its host memory (MiB), which only filters nodes. */
public record GpuPod(String name, PodShape shape, long memoryMib) {

    public GpuPod {
        if (memoryMib < 0) {
            throw new IllegalArgumentException("pod " + name + ": memory_mib must not be negative");
        }
    }
}
