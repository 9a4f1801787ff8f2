package io.gantry.scheduling.gpushare;

/**
 * One node of the Alibaba GPU 2023 cluster ({@code openb_node_list_*.csv}): CPU in millicores, host memory in MiB, its
 * GPU cards and their model ({@code ""} on CPU-only nodes). Every card of a node is of the node's model.
 */
public record GpuNode(String name, int cpuMilli, long memoryMib, int gpus, String model) {

    /** The most cards a node of the trace has; a device index is below this. */
    public static final int MAX_GPUS = 8;

    public GpuNode {
        if (cpuMilli < 0 || memoryMib < 0) {
            throw new IllegalArgumentException("node " + name + ": negative CPU or memory");
        }
        if (gpus < 0 || gpus > MAX_GPUS) {
            throw new IllegalArgumentException("node " + name + ": gpu must be 0.." + MAX_GPUS + ", got " + gpus);
        }
        if (gpus > 0 && model.isBlank()) {
            throw new IllegalArgumentException("node " + name + ": has " + gpus + " GPUs but no model");
        }
    }
}
