package io.gantry.dispatcher.service;

import io.gantry.dispatcher.messaging.LifecycleHistoryReader;
import io.gantry.dispatcher.simulated.SimulatedCluster;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobFailed;
import io.gantry.events.JobStarted;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.ChannelRegistry;
import io.smallrye.reactive.messaging.PausableChannel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Resumes from the lifecycle topic after a restart (DESIGN §3): the {@code decisions} channel starts paused
 * ({@code initially-paused=true}); the jobs already on the topic are marked decided so no decision binds them
 * again, and the jobs that were running are announced failed — the simulated cluster keeps pods in memory
 * only, so they are gone. Then decisions flow.
 */
@ApplicationScoped
public class DispatcherRecovery {

    static final String LOST_REASON = "lost: pod-dispatcher restarted while the job ran on the simulated cluster, "
            + "which keeps pods in memory only";
    private static final Logger LOG = Logger.getLogger(DispatcherRecovery.class);

    private final LifecycleHistoryReader history;
    private final SimulatedCluster cluster;
    private final LifecycleSink sink;
    private final ChannelRegistry channels;

    public DispatcherRecovery(LifecycleHistoryReader history, SimulatedCluster cluster, LifecycleSink sink,
                              ChannelRegistry channels) {
        this.history = history;
        this.cluster = cluster;
        this.sink = sink;
        this.channels = channels;
    }

    void recover(@Observes StartupEvent ev) {
        LifecycleHistoryReader.History h = history.read();
        cluster.markDecided(h.seenJobIds());
        for (JobStarted lost : h.stillRunning().values()) {
            sink.announce(new JobFailed(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), lost.jobId(),
                    lost.user(), lost.nodes(), lost.perTask(), LOST_REASON, false), null);
        }
        LOG.infof("resumed from the lifecycle topic: %d job(s) already dispatched, %d lost in the restart",
                h.seenJobIds().size(), h.stillRunning().size());
        PausableChannel decisions = channels.getPausable("decisions");
        if (decisions != null) {
            decisions.resume();
        }
    }
}
