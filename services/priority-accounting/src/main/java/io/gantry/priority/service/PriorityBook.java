package io.gantry.priority.service;

import io.gantry.events.UserPriority;
import io.gantry.priority.config.PriorityConfig;
import io.gantry.priority.mapping.Priorities;
import io.gantry.priority.persistence.JobRun;
import io.gantry.priority.persistence.PriorityRecord;
import io.gantry.priority.persistence.UsageInterval;
import io.gantry.priority.persistence.UserAccount;
import io.gantry.priority.persistence.WaitingJob;
import io.gantry.scheduling.fairness.DynamicPriority;
import io.gantry.scheduling.fairness.FairShareLedger;
import io.gantry.scheduling.fairness.JainIndex;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every user's dynamic priority, from the same model the simulator uses ({@link FairShareLedger} +
 * {@link DynamicPriority} in scheduling-core). The database is the truth; this is its in-memory image, rebuilt by
 * {@link #reload} at start-up and kept current by {@link #applied} after each committed event.
 */
@ApplicationScoped
public class PriorityBook {

    /** A user's place in the fair-share picture now. */
    public record UserFairness(String user, double basePriority, double weight, double decayedGpuSeconds,
                               double usageShare, double entitlementShare, double normalisedShare,
                               double priority, int waitingJobs, double longestWaitS, boolean starving) {
    }

    /** The cluster-wide picture for {@code GET /fairness}. */
    public record Fairness(Instant at, double jainIndex, List<UserFairness> users, List<String> starving) {
    }

    private final PriorityConfig config;
    private final AccountingStore store;
    private final DynamicPriority model;
    private final PriorityMeters meters;
    private FairShareLedger ledger;
    private final Map<String, UserAccount> users = new TreeMap<>();
    private final Map<String, Double> lastPublished = new HashMap<>();
    private final Map<String, WaitingJob> waiting = new HashMap<>();

    public PriorityBook(PriorityConfig config, AccountingStore store, PriorityMeters meters) {
        this.config = config;
        this.store = store;
        this.meters = meters;
        this.model = new DynamicPriority(config.fairShareWeight());
    }

    /** Replaces the in-memory state with what the database holds. */
    public synchronized void reload() {
        for (String name : config.users().keySet()) {
            store.ensureUser(name);
        }
        AccountingStore.Snapshot s = store.load();
        ledger = new FairShareLedger(config.usageHalfLife().toMillis() / 1000.0);
        users.clear();
        s.users().forEach(u -> users.put(u.name, u));
        for (UsageInterval i : s.intervals()) {
            double gpus = i.seconds() > 0 ? i.gpuSeconds / i.seconds() : 0;
            ledger.charge(i.userName, gpus, AccountingStore.seconds(i.intervalStart),
                    AccountingStore.seconds(i.intervalEnd));
        }
        for (JobRun r : s.running()) {
            ledger.startRunning(r.userName, r.gpus(), AccountingStore.seconds(r.startedAt));
        }
        waiting.clear();
        s.waiting().forEach(w -> waiting.put(w.jobId, w));
        lastPublished.clear();
        s.lastPublished().forEach(p -> lastPublished.put(p.userName, p.priority));
    }

    /** Applies a change the database has committed. */
    public synchronized void applied(LedgerChange change) {
        if (!users.containsKey(change.user())) {
            store.user(change.user()).ifPresent(u -> users.put(u.name, u));
        }
        if (change instanceof LedgerChange.Started s) {
            ledger.startRunning(s.user(), s.gpus(), s.startS());
        } else if (change instanceof LedgerChange.Stopped s) {
            ledger.stopRunning(s.user(), s.gpus(), s.startS(), s.stopS());
        }
        // Only this event's job can have started or stopped waiting.
        if (change.waiting() != null) {
            waiting.put(change.jobId(), change.waiting());
        } else {
            waiting.remove(change.jobId());
        }
        meters.eventApplied();
    }

    public double halfLifeS() {
        return config.usageHalfLife().toMillis() / 1000.0;
    }

    /** A user created or changed through the admin API. */
    public synchronized void userChanged(UserAccount u) {
        users.put(u.name, u);
    }

    public synchronized Map<String, DynamicPriority.Assessment> assess(Instant at) {
        Map<String, Double> bases = new HashMap<>();
        Map<String, Double> weights = new HashMap<>();
        users.values().forEach(u -> {
            bases.put(u.name, u.basePriority);
            weights.put(u.name, u.weight);
        });
        return model.assess(ledger, AccountingStore.seconds(at), bases, weights, config.defaultBasePriority(),
                config.defaultWeight());
    }

    /**
     * The priorities to publish at {@code at}: users never published, and users whose priority moved at least the
     * publish threshold. Each is recorded in the priority history before it is returned.
     */
    public synchronized List<UserPriority> publications(Instant at) {
        List<UserPriority> out = new ArrayList<>();
        List<PriorityRecord> history = new ArrayList<>();
        long recomputeStart = System.nanoTime();
        Map<String, DynamicPriority.Assessment> now = assess(at);
        meters.recomputed(now.values(), System.nanoTime() - recomputeStart);
        for (DynamicPriority.Assessment a : now.values()) {
            Double last = lastPublished.get(a.tenant());
            if (last != null && Math.abs(last - a.priority()) < config.publishThreshold()) {
                continue;
            }
            UserPriority p = Priorities.published(at, a);
            out.add(p);
            history.add(record(p, a));
        }
        if (!history.isEmpty()) {
            store.recordPublished(history);
            out.forEach(p -> lastPublished.put(p.user(), p.priority()));
        }
        return out;
    }

    /** Every user's last published priority. */
    public synchronized Map<String, Double> lastPublished() {
        return Map.copyOf(lastPublished);
    }

    /**
     * Shares, entitlements, Jain's index and starvation now. A user's normalised share is its decayed usage share ÷
     * its entitlement share, capped at 1; Jain's index is over the users that have work waiting or recent usage. A
     * user is starving when its oldest waiting job has waited at least {@code starving-after} while its usage share
     * is below its entitlement.
     */
    public synchronized Fairness fairness(Instant at) {
        Map<String, int[]> waitingCount = new HashMap<>();
        Map<String, Instant> oldest = new HashMap<>();
        for (WaitingJob w : waiting.values()) {
            waitingCount.computeIfAbsent(w.userName, k -> new int[1])[0]++;
            oldest.merge(w.userName, w.submittedAt, (a, b) -> a.isBefore(b) ? a : b);
        }
        List<UserFairness> rows = new ArrayList<>();
        List<Double> shares = new ArrayList<>();
        List<String> starving = new ArrayList<>();
        for (DynamicPriority.Assessment a : assess(at).values()) {
            int n = waitingCount.getOrDefault(a.tenant(), new int[1])[0];
            double waitS = n == 0 ? 0 : Math.max(0, (at.toEpochMilli() - oldest.get(a.tenant()).toEpochMilli()) / 1000.0);
            double normalised = a.entitlementShare() > 0 ? Math.min(1, a.usageShare() / a.entitlementShare()) : 1;
            boolean isStarving = n > 0 && waitS >= config.starvingAfter().toMillis() / 1000.0
                    && a.usageShare() < a.entitlementShare();
            if (n > 0 || a.decayedGpuSeconds() > 0) {
                shares.add(normalised);
            }
            if (isStarving) {
                starving.add(a.tenant());
            }
            rows.add(new UserFairness(a.tenant(), a.basePriority(), a.weight(), a.decayedGpuSeconds(), a.usageShare(),
                    a.entitlementShare(), normalised, a.priority(), n, waitS, isStarving));
        }
        return new Fairness(at, JainIndex.of(shares), rows, starving);
    }

    private static PriorityRecord record(UserPriority p, DynamicPriority.Assessment a) {
        PriorityRecord r = new PriorityRecord();
        r.id = p.eventId();
        r.userName = p.user();
        r.computedAt = p.occurredAt();
        r.basePriority = a.basePriority();
        r.weight = a.weight();
        r.decayedGpuSeconds = a.decayedGpuSeconds();
        r.usageShare = a.usageShare();
        r.entitlementShare = a.entitlementShare();
        r.fairShareFactor = a.fairShareFactor();
        r.priority = a.priority();
        r.reason = p.reason();
        return r;
    }
}
