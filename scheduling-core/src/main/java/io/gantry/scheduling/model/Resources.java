package io.gantry.scheduling.model;

/**
 * An amount of the three resources Gantry schedules. GPUs are counted in thousandths of a card
 * ({@code gpuMilli}), so a fractional (shared) GPU request and a whole-card request use one unit.
 */
public record Resources(long gpuMilli, long cpuMilli, long memoryMib) {

    public static final Resources ZERO = new Resources(0, 0, 0);

    public Resources {
        if (gpuMilli < 0 || cpuMilli < 0 || memoryMib < 0) {
            throw new IllegalArgumentException("resources must not be negative: " + gpuMilli + "/" + cpuMilli + "/" + memoryMib);
        }
    }

    public static Resources ofGpus(double gpus, double vcpus, double memoryGib) {
        return new Resources(Math.round(gpus * 1000), Math.round(vcpus * 1000), Math.round(memoryGib * 1024));
    }

    public Resources plus(Resources o) {
        return new Resources(gpuMilli + o.gpuMilli, cpuMilli + o.cpuMilli, memoryMib + o.memoryMib);
    }

    public Resources minus(Resources o) {
        return new Resources(gpuMilli - o.gpuMilli, cpuMilli - o.cpuMilli, memoryMib - o.memoryMib);
    }

    public Resources times(int n) {
        return new Resources(gpuMilli * n, cpuMilli * n, memoryMib * n);
    }

    /** True when every dimension of {@code request} is at most this amount. */
    public boolean covers(Resources request) {
        return request.gpuMilli <= gpuMilli && request.cpuMilli <= cpuMilli && request.memoryMib <= memoryMib;
    }

    public double gpus() {
        return gpuMilli / 1000.0;
    }
}
