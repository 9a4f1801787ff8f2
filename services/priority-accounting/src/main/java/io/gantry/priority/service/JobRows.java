package io.gantry.priority.service;

import io.gantry.priority.persistence.JobRun;
import io.gantry.priority.persistence.ProcessedEvent;
import io.gantry.priority.persistence.WaitingJob;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows a batch of events can touch, read with three queries before the batch is applied, and kept current as it
 * is: which of its event ids were processed already, and its jobs' waiting and stint rows. Looking each up per event
 * cost a query apiece, most of them for rows that do not exist (a new job has neither), and the ledger writer spent
 * most of its time in them. Only valid inside the transaction that loaded it.
 */
final class JobRows {

    private final Set<String> processed;
    private final Map<String, WaitingJob> waiting = new HashMap<>();
    private final Map<String, JobRun> runs = new HashMap<>();

    private JobRows(Set<String> processed) {
        this.processed = processed;
    }

    /** Reads the rows of {@code eventIds} and {@code jobIds} in the open transaction. */
    static JobRows load(Collection<String> eventIds, Collection<String> jobIds) {
        JobRows rows = new JobRows(new HashSet<>(ProcessedEvent.<ProcessedEvent>list("eventId in ?1", eventIds)
                .stream().map(p -> p.eventId).toList()));
        List<WaitingJob> w = WaitingJob.list("jobId in ?1", jobIds);
        w.forEach(j -> rows.waiting.put(j.jobId, j));
        List<JobRun> r = JobRun.list("jobId in ?1", jobIds);
        r.forEach(j -> rows.runs.put(j.jobId, j));
        return rows;
    }

    boolean processed(String eventId) {
        return processed.contains(eventId);
    }

    void markProcessed(ProcessedEvent p) {
        p.persist();
        processed.add(p.eventId);
    }

    WaitingJob waiting(String jobId) {
        return waiting.get(jobId);
    }

    void startWaiting(WaitingJob w) {
        w.persist();
        waiting.put(w.jobId, w);
    }

    /** True when the job was waiting. */
    boolean stopWaiting(String jobId) {
        WaitingJob w = waiting.remove(jobId);
        if (w == null) {
            return false;
        }
        w.delete();
        return true;
    }

    JobRun run(String jobId) {
        return runs.get(jobId);
    }

    void newRun(JobRun r) {
        r.persist();
        runs.put(r.jobId, r);
    }
}
