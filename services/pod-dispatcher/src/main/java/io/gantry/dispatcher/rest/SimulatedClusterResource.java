package io.gantry.dispatcher.rest;

import io.gantry.dispatcher.simulated.ClusterSnapshot;
import io.gantry.dispatcher.simulated.PrometheusExposition;
import io.gantry.dispatcher.simulated.SimulatedCluster;
import io.gantry.events.ResourceAmounts;
import io.gantry.scheduling.model.Resources;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;

/** The simulated cluster seen from outside: Prometheus exposition for metrics-ingest, JSON for people. */
@Path("/simulated-cluster")
public class SimulatedClusterResource {

    private final SimulatedCluster cluster;

    public SimulatedClusterResource(SimulatedCluster cluster) {
        this.cluster = cluster;
    }

    @GET
    @Path("/metrics")
    @Produces(PrometheusExposition.CONTENT_TYPE)
    public String metrics() {
        return PrometheusExposition.render(cluster.snapshot());
    }

    /** One node: what it has, what is allocated, what is free, and the jobs with a pod on it. */
    public record NodeView(String name, ResourceAmounts capacity, ResourceAmounts allocated, ResourceAmounts free,
                           int runningPods, List<String> runningJobs) {
    }

    public record ClusterView(Instant simulatedTime, List<NodeView> nodes) {
    }

    @GET
    @Path("/nodes")
    @Produces(MediaType.APPLICATION_JSON)
    public ClusterView nodes() {
        ClusterSnapshot s = cluster.snapshot();
        List<NodeView> nodes = s.nodes().stream().map(n -> new NodeView(n.name(), amounts(n.capacity()),
                amounts(n.allocated()), amounts(n.capacity().minus(n.allocated())), n.pods().size(),
                List.copyOf(new TreeSet<>(n.pods().stream().map(ClusterSnapshot.Pod::jobId).toList())))).toList();
        long micros = Math.round(s.simulatedEpochSeconds() * 1e6);
        return new ClusterView(Instant.EPOCH.plusNanos(micros * 1000), nodes);
    }

    private static ResourceAmounts amounts(Resources r) {
        return new ResourceAmounts(r.gpuMilli(), r.cpuMilli(), r.memoryMib());
    }
}
