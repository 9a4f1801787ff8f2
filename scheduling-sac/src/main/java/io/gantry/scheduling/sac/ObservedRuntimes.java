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
 * since"): a job that ran in one round and is neither running nor pending in a later one has finished, having run
 * its attained GPU-seconds ÷ its GPUs (its last stint taken to last until the later round; a round follows every end
 * in the simulator and the live scheduler, so that is when it ended). A stopped job is pending again and is not an
 * end. Per user, the last {@value #MEMORY} ends are kept with the duration that was predicted for the job at
 * submission, so that the policy can see both how long a user's jobs run and how far they outlive their predictions
 * — which a heuristic that reads one prediction per job cannot. Nothing here reads a true duration.
 */
final class ObservedRuntimes {

    /** Ends kept per user: as many as the history predictor averages. */
    static final int MEMORY = 10;

    private record Seen(String user, double gpus, double predictedS, double attainedGpuS, double at) {
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
                Seen s = e.getValue();
                ended(s, (s.attainedGpuS() + Math.max(0, now - s.at()) * s.gpus()) / s.gpus());
            }
            it.remove();
        }
        for (RunningJob r : ctx.running()) {
            JobRequest j = r.job();
            if (j.gpus() > 0) {
                running.put(j.id(), new Seen(j.user(), j.gpus(), j.predictedDurationS(), r.attainedGpuSecondsAt(now), now));
            }
        }
    }

    private void ended(Seen s, double runS) {
        double logRun = Math.log1p(runS);
        double outlived = s.predictedS() >= 0 ? logRun - Math.log1p(s.predictedS()) : Double.NaN;
        ArrayDeque<End> ends = byUser.computeIfAbsent(s.user(), u -> new ArrayDeque<>());
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
