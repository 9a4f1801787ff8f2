package io.gantry.dispatcher.cluster;

import io.gantry.dispatcher.config.DispatcherConfig;
import io.gantry.dispatcher.kubernetes.ClusterAnnouncements;
import io.gantry.dispatcher.kubernetes.KubernetesCluster;
import io.gantry.dispatcher.messaging.TunedSpecReader;
import io.gantry.dispatcher.simulated.SimulatedCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Makes the cluster named by {@code gantry.dispatcher.cluster}. Only the selected one is created: the simulated
 * cluster's clock does not run in Kubernetes mode, and the Kubernetes client is never built in simulated mode.
 */
public class ClusterSelection {

    private static final Logger LOG = Logger.getLogger(ClusterSelection.class);

    // Singleton, not ApplicationScoped: callers may ask what kind of cluster they hold (instanceof).
    @Produces
    @Singleton
    ClusterBackend cluster(DispatcherConfig config, Instance<SimulatedCluster> simulated,
                           Instance<KubernetesClient> client, Instance<ClusterAnnouncements> announcements,
                           Instance<TunedSpecReader> tunedSpecs) {
        if (config.cluster() == DispatcherConfig.ClusterKind.KUBERNETES) {
            LOG.infof("driving the Kubernetes cluster at %s as scheduler '%s'",
                    client.get().getMasterUrl(), config.kubernetes().schedulerName());
            // Informers start in resume(), once the lifecycle topic has been read.
            KubernetesCluster kubernetes = new KubernetesCluster(client.get(), config.kubernetes(), announcements.get());
            // Training jobs' pods run the tuned spec of their JobTuned (the decision carries only the requests).
            TunedSpecReader reader = tunedSpecs.get();
            reader.start();
            kubernetes.useTunedSpecs(reader::specFor);
            reader.onRetune(kubernetes::retune);
            return kubernetes;
        }
        return simulated.get();
    }

    void close(@Disposes ClusterBackend cluster) {
        if (cluster instanceof KubernetesCluster kubernetes) {
            kubernetes.close();
        }
    }
}
