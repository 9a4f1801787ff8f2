package io.gantry.scheduling.sac;

import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.policy.PolicyProvider;
import java.io.IOException;

/**
 * Registers {@code sac} with the core's PolicyRegistry: the configured checkpoint ({@link SacConfig}), else the shipped
 * one; frozen, or learning as it replays when {@link SacConfig#replayLearningUpdates()} is above 0 (then each policy
 * gets its own fresh copy of the checkpoint, so one replay's learning never leaks into the next).
 */
public final class SacPolicyProvider implements PolicyProvider {

    /** Seed of the learning copy's batch sampling: the same replay learns the same way. */
    private static final long REPLAY_LEARNING_SEED = 1;

    @Override
    public String name() {
        return SacPolicy.NAME;
    }

    @Override
    public SchedulingPolicy create() {
        SacConfig config = SacConfig.current();
        if (config.replayLearningUpdates() > 0) {
            try {
                return new LearningReplayPolicy(SacCheckpoint.load(config.checkpoint()), config.replayLearningUpdates(),
                        REPLAY_LEARNING_SEED);
            } catch (IOException | RuntimeException | LinkageError e) {
                return SacPolicy.fromConfiguredCheckpoint(); // fails the same way, and says why
            }
        }
        return SacPolicy.fromConfiguredCheckpoint();
    }
}
