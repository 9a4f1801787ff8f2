package io.gantry.priority.service;

import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobPreempted;
import io.gantry.events.JobRejected;
import io.gantry.events.JobStarted;
import io.gantry.events.JobSubmitted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.priority.config.PriorityConfig;
import io.gantry.priority.persistence.JobRun;
import io.gantry.priority.persistence.PriorityRecord;
import io.gantry.priority.persistence.ProcessedEvent;
import io.gantry.priority.persistence.UsageInterval;
import io.gantry.priority.persistence.UserAccount;
import io.gantry.priority.persistence.WaitingJob;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every write to the accounting database. Each event is applied in one transaction together with the record that
 * it was processed, so a redelivered event (same id), even after a restart, changes nothing; a stint is charged
 * only by the first event that closes it, so even a duplicate with a new id cannot charge twice.
 */
@ApplicationScoped
public class AccountingStore {

    private final PriorityConfig config;

    public AccountingStore(PriorityConfig config) {
        this.config = config;
    }

    /** An event to apply and the user it concerns. */
    public record Input(GantryEvent event, String user) {
    }

    /** Applies {@code event}; empty when it was already processed. */
    @Transactional
    public Optional<LedgerChange> apply(GantryEvent event, String user) {
        return applyAll(List.of(new Input(event, user))).get(0);
    }

    /**
     * Applies {@code inputs} in order, all in one transaction (opening and committing one per event cost more
     * than the event's own reads and writes), reading the rows they touch up front ({@link JobRows}). Each result is
     * what {@link #apply} would have returned for its input. Either all are applied or, when one fails, none is.
     */
    @Transactional
    public List<Optional<LedgerChange>> applyAll(List<Input> inputs) {
        JobRows rows = JobRows.load(inputs.stream().map(in -> in.event().eventId()).distinct().toList(),
                inputs.stream().map(in -> jobId(in.event())).distinct().toList());
        List<Optional<LedgerChange>> changes = new ArrayList<>(inputs.size());
        for (Input in : inputs) {
            changes.add(applyInOpenTransaction(in.event(), in.user(), rows));
        }
        return changes;
    }

    private static String jobId(GantryEvent event) {
        return event instanceof LifecycleEvent l ? l.jobId() : ((JobSubmitted) event).jobId();
    }

    private Optional<LedgerChange> applyInOpenTransaction(GantryEvent event, String user, JobRows rows) {
        if (rows.processed(event.eventId())) {
            return Optional.empty();
        }
        ProcessedEvent p = new ProcessedEvent();
        p.eventId = event.eventId();
        p.jobId = jobId(event);
        p.eventType = event.getClass().getSimpleName();
        p.processedAt = Instant.now();
        rows.markProcessed(p);
        ensureUser(user);
        String jobId = p.jobId;
        LedgerChange change;
        if (event instanceof JobSubmitted s) {
            change = submitted(s, rows);
        } else if (event instanceof JobStarted s) {
            change = started(s, rows);
        } else if (event instanceof JobCompleted || event instanceof JobFailed || event instanceof JobPreempted) {
            change = stopped((LifecycleEvent) event, user, rows);
        } else if (event instanceof JobRejected r) {
            rows.stopWaiting(r.jobId());
            change = new LedgerChange.Waiting(r.user(), r.jobId(), 0, null);
        } else {
            change = new LedgerChange.Nothing(user, jobId, rows.waiting(jobId));
        }
        return Optional.of(change);
    }

    private LedgerChange submitted(JobSubmitted s, JobRows rows) {
        if (rows.waiting(s.jobId()) != null || rows.run(s.jobId()) != null) {
            return new LedgerChange.Nothing(s.user(), s.jobId(), rows.waiting(s.jobId()));
        }
        WaitingJob w = WaitingJob.of(s.jobId(), s.user(), stored(s.occurredAt()));
        rows.startWaiting(w);
        return new LedgerChange.Waiting(s.user(), s.jobId(), seconds(s.occurredAt()), w);
    }

    private LedgerChange started(JobStarted s, JobRows rows) {
        JobRun run = rows.run(s.jobId());
        if (run != null && run.running) {
            // the same stint announced twice
            return new LedgerChange.Nothing(s.user(), s.jobId(), rows.waiting(s.jobId()));
        }
        boolean isNew = run == null;
        if (isNew) {
            run = new JobRun();
            run.jobId = s.jobId();
        }
        int tasks = Math.max(1, s.nodes().size());
        ResourceAmounts per = s.perTask();
        run.userName = s.user();
        run.startedAt = stored(s.occurredAt());
        run.gpuMilli = per.gpuMilli() * tasks;
        run.cpuMilli = per.cpuMilli() * tasks;
        run.memoryMib = per.memoryMib() * tasks;
        run.running = true;
        if (isNew) {
            rows.newRun(run);
        }
        rows.stopWaiting(s.jobId());
        return new LedgerChange.Started(s.user(), s.jobId(), run.gpus(), seconds(run.startedAt), null);
    }

    private LedgerChange stopped(LifecycleEvent e, String user, JobRows rows) {
        boolean wasWaiting = rows.stopWaiting(e.jobId());
        JobRun run = rows.run(e.jobId());
        if (run == null || !run.running) {
            // A job that ends without running (cancelled in the queue, or its decision refused) waits no more.
            return wasWaiting ? new LedgerChange.Waiting(user, e.jobId(), 0, null)
                    : new LedgerChange.Nothing(user, e.jobId(), null);
        }
        run.running = false;
        // A clock step backwards must not make usage negative.
        Instant end = stored(e.occurredAt()).isBefore(run.startedAt) ? run.startedAt : stored(e.occurredAt());
        UsageInterval u = new UsageInterval();
        u.id = e.eventId();
        u.userName = run.userName;
        u.jobId = run.jobId;
        u.intervalStart = run.startedAt;
        u.intervalEnd = end;
        double s = u.seconds();
        u.gpuSeconds = run.gpuMilli / 1000.0 * s;
        u.cpuSeconds = run.cpuMilli / 1000.0 * s;
        u.memoryMibSeconds = run.memoryMib * s;
        u.persist();
        WaitingJob requeued = null;
        if (e instanceof JobPreempted) {
            // Back in the queue: waiting again from now.
            requeued = WaitingJob.of(e.jobId(), run.userName, end);
            rows.startWaiting(requeued);
        }
        return new LedgerChange.Stopped(run.userName, run.jobId, run.gpus(), seconds(run.startedAt), seconds(end),
                requeued);
    }

    /** The user, created with the configured (or default) base priority and default weight when new. */
    @Transactional
    public UserAccount ensureUser(String name) {
        UserAccount u = UserAccount.findById(name);
        if (u == null) {
            u = new UserAccount();
            u.name = name;
            u.basePriority = config.users().getOrDefault(name, config.defaultBasePriority());
            u.weight = config.defaultWeight();
            u.createdAt = Instant.now();
            u.updatedAt = u.createdAt;
            u.persist();
        }
        return u;
    }

    /** Creates or updates a user; null fields of an update keep their value. */
    @Transactional
    public UserAccount upsertUser(String name, Double basePriority, Double weight, Integer maxGpus) {
        UserAccount u = ensureUser(name);
        if (basePriority != null) {
            u.basePriority = basePriority;
        }
        if (weight != null) {
            u.weight = weight;
        }
        if (maxGpus != null) {
            u.maxGpus = maxGpus;
        }
        u.updatedAt = Instant.now();
        return u;
    }

    @Transactional
    public void recordPublished(List<PriorityRecord> records) {
        records.forEach(r -> r.persist());
    }

    /** Everything the in-memory state is rebuilt from. */
    public record Snapshot(List<UserAccount> users, List<UsageInterval> intervals, List<JobRun> running,
                           List<WaitingJob> waiting, List<PriorityRecord> lastPublished) {
    }

    @Transactional
    public Snapshot load() {
        List<PriorityRecord> last = PriorityRecord.find(
                "from PriorityRecord p where p.computedAt = (select max(q.computedAt) from PriorityRecord q "
                        + "where q.userName = p.userName)").list();
        return new Snapshot(UserAccount.listAll(), UsageInterval.listAll(), JobRun.list("running", true),
                WaitingJob.listAll(), last);
    }

    @Transactional
    public Optional<UserAccount> user(String name) {
        return UserAccount.findByIdOptional(name);
    }

    @Transactional
    public List<UsageInterval> intervals(String user) {
        return UsageInterval.list("userName = ?1 order by intervalEnd", user);
    }

    @Transactional
    public List<JobRun> runningJobs(String user) {
        return JobRun.list("userName = ?1 and running = true", user);
    }

    /**
     * A time as the database keeps it (microseconds: H2's and PostgreSQL's timestamp precision), so the live
     * in-memory ledger and one rebuilt from the database after a restart compute from identical values.
     */
    static Instant stored(Instant t) {
        return t.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }

    /** An instant as the fair-share ledger's seconds (what the book charges and assesses with). */
    public static double seconds(Instant t) {
        return t.getEpochSecond() + t.getNano() / 1e9;
    }
}
