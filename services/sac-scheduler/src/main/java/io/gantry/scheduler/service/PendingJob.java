package io.gantry.scheduler.service;

import io.gantry.events.JobTuned;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;

/** A tuned job waiting in the queue. */
record PendingJob(JobTuned job) {

    Resources perTask() {
        return new Resources(job.perTask().gpuMilli(), job.perTask().cpuMilli(), job.perTask().memoryMib());
    }

    /** What the policy sees: submit time in epoch seconds, no true duration (a live policy never knows it). */
    JobRequest toRequest(double priority) {
        double submitted = job.submittedAt().getEpochSecond() + job.submittedAt().getNano() / 1e9;
        double predicted = job.predictedDurationS() == null ? Double.NaN : job.predictedDurationS();
        return new JobRequest(job.jobId(), job.user(), job.tasks(), perTask(), submitted, priority, predicted, Double.NaN);
    }
}
