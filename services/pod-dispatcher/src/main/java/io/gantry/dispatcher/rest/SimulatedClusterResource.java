package io.gantry.dispatcher.rest;

import static io.gantry.dispatcher.mapping.Amounts.amounts;

import io.gantry.dispatcher.cluster.ClusterBackend;
import io.gantry.dispatcher.simulated.ClusterSnapshot;
import io.gantry.dispatcher.simulated.PrometheusExposition;
import io.gantry.dispatcher.simulated.SimulatedCluster;
import io.gantry.events.ResourceAmounts;
import io.gantry.service.support.security.Roles;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The simulated cluster seen from outside: Prometheus exposition for metrics-ingest, JSON for people. Not found
 * in Kubernetes mode, where the real cluster's exporters say what it holds. The exposition stays open like any
 * metrics endpoint (metrics-ingest scrapes it); the JSON view needs an operator token.
 */
@Path("/simulated-cluster")
public class SimulatedClusterResource {

    private final ClusterBackend cluster;

    public SimulatedClusterResource(ClusterBackend cluster) {
        this.cluster = cluster;
    }

    private SimulatedCluster simulated() {
        if (cluster instanceof SimulatedCluster simulated) {
            return simulated;
        }
        throw new NotFoundException("pod-dispatcher drives a Kubernetes cluster, not the simulated one");
    }

    @GET
    @Path("/metrics")
    @PermitAll
    @Produces(PrometheusExposition.CONTENT_TYPE)
    public String metrics() {
        return PrometheusExposition.render(simulated().snapshot());
    }

    /**
     * One node: what it has, what is allocated, what is free, the jobs with a pod on it, and the GPU devices of each
     * pod whose decision chose them (pod name to device indices; {@code gantry.scheduler.gpu-placement}).
     */
    public record NodeView(String name, ResourceAmounts capacity, ResourceAmounts allocated, ResourceAmounts free,
                           int runningPods, List<String> runningJobs, Map<String, List<Integer>> podGpuDevices) {
    }

    public record ClusterView(Instant simulatedTime, List<NodeView> nodes) {
    }

    @GET
    @Path("/nodes")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    @Produces(MediaType.APPLICATION_JSON)
    public ClusterView nodes() {
        ClusterSnapshot s = simulated().snapshot();
        List<NodeView> nodes = s.nodes().stream().map(n -> new NodeView(n.name(), amounts(n.capacity()),
                amounts(n.allocated()), amounts(n.capacity().minus(n.allocated())), n.pods().size(),
                List.copyOf(new TreeSet<>(n.pods().stream().map(ClusterSnapshot.Pod::jobId).toList())),
                devicesByPod(n.pods()))).toList();
        long micros = Math.round(s.simulatedEpochSeconds() * 1e6);
        return new ClusterView(Instant.EPOCH.plusNanos(micros * 1000), nodes);
    }

    private static Map<String, List<Integer>> devicesByPod(List<ClusterSnapshot.Pod> pods) {
        Map<String, List<Integer>> out = new TreeMap<>();
        pods.stream().filter(p -> !p.gpuDevices().isEmpty()).forEach(p -> out.put(p.name(), p.gpuDevices()));
        return out;
    }
}
