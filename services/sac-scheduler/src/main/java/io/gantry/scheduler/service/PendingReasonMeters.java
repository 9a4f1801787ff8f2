package io.gantry.scheduler.service;

import io.gantry.scheduler.mapping.Amounts;
import io.gantry.events.JobTuned;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * {@code gantry_scheduler_pending_jobs{reason}}: the queue split by why each job waits, so the series sum to the
 * queue's length. A job's reason is the first resource, in the order GPU, CPU, memory, whose free amounts on the
 * schedulable nodes cannot hold all its tasks at once (counting only that resource and the ones before it), like
 * kube-scheduler's "Insufficient nvidia.com/gpu"; a job the free resources could hold now waits for the policy
 * (a round is due, or the policy placed other jobs first or holds it back).
 */
@Startup
@ApplicationScoped
public class PendingReasonMeters {

    private static final Logger LOG = Logger.getLogger(PendingReasonMeters.class);
    /** How long a scrape waits for the loop thread before the gauges say NaN (unknown) rather than guess. */
    private static final long ANSWER_TIMEOUT_MS = 5_000;
    /** The gauges of one scrape are read one after another: they share one count of the queue. */
    private static final long REUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

    enum Reason {
        NO_SCHEDULABLE_NODE("no_schedulable_node"),
        INSUFFICIENT_GPU("insufficient_gpu"),
        INSUFFICIENT_CPU("insufficient_cpu"),
        INSUFFICIENT_MEMORY("insufficient_memory"),
        WAITING_FOR_POLICY("waiting_for_policy");

        final String label;

        Reason(String label) {
            this.label = label;
        }
    }

    private final SchedulerLoop loop;
    private Map<Reason, Integer> last;
    private long lastAt;

    public PendingReasonMeters(SchedulerLoop loop, MeterRegistry registry) {
        this.loop = loop;
        for (Reason r : Reason.values()) {
            Gauge.builder("gantry.scheduler.pending.jobs", () -> count(r))
                    .description("Jobs waiting in the queue, by why they wait").tag("reason", r.label)
                    .register(registry);
        }
    }

    // Gauges are read on the scrape thread; the queue belongs to the loop thread, so the count is made there.
    private synchronized double count(Reason reason) {
        long now = System.nanoTime();
        if (last == null || now - lastAt > REUSE_NANOS) {
            try {
                last = loop.query(PendingReasonMeters::classify).get(ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                lastAt = now;
            } catch (TimeoutException | ExecutionException | RejectedExecutionException e) {
                LOG.debugf("no pending-reason count this scrape: %s", e.toString());
                last = null;
                return Double.NaN;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Double.NaN;
            }
        }
        return last.getOrDefault(reason, 0);
    }

    static Map<Reason, Integer> classify(LiveEngine state) {
        List<NodeState> nodes = state.schedulableView().nodes();
        Map<Reason, Integer> out = new EnumMap<>(Reason.class);
        for (JobTuned j : state.pendingJobs()) {
            Resources perTask = Amounts.resources(j.perTask());
            out.merge(reason(j.tasks(), perTask, nodes), 1, Integer::sum);
        }
        return out;
    }

    static Reason reason(int tasks, Resources perTask, List<NodeState> nodes) {
        if (nodes.isEmpty()) {
            return Reason.NO_SCHEDULABLE_NODE;
        }
        if (placeable(nodes, perTask, 1, tasks) < tasks) {
            return Reason.INSUFFICIENT_GPU;
        }
        if (placeable(nodes, perTask, 2, tasks) < tasks) {
            return Reason.INSUFFICIENT_CPU;
        }
        if (placeable(nodes, perTask, 3, tasks) < tasks) {
            return Reason.INSUFFICIENT_MEMORY;
        }
        return Reason.WAITING_FOR_POLICY;
    }

    /** Tasks of {@code perTask} the nodes' free resources hold, looking at the first {@code dims} of GPU, CPU, memory. */
    private static long placeable(List<NodeState> nodes, Resources perTask, int dims, int enough) {
        long total = 0;
        for (NodeState n : nodes) {
            Resources free = n.free();
            long onNode = fits(free.gpuMilli(), perTask.gpuMilli());
            if (dims >= 2) {
                onNode = Math.min(onNode, fits(free.cpuMilli(), perTask.cpuMilli()));
            }
            if (dims >= 3) {
                onNode = Math.min(onNode, fits(free.memoryMib(), perTask.memoryMib()));
            }
            total += onNode;
            if (total >= enough) {
                return total;
            }
        }
        return total;
    }

    private static long fits(long free, long request) {
        return request <= 0 ? Long.MAX_VALUE / 4 : Math.max(0, free) / request;
    }
}
