package io.gantry.scheduling.engine;

import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import java.util.List;

/** How the engine reserves and frees room; the simulator's meter also integrates allocation over time. */
public interface Allocator {
    void allocate(JobRequest job, List<String> nodes);

    void release(JobRequest job, List<String> nodes);

    /** Allocates on the cluster (which refuses over-allocation); releases only on nodes it still has. */
    static Allocator of(ClusterState cluster) {
        return new Allocator() {
            @Override
            public void allocate(JobRequest job, List<String> nodes) {
                for (String n : nodes) {
                    cluster.allocate(n, job.perTask());
                }
            }

            @Override
            public void release(JobRequest job, List<String> nodes) {
                for (String n : nodes) {
                    if (cluster.hasNode(n)) {
                        cluster.release(n, job.perTask());
                    }
                }
            }
        };
    }
}
