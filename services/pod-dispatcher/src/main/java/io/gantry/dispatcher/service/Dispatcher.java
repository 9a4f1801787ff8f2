package io.gantry.dispatcher.service;

import io.gantry.dispatcher.simulated.BindOutcome;
import io.gantry.dispatcher.simulated.RunningJob;
import io.gantry.dispatcher.simulated.SimulatedCluster;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobFailed;
import io.gantry.events.JobStarted;
import io.gantry.events.SchedulingDecision;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Carries out scheduling decisions on the simulated cluster and announces the job's life: {@link JobStarted}
 * when bound, {@link JobCompleted} after its duration, or {@link JobFailed} when the decision cannot be carried
 * out. Event times ({@code occurredAt}) are wall-clock; {@code runtimeS} is in simulated seconds.
 */
@ApplicationScoped
public class Dispatcher {

    private static final Logger LOG = Logger.getLogger(Dispatcher.class);

    private final SimulatedCluster cluster;
    private final LifecycleSink sink;
    private final DispatcherMetrics metrics;

    public Dispatcher(SimulatedCluster cluster, LifecycleSink sink, DispatcherMetrics metrics) {
        this.cluster = cluster;
        this.sink = sink;
        this.metrics = metrics;
    }

    /**
     * Dispatches {@code decision}; its message {@code cause} is acknowledged once the resulting event is
     * written. Returns false, announcing nothing, when the job was decided before (the caller acks).
     */
    public boolean dispatch(SchedulingDecision decision, Message<?> cause) {
        BindOutcome outcome = cluster.bind(decision);
        if (outcome instanceof BindOutcome.AlreadyDecided) {
            metrics.duplicate();
            LOG.infof("ignoring decision %s: job %s was already dispatched", decision.eventId(), decision.jobId());
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
        RunningJob job = ((BindOutcome.Bound) outcome).job();
        Instant now = Instant.now();
        sink.announce(new JobStarted(Events.newId(), GantryEvent.SCHEMA_VERSION, now, decision.jobId(),
                decision.user(), decision.nodes(), decision.perTask(), decision.submittedAt(),
                decision.policyVersion()), cause);
        metrics.started(Duration.between(decision.occurredAt(), now));
        cluster.runToCompletion(job, this::completed);
        return true;
    }

    private void completed(RunningJob job) {
        SchedulingDecision d = job.decision();
        try {
            sink.announce(new JobCompleted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), d.jobId(),
                    d.user(), d.nodes(), d.perTask(), d.submittedAt(), job.durationS()), null);
            metrics.completed();
        } catch (RuntimeException e) {
            // On shutdown the emitter may already be closed; the timer thread must not die of it.
            LOG.warnf("could not announce completion of job %s: %s", d.jobId(), e.toString());
        }
    }
}
