package io.gantry.dispatcher.service;

import io.gantry.dispatcher.cluster.BindOutcome;
import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.JobEvents;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCancelRequested;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.Preemption;
import io.gantry.events.SchedulingDecision;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Carries out scheduling decisions on the selected cluster and announces the job's life: {@link JobStarted}
 * when it runs, {@link JobCompleted} or {@link JobFailed} when it ends, or {@link JobFailed} at once when the
 * decision cannot be carried out. A decision's preemptions are carried out before it is bound, and each stopped job
 * is announced {@link io.gantry.events.JobPreempted}. Event times ({@code occurredAt}) are wall-clock.
 */
@ApplicationScoped
public class Dispatcher implements JobEvents {

    private static final Logger LOG = Logger.getLogger(Dispatcher.class);

    private final ClusterBackend cluster;
    private final LifecycleSink sink;
    private final DispatcherMetrics metrics;

    public Dispatcher(ClusterBackend cluster, LifecycleSink sink, DispatcherMetrics metrics) {
        this.cluster = cluster;
        this.sink = sink;
        this.metrics = metrics;
    }

    /**
     * Dispatches {@code decision}; its message {@code cause} is acknowledged once the resulting event is
     * written. Returns false, announcing nothing, when there is nothing to wait for (the caller acks): the job
     * was decided before, its pods are gone, or the cluster will report its start later.
     */
    public boolean dispatch(SchedulingDecision decision, Message<?> cause) {
        for (Preemption victim : decision.preempts()) {
            preempt(victim, decision);
        }
        BindOutcome outcome = cluster.bind(decision);
        if (outcome instanceof BindOutcome.AlreadyDecided) {
            metrics.duplicate();
            LOG.infof("ignoring decision %s: job %s was already dispatched", decision.eventId(), decision.jobId());
            return false;
        }
        if (outcome instanceof BindOutcome.NothingToBind nothing) {
            metrics.nothingToBind();
            LOG.infof("decision %s for job %s changes nothing: %s", decision.eventId(), decision.jobId(),
                    nothing.reason());
            return false;
        }
        if (outcome instanceof BindOutcome.Refused refused) {
            metrics.failed(refused.cause());
            LOG.warnf("job %s cannot run as decided by %s %s: %s", decision.jobId(), decision.policy(),
                    decision.policyVersion(), refused.reason());
            sink.announce(new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), decision.jobId(),
                    decision.user(), decision.nodes(), decision.perTask(), refused.reason(), false), cause);
            return true;
        }
        Instant now = Instant.now();
        metrics.bound(Duration.between(decision.occurredAt(), now));
        if (!cluster.startsOnBind()) {
            // The binding is on the API server: that, not the topic, is what a restart resumes from.
            cluster.run(decision, this);
            return false;
        }
        sink.announce(new JobStarted(Events.newId(), GantryEvent.SCHEMA_VERSION, now, decision.jobId(),
                decision.user(), decision.nodes(), decision.perTask(), decision.submittedAt(),
                decision.policyVersion(), decision.attempt()), cause);
        metrics.started();
        cluster.run(decision, this);
        return true;
    }

    /**
     * Carries out the owner's cancel request; true when a stopped stint's {@code JobFailed} is announced (it acks
     * {@code cause} once written), false when there was nothing running to stop (the caller acks).
     */
    public boolean cancel(JobCancelRequested request, Message<?> cause) {
        JobFailed ended = cluster.cancel(request);
        if (ended == null) {
            return false;
        }
        LOG.infof("cancelled job %s at the request of %s", request.jobId(), request.user());
        metrics.failed(JobCancelRequested.REASON);
        sink.announce(ended, cause);
        return true;
    }

    private void preempt(Preemption victim, SchedulingDecision decision) {
        cluster.preempt(victim, decision, this);
        metrics.preemptionCarriedOut();
    }

    @Override
    public void report(LifecycleEvent event, String failureCause) {
        try {
            sink.announce(event, null);
        } catch (RuntimeException e) {
            // On shutdown the emitter may already be closed; the cluster's threads must not die of it.
            LOG.warnf("could not announce %s of job %s: %s", event.getClass().getSimpleName(), event.jobId(),
                    e.toString());
            return;
        }
        if (event instanceof JobStarted) {
            metrics.started();
        } else if (event instanceof JobCompleted completed) {
            metrics.completed(completed);
        } else if (event instanceof JobFailed) {
            metrics.failed(failureCause == null ? "other" : failureCause);
        } else {
            metrics.other(event);
        }
    }
}
