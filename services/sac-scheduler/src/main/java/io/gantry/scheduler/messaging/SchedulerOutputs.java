package io.gantry.scheduler.messaging;

import io.gantry.events.JobFailed;
import io.gantry.events.JobRejected;
import io.gantry.events.PolicyUpdated;
import io.gantry.events.SchedulingDecision;
import io.gantry.scheduler.service.OnlineLearner;
import io.gantry.scheduler.service.SchedulerLoop;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/**
 * The scheduler's three outputs: decisions on {@code gantry.decisions}, rejections (and cancelled queued jobs) on the
 * lifecycle topic and
 * the online learner's promotions as {@code PolicyUpdated} on {@code gantry.policy.updates}.
 */
@ApplicationScoped
public class SchedulerOutputs implements SchedulerLoop.Sink, OnlineLearner.Publisher {

    private final EventIntake intake;
    private final SchedulerLoop loop;
    private final OnlineLearner learner;
    private final Emitter<String> decisions;
    private final Emitter<String> rejections;
    private final Emitter<String> policyUpdates;

    public SchedulerOutputs(EventIntake intake, SchedulerLoop loop, OnlineLearner learner,
                            @Channel("decisions") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 50_000)
                            Emitter<String> decisions,
                            @Channel("rejections") @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 50_000)
                            Emitter<String> rejections,
                            @Channel("policy-updates") Emitter<String> policyUpdates) {
        this.intake = intake;
        this.loop = loop;
        this.learner = learner;
        this.decisions = decisions;
        this.rejections = rejections;
        this.policyUpdates = policyUpdates;
    }

    void connect(@Observes StartupEvent ev) {
        loop.connect(this);
        learner.connect(this);
    }

    @Override
    public void decided(SchedulingDecision decision) {
        intake.send("decisions", decisions, Outbound.message(decision));
    }

    @Override
    public void rejected(JobRejected rejection) {
        intake.send("rejections", rejections, Outbound.message(rejection));
    }

    /** A queued job its owner cancelled, on the lifecycle topic; acks {@code cause} once written. */
    public void ended(JobFailed cancelled, Message<String> cause) {
        intake.send("rejections", rejections, Outbound.causedBy(cause, cancelled));
    }

    @Override
    public void policyUpdated(PolicyUpdated event) {
        intake.send("policy-updates", policyUpdates, Outbound.message(event));
    }
}
