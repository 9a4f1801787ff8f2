package io.gantry.dispatcher.service;

import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.cluster.SubmissionTaker;
import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.ChannelRegistry;
import io.smallrye.reactive.messaging.PausableChannel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Resumes after a restart (DESIGN §3): the {@code decisions} channel starts paused ({@code initially-paused=true});
 * the lifecycle topic is read to its end and handed to the cluster, which marks those jobs decided and reconciles
 * the ones that were running (the simulated cluster lost them; Kubernetes still has their pods). Then decisions
 * and cancel requests flow, and in Kubernetes mode submissions too (they become pods).
 */
@ApplicationScoped
public class DispatcherRecovery {

    private final LifecycleHistoryReader history;
    private final ClusterBackend cluster;
    private final Dispatcher dispatcher;
    private final ChannelRegistry channels;

    public DispatcherRecovery(LifecycleHistoryReader history, ClusterBackend cluster, Dispatcher dispatcher,
                              ChannelRegistry channels) {
        this.history = history;
        this.cluster = cluster;
        this.dispatcher = dispatcher;
        this.channels = channels;
    }

    void recover(@Observes StartupEvent ev) {
        cluster.resume(history.read(), dispatcher);
        resume("decisions");
        // Cancel requests too wait for the running jobs to be taken back, or a request would miss the job it stops.
        resume("cancellations");
        if (cluster instanceof SubmissionTaker) {
            resume("submissions");
        }
    }

    private void resume(String channel) {
        PausableChannel pausable = channels.getPausable(channel);
        if (pausable != null) {
            pausable.resume();
        }
    }
}
