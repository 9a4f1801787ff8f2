package io.gantry.scheduling.sac;

/**
 * Hyper-parameters of the agent and the reward, all written into a checkpoint's metadata.
 *
 * @param windowJobs        pending jobs offered per decision (K)
 * @param nodesPerJob       node classes offered per job
 * @param hidden            width of the two hidden layers of every network
 * @param gamma             discount per decision
 * @param tau               Polyak factor of the target critics
 * @param learningRate      Adam step of actor and critics
 * @param alphaLearningRate step of log α
 * @param initialAlpha      entropy temperature at the start
 * @param targetEntropyRatio target entropy = this × ln(valid candidates) of each state, since their number varies
 * @param batchSize         transitions per gradient step
 * @param replayCapacity    transitions kept (oldest dropped)
 * @param rewardScaleJobSeconds the main reward −(jobs in system) × Δt is divided by this, to keep Q values near 1
 * @param balanceWeight     weight of the optional balance term −w × (node GPU-allocation CV) × Δt ÷ scale; 0 = off
 * @param fairnessWeight    weight of the optional fairness term −w × (1 − Jain over tenants of pending jobs' waits)
 *                          × Δt ÷ scale; 0 = off
 * @param priorWeight       sharpness of the heuristic prior in the actor's logits ({@link Features}): the job part is
 *                          −priorWeight × ln(1 + urgency ÷ 60 GPU-s); 0 = no prior (a plain learned actor)
 * @param residualBound     the learned correction added to the prior logit is residualBound × tanh(network), so
 *                          learning can reorder jobs whose prior urgencies differ by less than a factor
 *                          exp(2 × residualBound ÷ priorWeight), and no more
 * @param extendedFeatures  true: each candidate also carries {@link Features#EXTRA_NAMES} (queue composition and the
 *                          run times the policy saw its users' jobs take); false: {@link Features#NAMES} only, as every
 *                          checkpoint before them
 */
public record SacSettings(int windowJobs, int nodesPerJob, int hidden, double gamma, double tau, double learningRate,
                          double alphaLearningRate, double initialAlpha, double targetEntropyRatio, int batchSize,
                          int replayCapacity, double rewardScaleJobSeconds, double balanceWeight, double fairnessWeight,
                          double priorWeight, double residualBound, boolean extendedFeatures) {

    public static final double DEFAULT_PRIOR_WEIGHT = 2.0;
    public static final double DEFAULT_RESIDUAL_BOUND = 0.25;

    public static final SacSettings DEFAULT = new SacSettings(8, 4, 64, 0.99, 0.005, 3e-4, 3e-4, 0.2, 0.3, 64,
            20_000, 100.0 * 3600, 0, 0, DEFAULT_PRIOR_WEIGHT, DEFAULT_RESIDUAL_BOUND);

    public SacSettings {
        if (!(residualBound > 0)) {
            throw new IllegalArgumentException("residualBound must be > 0, got " + residualBound);
        }
    }

    /** The settings with the base features only. */
    public SacSettings(int windowJobs, int nodesPerJob, int hidden, double gamma, double tau, double learningRate,
                       double alphaLearningRate, double initialAlpha, double targetEntropyRatio, int batchSize,
                       int replayCapacity, double rewardScaleJobSeconds, double balanceWeight, double fairnessWeight,
                       double priorWeight, double residualBound) {
        this(windowJobs, nodesPerJob, hidden, gamma, tau, learningRate, alphaLearningRate, initialAlpha,
                targetEntropyRatio, batchSize, replayCapacity, rewardScaleJobSeconds, balanceWeight, fairnessWeight,
                priorWeight, residualBound, false);
    }

    /** The settings without the prior's two parameters, which then take their defaults. */
    public SacSettings(int windowJobs, int nodesPerJob, int hidden, double gamma, double tau, double learningRate,
                       double alphaLearningRate, double initialAlpha, double targetEntropyRatio, int batchSize,
                       int replayCapacity, double rewardScaleJobSeconds, double balanceWeight, double fairnessWeight) {
        this(windowJobs, nodesPerJob, hidden, gamma, tau, learningRate, alphaLearningRate, initialAlpha,
                targetEntropyRatio, batchSize, replayCapacity, rewardScaleJobSeconds, balanceWeight, fairnessWeight,
                DEFAULT_PRIOR_WEIGHT, DEFAULT_RESIDUAL_BOUND);
    }

    /** These settings with another bound on the learned correction. */
    public SacSettings withResidualBound(double bound) {
        return new SacSettings(windowJobs, nodesPerJob, hidden, gamma, tau, learningRate, alphaLearningRate, initialAlpha,
                targetEntropyRatio, batchSize, replayCapacity, rewardScaleJobSeconds, balanceWeight, fairnessWeight,
                priorWeight, bound, extendedFeatures);
    }

    /** These settings with another reward scale (job-seconds per unit of reward). */
    public SacSettings withRewardScale(double jobSeconds) {
        if (!(jobSeconds > 0)) {
            throw new IllegalArgumentException("rewardScaleJobSeconds must be > 0, got " + jobSeconds);
        }
        return new SacSettings(windowJobs, nodesPerJob, hidden, gamma, tau, learningRate, alphaLearningRate, initialAlpha,
                targetEntropyRatio, batchSize, replayCapacity, jobSeconds, balanceWeight, fairnessWeight, priorWeight,
                residualBound, extendedFeatures);
    }

    /** These settings with or without the extra features. */
    public SacSettings withExtendedFeatures(boolean extended) {
        return new SacSettings(windowJobs, nodesPerJob, hidden, gamma, tau, learningRate, alphaLearningRate, initialAlpha,
                targetEntropyRatio, batchSize, replayCapacity, rewardScaleJobSeconds, balanceWeight, fairnessWeight,
                priorWeight, residualBound, extended);
    }

    /** Features per candidate: the width of every network's input. */
    public int featureCount() {
        return features().count();
    }

    public Features features() {
        return new Features(windowJobs, nodesPerJob, priorWeight, extendedFeatures);
    }
}
