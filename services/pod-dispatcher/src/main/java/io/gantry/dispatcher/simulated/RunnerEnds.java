package io.gantry.dispatcher.simulated;

import io.gantry.dispatcher.cluster.JobEvents;

/** How a real job's runner ended, told to the simulated cluster, which ends the stint and reports it to {@code events}. */
record RunnerEnds(SimulatedCluster cluster, JobEvents events) implements RealJobProcesses.Ended {

    @Override
    public void completed(RunningJob job) {
        cluster.completeReal(job, events);
    }

    @Override
    public void failed(RunningJob job, String reason, boolean oomKilled) {
        cluster.failReal(job, events, reason, oomKilled);
    }
}
