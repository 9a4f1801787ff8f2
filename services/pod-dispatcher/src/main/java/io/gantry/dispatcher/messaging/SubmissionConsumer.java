package io.gantry.dispatcher.messaging;

import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.SubmissionTaker;
import io.gantry.events.JobSubmitted;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.UnusedChannels;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code gantry.jobs.submitted} → the job's pods, created unbound with {@code schedulerName: gantry}, so users see
 * them pending in the cluster while the scheduler decides. The channel starts paused and is resumed only when
 * the cluster takes submissions (Kubernetes); the simulated cluster needs nothing before a decision, so there the
 * channel stays paused and the admin API refuses to switch it ({@link UnusedChannels}).
 */
@ApplicationScoped
public class SubmissionConsumer implements UnusedChannels {

    static final String IN = "submissions";

    private final EventIntake intake;
    private final ClusterBackend cluster;

    public SubmissionConsumer(EventIntake intake, ClusterBackend cluster) {
        this.intake = intake;
        this.cluster = cluster;
    }

    @Override
    public Optional<String> unusedBecause(String channel) {
        return IN.equals(channel) && !(cluster instanceof SubmissionTaker)
                ? Optional.of("the simulated cluster takes no submissions: this channel turns them into pods and is "
                + "consumed only with gantry.dispatcher.cluster=kubernetes")
                : Optional.empty();
    }

    // Off the event loop: in Kubernetes mode handling one calls the API server; ordered keeps a job's events in order.
    @Blocking(ordered = true)
    @Incoming(IN)
    public CompletionStage<Void> onSubmitted(Message<String> message) {
        return intake.consume(IN, message, JobSubmitted.class, job -> {
            if (cluster instanceof SubmissionTaker taker) {
                taker.submitted(job);
            }
        });
    }
}
