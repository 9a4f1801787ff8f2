package io.gantry.dispatcher.simulated;

import io.gantry.events.SchedulingDecision;
import io.gantry.events.TrainingSpec;

/** Where the simulated cluster learns whether a decided job trains for real ({@code training} on its {@code JobTuned}). */
public interface TrainingSpecSource {

    /** The job's training spec, or null for a trace job. May wait a bounded time for the spec to be read. */
    TrainingSpec specFor(SchedulingDecision decision);

    /** The job's spec if already known, without waiting. */
    TrainingSpec knownSpec(String jobId);

    /** No real jobs: every job is a trace job. */
    TrainingSpecSource NONE = new TrainingSpecSource() {
        @Override
        public TrainingSpec specFor(SchedulingDecision decision) {
            return null;
        }

        @Override
        public TrainingSpec knownSpec(String jobId) {
            return null;
        }
    };
}
