package io.gantry.events;

/** GPUs in thousandths of a card, CPU in millicores, memory in MiB — the units of the Alibaba trace and of Kubernetes. */
public record ResourceAmounts(long gpuMilli, long cpuMilli, long memoryMib) {
    public static final ResourceAmounts ZERO = new ResourceAmounts(0, 0, 0);
}
