package io.gantry.scheduler.service;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

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
    }
}
