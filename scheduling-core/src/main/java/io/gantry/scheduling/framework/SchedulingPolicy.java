package io.gantry.scheduling.framework;

/**
 * A scheduling policy: given the pending jobs and the cluster, which jobs start now and where.
 * The simulator and the live {@code sac-scheduler} call the very same implementation.
 */
public interface SchedulingPolicy {

    /** The registered name, as used on the command line and in every decision event. */
    String name();

    /**
     * The one entry point: what to do in this round. Placements never over-allocate a node (the room of the jobs
     * the decision stops counts as free); jobs not placed stay pending. Only running jobs whose
     * {@link RunningJob#preemptible()} flag is set may be stopped; a policy that never preempts returns
     * {@link Decision#placeOnly}.
     */
    Decision decide(SchedulingContext ctx);

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
