package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayList;
import java.util.List;

/** Helpers on the submit times of a job list. */
public final class TraceTimes {

    private TraceTimes() {
    }

    /** Shifts submit times so the earliest is 0, keeping file order. */
    public static List<JobRequest> fromZero(List<JobRequest> jobs) {
        double min = Double.POSITIVE_INFINITY;
        for (JobRequest j : jobs) {
            min = Math.min(min, j.submitTime());
        }
        if (jobs.isEmpty() || min == 0) {
            return jobs;
        }
        List<JobRequest> out = new ArrayList<>(jobs.size());
        for (JobRequest j : jobs) {
            out.add(withSubmit(j, j.submitTime() - min));
        }
        return out;
    }

    public static JobRequest withSubmit(JobRequest j, double submit) {
        return new JobRequest(j.id(), j.user(), j.tasks(), j.perTask(), submit, j.priority(), j.predictedDurationS(), j.trueDurationS());
    }
}
