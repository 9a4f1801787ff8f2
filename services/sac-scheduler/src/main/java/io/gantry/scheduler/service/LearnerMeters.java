package io.gantry.scheduler.service;

import io.gantry.scheduling.sac.LiveExploration;
import io.gantry.scheduling.sac.Transition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.function.ToLongFunction;

/** What the online learner reports: its counters, and the gauges' last values (written by the learner thread). */
final class LearnerMeters {

    final Counter updates;
    final Counter transitions;
    final Counter promotions;
    final Counter rejections;
    volatile double criticLoss = Double.NaN;
    volatile double actorLoss = Double.NaN;
    volatile double alpha = Double.NaN;
    volatile double reward = Double.NaN;
    volatile int policyVersion;
    /** The last replay check's p-value and relative gain (NaN before the first). */
    volatile double checkPValue = Double.NaN;
    volatile double checkImprovement = Double.NaN;
    /** Live exploration, once learning has started; its counts are the decisions' own. */
    volatile LiveExploration exploration;

    LearnerMeters(MeterRegistry r) {
        updates = Counter.builder("gantry.sac.learner.updates").description("Gradient steps taken online").register(r);
        transitions = Counter.builder("gantry.sac.learner.transitions")
                .description("Transitions made from live decisions and lifecycle events").register(r);
        promotions = Counter.builder("gantry.sac.promotions").description("Versions promoted by the replay check")
                .register(r);
        rejections = Counter.builder("gantry.sac.promotion.rejections")
                .description("Candidates that lost the replay check").register(r);
        Gauge.builder("gantry.sac.learner.critic.loss", this, m -> m.criticLoss)
                .description("Critic loss of the last gradient step").register(r);
        Gauge.builder("gantry.sac.learner.actor.loss", this, m -> m.actorLoss)
                .description("Actor loss of the last gradient step").register(r);
        Gauge.builder("gantry.sac.learner.alpha", this, m -> m.alpha)
                .description("Entropy temperature of the trained candidate").register(r);
        Gauge.builder("gantry.sac.learner.reward", this, m -> m.reward)
                .description("Mean reward of the transitions taken in during the last interval that had any")
                .register(r);
        Gauge.builder("gantry.sac.policy.version", this, m -> m.policyVersion)
                .description("Number N of the version sac-N that decides").register(r);
        Gauge.builder("gantry.sac.promotion.check.p.value", this, m -> m.checkPValue)
                .description("p-value of the last replay check's signed-rank test").register(r);
        Gauge.builder("gantry.sac.promotion.check.improvement", this, m -> m.checkImprovement)
                .description("Relative gain in mean window JCT of the last checked candidate (negative: worse)")
                .register(r);
        FunctionCounter.builder("gantry.sac.exploration.decisions", this,
                        m -> count(m.exploration, LiveExploration::decisions))
                .description("Live decisions of the learning policy").register(r);
        FunctionCounter.builder("gantry.sac.exploration.explored", this,
                        m -> count(m.exploration, LiveExploration::explored))
                .description("Live decisions that sampled from the policy instead of taking its best candidate")
                .register(r);
        FunctionCounter.builder("gantry.sac.exploration.barred", this,
                        m -> count(m.exploration, LiveExploration::barred))
                .description("Live decisions drawn for exploration but kept greedy: they start a not-preemptible job")
                .register(r);
    }

    /** Counts transitions taken in, and keeps their mean reward (an interval without any leaves it as it was). */
    void tookIn(List<Transition> fresh) {
        if (fresh.isEmpty()) {
            return;
        }
        transitions.increment(fresh.size());
        reward = fresh.stream().mapToDouble(Transition::reward).average().orElseThrow();
    }

    private static double count(LiveExploration e, ToLongFunction<LiveExploration> count) {
        return e == null ? 0 : count.applyAsLong(e);
    }
}
