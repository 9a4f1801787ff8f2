package io.gantry.tuner.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobSubmitted;
import io.gantry.events.JobTuned;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * Decides what a job will ask the scheduler for. No tuning model is enabled yet, so every job passes through
 * exactly as submitted, and the event says so: a reader of {@code JobTuned} never has to guess whether the
 * tuner looked at a job.
 */
@ApplicationScoped
public class JobTuner {

    static final String PASS_THROUGH = "passed through unchanged: no tuning model is enabled";
    static final String NOT_TUNED = "passed through unchanged: the submitter switched tuning off";

    public JobTuned tune(JobSubmitted job) {
        String summary = job.tuningOrDefault().enabled() ? PASS_THROUGH : NOT_TUNED;
        return new JobTuned(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), job.jobId(), job.user(),
                job.jobName(), job.model(), job.occurredAt(), job.tasks(), job.perTask(), job.batchSize(),
                job.epochs(), job.durationS(), null, List.of(), summary);
    }
}
