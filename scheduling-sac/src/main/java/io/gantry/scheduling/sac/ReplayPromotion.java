package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The live learner's promotion, inside a replay ({@code gantry adapt}): a frozen copy of the trained agent decides,
 * and every {@code checkEvery} completed jobs the agent in training is judged against it by {@link PromotionGate} on
 * the last {@code checkJobs} completed jobs, exactly as {@code sac-scheduler}'s learner judges a candidate; a
 * candidate that passes is copied and decides from then on.
 *
 * <p>It also checks the gate's promise. At the check after a promotion, before anything else, the promoted version
 * and the one it replaced are replayed on the new check set (jobs completed since, mostly): a promoted version whose
 * mean window JCT there is higher than its predecessor's is a {@link FollowUp#worse() worse} follow-up, the count
 * issue 20 asks to be 0.
 */
public final class ReplayPromotion implements AutoCloseable {

    /**
     * One gate decision.
     *
     * @param completedJobs jobs completed in the replay when it was made
     * @param atS           simulated time of the round that made it
     * @param current       the version in charge, "v0" the checkpoint
     * @param result        the gate's figures and decision
     */
    public record Check(int completedJobs, double atS, String current, PromotionGate.Result result) {
    }

    /** A promoted version against the one it replaced, on the next check set. */
    public record FollowUp(String promoted, String replaced, double atS, double promotedAvgJctS,
                           double replacedAvgJctS) {

        public boolean worse() {
            return promotedAvgJctS > replacedAvgJctS;
        }
    }

    private final List<NodeSpec> nodes;
    private final double load;
    private final PromotionGate.Settings settings;
    private final int checkEvery;
    private final int checkJobs;
    private final Deque<JobRequest> recent = new ArrayDeque<>();
    private final List<Check> checks = new ArrayList<>();
    private final List<FollowUp> followUps = new ArrayList<>();
    private int completed;
    private int sinceCheck;
    private int version;
    private SacAgent current;
    /** The version the last promotion replaced, until its follow-up. */
    private SacAgent replaced;

    /**
     * @param first      the version in charge at the start (a copy is kept: the caller's agent is trained)
     * @param load       offered load the check windows are rescaled to
     * @param checkEvery completed jobs between two checks, ≥ 1
     * @param checkJobs  the check set: this many last completed jobs, at least {@code settings.windows()}
     */
    public ReplayPromotion(SacAgent first, List<NodeSpec> nodes, double load, PromotionGate.Settings settings,
                           int checkEvery, int checkJobs) {
        if (checkEvery < 1) {
            throw new IllegalArgumentException("checkEvery must be >= 1, got " + checkEvery);
        }
        if (checkJobs < settings.windows()) {
            throw new IllegalArgumentException("checkJobs " + checkJobs + " cannot fill " + settings.windows()
                    + " windows");
        }
        this.nodes = List.copyOf(nodes);
        this.load = load;
        this.settings = settings;
        this.checkEvery = checkEvery;
        this.checkJobs = checkJobs;
        this.current = first.copy();
    }

    /** The version that decides now. */
    public SacAgent current() {
        return current;
    }

    /** "v0" for the starting checkpoint, "vN" after N promotions. */
    public String currentName() {
        return "v" + version;
    }

    public List<Check> checks() {
        return List.copyOf(checks);
    }

    public List<FollowUp> followUps() {
        return List.copyOf(followUps);
    }

    public int promotions() {
        return version;
    }

    /**
     * Takes in jobs that completed since the last round (in completion order) and checks when due.
     *
     * @param trainee the agent in training, judged as the candidate
     * @return whether a promotion changed {@link #current()}
     */
    public boolean completed(List<JobRequest> ended, double now, SacAgent trainee) {
        for (JobRequest j : ended) {
            recent.addLast(j);
            if (recent.size() > checkJobs) {
                recent.removeFirst();
            }
        }
        completed += ended.size();
        sinceCheck += ended.size();
        if (sinceCheck < checkEvery || recent.size() < checkJobs) {
            return false;
        }
        sinceCheck = 0;
        List<JobRequest> checkSet = List.copyOf(recent);
        if (replaced != null) {
            PromotionGate.Result again = PromotionGate.check(current, replaced, checkSet, nodes, load, settings);
            followUps.add(new FollowUp(currentName(), "v" + (version - 1), now, again.candidateAvgJctS(),
                    again.currentAvgJctS()));
            replaced.close();
            replaced = null;
        }
        PromotionGate.Result r = PromotionGate.check(trainee, current, checkSet, nodes, load, settings);
        checks.add(new Check(completed, now, currentName(), r));
        if (!r.promote()) {
            return false;
        }
        replaced = current;
        current = trainee.copy();
        version++;
        return true;
    }

    @Override
    public void close() {
        current.close();
        if (replaced != null) {
            replaced.close();
        }
    }
}
