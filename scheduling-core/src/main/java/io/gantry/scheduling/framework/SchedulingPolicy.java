package io.gantry.scheduling.framework;

import java.util.List;

/**
 * A scheduling policy: given the pending jobs and the cluster, which jobs start now and where.
 * The simulator and the live {@code sac-scheduler} call the very same implementation.
 */
public interface SchedulingPolicy {

    /** The registered name, as used on the command line and in every decision event. */
    String name();

    /** Placements to apply now; jobs not named stay pending. Placements never over-allocate a node. */
    List<Placement> schedule(SchedulingContext ctx);
}
