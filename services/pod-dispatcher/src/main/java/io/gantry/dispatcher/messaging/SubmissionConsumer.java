package io.gantry.dispatcher.messaging;

import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.SubmissionTaker;
import io.gantry.events.JobSubmitted;
import io.gantry.service.support.EventIntake;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * {@code gantry.jobs.submitted} → the job's pods, created unbound with {@code schedulerName: gantry}, so users see
 * them pending in the cluster while the scheduler decides. The channel starts paused and is resumed only when
 * the cluster takes submissions (Kubernetes); the simulated cluster needs nothing before a decision.
 */
@ApplicationScoped
public class SubmissionConsumer {

    static final String IN = "submissions";

    private final EventIntake intake;
    private final ClusterBackend cluster;

    public SubmissionConsumer(EventIntake intake, ClusterBackend cluster) {
        this.intake = intake;
        this.cluster = cluster;
    }

    // Off the event loop: in Kubernetes mode handling one calls the API server; ordered keeps a job's events in order.
    @Blocking(ordered = true)
    @Incoming(IN)
    public CompletionStage<Void> onSubmitted(Message<String> message) {
        return intake.handle(IN, message, () -> {
            JobSubmitted job = intake.take(IN, message, JobSubmitted.class);
            if (job != null && cluster instanceof SubmissionTaker taker) {
                taker.submitted(job);
            }
            return message.ack();
        });
    }
}
