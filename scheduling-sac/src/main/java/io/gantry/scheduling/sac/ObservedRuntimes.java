package io.gantry.scheduling.sac;

import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The run times a policy has seen its users' jobs take, read off its own rounds (issue 20, item 3: "observed
 * since"): a job that ran in one round and is neither running nor pending in a later one has ended. A stopped job is
 * pending again and is not an end. Per user, the last {@value #MEMORY} ends are kept with the duration that was
 * predicted for the job at submission, so that the policy can see both how long a user's jobs run and how far they
 * outlive their predictions — which a heuristic that reads one prediction per job cannot.
 *
 * <p>How long an ended job ran: its {@link JobRequest#trueDurationS() run time} where the caller knows it (the
 * simulator, which knows it once the job has ended, as a live scheduler reads it off the job's terminal event; it is
 * read for no job that has not ended), else its attained GPU-seconds ÷ its GPUs with its last stint taken to have
 * lasted until the round that found it gone. The engine holds no round while nothing waits, so that round can come
 * long after the end; the estimate is then too long, which is why the simulator's run time is preferred.
 */
final class ObservedRuntimes {

    /** Ends kept per user: as many as the history predictor averages. */
    static final int MEMORY = 10;

    private record Seen(JobRequest job, double attainedGpuS, double at) {
    }

    /** One end: ln(1 + run s), and ln((1 + run s) ÷ (1 + predicted s)) or NaN without a prediction. */
    private record End(double logRunS, double logOutlived) {
    }

    /** What the policy has seen of one user's jobs; zeros when it has seen none end. */
    record UserHistory(int ends, double meanLogRunS, double meanLogOutlived) {
        static final UserHistory NONE = new UserHistory(0, 0, 0);
    }

    private final Map<String, Seen> running = new HashMap<>();
    private final Map<String, ArrayDeque<End>> byUser = new HashMap<>();

    /** Reads one round's view: records the jobs that ended since the last, then remembers what runs now. */
    void observe(SchedulingContext ctx) {
        double now = ctx.now();
        Set<String> stillThere = new HashSet<>();
        for (RunningJob r : ctx.running()) {
            stillThere.add(r.job().id());
        }
        for (JobRequest j : ctx.pending()) {
            stillThere.add(j.id());
        }
        for (Iterator<Map.Entry<String, Seen>> it = running.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Seen> e = it.next();
            if (!stillThere.contains(e.getKey())) {
                ended(e.getValue(), now);
            }
            it.remove();
        }
        for (RunningJob r : ctx.running()) {
            JobRequest j = r.job();
            if (j.gpus() > 0) {
                running.put(j.id(), new Seen(j, r.attainedGpuSecondsAt(now), now));
            }
        }
    }

    /** {@code s} was found gone at {@code now}. */
    private void ended(Seen s, double now) {
        JobRequest j = s.job();
        double runS = j.trueDurationS() >= 0 ? j.trueDurationS()
                : (s.attainedGpuS() + Math.max(0, now - s.at()) * j.gpus()) / j.gpus();
        double logRun = Math.log1p(runS);
        double outlived = j.predictedDurationS() >= 0 ? logRun - Math.log1p(j.predictedDurationS()) : Double.NaN;
        ArrayDeque<End> ends = byUser.computeIfAbsent(j.user(), u -> new ArrayDeque<>());
        ends.addLast(new End(logRun, outlived));
        if (ends.size() > MEMORY) {
            ends.removeFirst();
        }
    }

    /** The user's last ends, averaged. */
    UserHistory of(String user) {
        ArrayDeque<End> ends = byUser.get(user);
        if (ends == null || ends.isEmpty()) {
            return UserHistory.NONE;
        }
        double run = 0;
        double outlived = 0;
        int predicted = 0;
        for (End e : ends) {
            run += e.logRunS();
            if (!Double.isNaN(e.logOutlived())) {
                outlived += e.logOutlived();
                predicted++;
            }
        }
        return new UserHistory(ends.size(), run / ends.size(), predicted > 0 ? outlived / predicted : 0);
    }
}
