package io.gantry.dispatcher.messaging;

import io.gantry.dispatcher.kubernetes.ClusterAnnouncements;
import io.gantry.events.JobSubmitted;
import io.gantry.events.NodeMetrics;
import io.gantry.service.support.EventIntake;
import io.gantry.service.support.Outbound;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

/** Writes foreign pods' jobs to {@code gantry.jobs.submitted} and node capacity to {@code gantry.cluster.metrics}. */
@ApplicationScoped
public class ClusterAnnouncementEmitter implements ClusterAnnouncements {

    static final String SUBMITTED = "pod-submissions";
    static final String NODE_METRICS = "node-metrics";

    private final EventIntake intake;
    private final Emitter<String> submitted;
    private final Emitter<String> nodeMetrics;

    public ClusterAnnouncementEmitter(EventIntake intake,
                                      @Channel(SUBMITTED) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 10_000)
                                      Emitter<String> submitted,
                                      @Channel(NODE_METRICS) @OnOverflow(value = OnOverflow.Strategy.BUFFER, bufferSize = 10_000)
                                      Emitter<String> nodeMetrics) {
        this.intake = intake;
        this.submitted = submitted;
        this.nodeMetrics = nodeMetrics;
    }

    @Override
    public void submitted(JobSubmitted job) {
        intake.send(SUBMITTED, submitted, Outbound.message(job));
    }

    @Override
    public void nodeMetrics(NodeMetrics metrics) {
        intake.send(NODE_METRICS, nodeMetrics, Outbound.message(metrics));
    }
}
