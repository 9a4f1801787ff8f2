package io.gantry.scheduling.framework;

import java.util.List;

/**
 * A scheduling policy: given the pending jobs and the cluster, which jobs start now and where.
 * The simulator and the live {@code sac-scheduler} call the very same implementation.
 */
public interface SchedulingPolicy {

    /** The registered name, as used on the command line and in every decision event. */
    String name();

    /**
     * Placements to apply now; jobs not named stay pending. Placements never over-allocate a node
     * and never assume that a running job is stopped.
     */
    List<Placement> schedule(SchedulingContext ctx);

    /**
     * The full decision, preemptions included. Policies that never preempt keep this default; a caller
     * that can stop jobs (the simulator) calls this instead of {@link #schedule}.
     */
    default Decision decide(SchedulingContext ctx) {
        return Decision.placeOnly(schedule(ctx));
    }

    /**
     * True when a job that does not fit never holds back a later one, and a round only ever tries
     * each pending job once against what is left. The simulator then knows that, while nothing has
     * been released, a round need only look at newly arrived jobs: every older job already failed to
     * fit in at least as much free space. Preemptive or head-of-line-blocking policies return false.
     */
    default boolean skipsJobsThatDoNotFit() {
        return false;
    }
}
