package io.gantry.tuner.service;

import io.gantry.events.ResourceAmounts;

/**
 * A total GPU count laid out as a gang in the submitter's own shape. The submitter chose G GPUs per task and some CPU
 * and memory per GPU; a new total n becomes tasks of d GPUs, d the largest divisor of n not above G (so no GPU is
 * added or lost and no task grows beyond what was asked per task), each task keeping the request's CPU and memory per
 * GPU (rounded up, so a GPU never gets less than before). Products are checked: amounts within the contract's bounds
 * ({@code io.gantry.events.Limits}) never overflow, and others fail loudly instead of wrapping round.
 */
public record GangShape(int tasks, ResourceAmounts perTask) {

    /** @param perTask whole GPUs per task (gpuMilli a positive multiple of 1000) */
    public static GangShape of(int totalGpus, ResourceAmounts perTask) {
        long g = perTask.gpuMilli() / 1000;
        if (totalGpus < 1 || g < 1 || perTask.gpuMilli() % 1000 != 0) {
            throw new IllegalArgumentException("whole GPUs only: total " + totalGpus + ", per task " + perTask.gpuMilli() + " milli");
        }
        long d = Math.min(g, totalGpus);
        while (totalGpus % d != 0) {
            d--;
        }
        if (d == g) {
            return new GangShape((int) (totalGpus / d), perTask);
        }
        ResourceAmounts scaled = new ResourceAmounts(d * 1000, ceilDiv(Math.multiplyExact(perTask.cpuMilli(), d), g),
                ceilDiv(Math.multiplyExact(perTask.memoryMib(), d), g));
        return new GangShape((int) (totalGpus / d), scaled);
    }

    /** ⌈a ÷ b⌉ for a ≥ 0, b > 0, without the overflow of {@code (a + b - 1) / b}. */
    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }
}
