package io.gantry.scheduling.gpushare;

/** Where a fragmentation-aware scorer gets its target workload: fixed in advance, or learned from arrivals. */
public interface WorkloadSource {

    TargetWorkload current();

    /** Changes whenever {@link #current} does. */
    long epoch();

    void arrived(GpuPod pod);

    /** The FGD paper's setting: the typical pods of the whole pod list, known before the first arrival. */
    static WorkloadSource fixed(TargetWorkload w) {
        return new WorkloadSource() {
            @Override
            public TargetWorkload current() {
                return w;
            }

            @Override
            public long epoch() {
                return 0;
            }

            @Override
            public void arrived(GpuPod pod) {
            }
        };
    }
}
