package io.gantry.scheduler.service;

import io.gantry.scheduler.config.LearnerConfig;
import io.gantry.scheduling.sac.WilcoxonSignedRank;

/** The learner's settings checked at start: a bad one stops the service with the key and what it must be. */
final class LearnerConfigCheck {

    private LearnerConfigCheck() {
    }

    static void validate(LearnerConfig c) {
        String p = "gantry.scheduler.learner.";
        require(c.updateInterval().toMillis() > 0, p + "update-interval must be positive, got " + c.updateInterval());
        require(c.minTransitions() >= 1, p + "min-transitions must be at least 1, got " + c.minTransitions());
        require(c.batchSize() >= 1, p + "batch-size must be at least 1, got " + c.batchSize());
        require(c.replayCapacity() >= c.batchSize(), p + "replay-capacity must be at least batch-size ("
                + c.batchSize() + "), got " + c.replayCapacity());
        require(c.inboxCapacity() >= 1, p + "inbox-capacity must be at least 1, got " + c.inboxCapacity());
        require(c.updatesPerTransition() >= 0 && Double.isFinite(c.updatesPerTransition()),
                p + "updates-per-transition must be a number >= 0, got " + c.updatesPerTransition());
        require(c.maxUpdatesPerInterval() >= 1,
                p + "max-updates-per-interval must be at least 1, got " + c.maxUpdatesPerInterval());
        require(c.updatesPerCheck() >= 1, p + "updates-per-check must be at least 1, got " + c.updatesPerCheck());
        require(c.checkMinJobs() >= 1, p + "check-min-jobs must be at least 1, got " + c.checkMinJobs());
        require(c.checkWindowJobs() >= c.checkMinJobs(), p + "check-window-jobs must be at least check-min-jobs ("
                + c.checkMinJobs() + "), got " + c.checkWindowJobs());
        require(c.checkLoad() > 0 && Double.isFinite(c.checkLoad()),
                p + "check-load must be a positive number, got " + c.checkLoad());
        require(c.checkWindows() >= 1 && c.checkWindows() <= WilcoxonSignedRank.MAX_PAIRS,
                p + "check-windows must be in [1, " + WilcoxonSignedRank.MAX_PAIRS + "], got " + c.checkWindows());
        require(c.checkMinJobs() >= c.checkWindows(), p + "check-min-jobs must be at least check-windows ("
                + c.checkWindows() + "), got " + c.checkMinJobs());
        require(c.checkAlpha() > 0 && c.checkAlpha() <= 1, p + "check-alpha must be in (0, 1], got " + c.checkAlpha());
        require(Math.pow(2, -c.checkWindows()) <= c.checkAlpha(), p + "check-windows " + c.checkWindows()
                + " can never reach check-alpha " + c.checkAlpha() + ": the smallest p-value of " + c.checkWindows()
                + " windows is 2^-" + c.checkWindows());
        require(c.checkMinImprovement() >= 0 && c.checkMinImprovement() < 1,
                p + "check-min-improvement must be in [0, 1), got " + c.checkMinImprovement());
        require(c.exploreShare() >= 0 && c.exploreShare() <= 1,
                p + "explore-share must be in [0, 1], got " + c.exploreShare());
        require(c.keepVersions() >= 1, p + "keep-versions must be at least 1, got " + c.keepVersions());
        require(!c.dataDir().isBlank(), p + "data-dir must not be blank");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
