package io.gantry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Online learning of the {@code sac} policy ({@code gantry.scheduler.learner.*}); inactive under any other policy. */
@ConfigMapping(prefix = "gantry.scheduler.learner")
public interface LearnerConfig {

    /** Learn from the scheduler's own decisions and promote better versions; off keeps the loaded version for good. */
    @WithDefault("true")
    boolean enabled();

    /** How often the learner thread takes in new transitions and trains on them. */
    @WithDefault("1s")
    Duration updateInterval();

    /** Transitions in the replay buffer before the first gradient step. */
    @WithDefault("256")
    int minTransitions();

    /**
     * Transitions kept for training (oldest dropped). A transition holds a candidate set of up to ~100 candidates
     * (~8 KB), so this bounds the learner's heap: 4,000 is at most ~35 MB.
     */
    @WithDefault("4000")
    int replayCapacity();

    /**
     * Observations (decisions, arrivals, ends) waiting for the learner thread; beyond this new ones are dropped and
     * counted, so a stalled learner cannot exhaust the scheduler's heap.
     */
    @WithDefault("5000")
    int inboxCapacity();

    /** Transitions per gradient step. */
    @WithDefault("64")
    int batchSize();

    /** Gradient steps per new transition (offline training takes 0.5); with nothing new, nothing is trained. */
    @WithDefault("0.5")
    double updatesPerTransition();

    /** At most this many gradient steps per interval, so a burst of decisions cannot hog a core. */
    @WithDefault("50")
    int maxUpdatesPerInterval();

    /** Gradient steps between two replay checks of the trained candidate. */
    @WithDefault("500")
    int updatesPerCheck();

    /** Promotion check window: the replay check replays the last this-many completed jobs. */
    @WithDefault("400")
    int checkWindowJobs();

    /** No check before this many completed jobs are known: a check on a handful of jobs says nothing. */
    @WithDefault("100")
    int checkMinJobs();

    /** Offered load the check window is rescaled to (ρ), so that the order of jobs matters in the replay. */
    @WithDefault("1.0")
    double checkLoad();

    /**
     * Disjoint windows of consecutive jobs the check window is cut into, each replayed on its own through both
     * versions: the pairs of the promotion gate's signed-rank test ({@code PromotionGate}). 2^-windows must be at most
     * {@code check-alpha}; the last 400 jobs make 10 windows of 40.
     */
    @WithDefault("10")
    int checkWindows();

    /** Level of the gate's one-sided exact Wilcoxon signed-rank test: promote only at p ≤ this. */
    @WithDefault("0.05")
    double checkAlpha();

    /** The gate's floor: the candidate's mean window JCT must also be this much (relative) below the current one's. */
    @WithDefault("0.02")
    double checkMinImprovement();

    /**
     * Share of live decisions that sample from the policy instead of taking its most probable candidate, so the
     * learner sees other choices too; never for a job submitted as not preemptible ({@code LiveExploration}).
     * 0 decides greedily, as the policy does when learning is off.
     */
    @WithDefault("0.05")
    double exploreShare();

    /** Seed of the replay buffer's sampling and, split from it, of live exploration's draws. */
    @WithDefault("1")
    long seed();

    /** Where promoted versions are saved and reloaded from after a restart. */
    @WithDefault("${GANTRY_DATA_DIR:./.gantry/data}/sac-scheduler")
    String dataDir();

    /** Promoted versions kept on disk (older ones are deleted). */
    @WithDefault("5")
    int keepVersions();
}
