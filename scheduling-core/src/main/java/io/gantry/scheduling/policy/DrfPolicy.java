package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.NodeScorer;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Dominant Resource Fairness (Ghodsi et al., NSDI'11) across users/tenants, by progressive filling:
 * repeatedly offer the next job of the user whose dominant share (largest of GPU, CPU, memory share of
 * the cluster held by the user's running jobs) is smallest; within a user, priority then arrival.
 * A job that does not fit is skipped and the same user's next job is offered. Non-preemptive;
 * LeastAllocated scoring as kube-default, so only the order differs.
 */
public final class DrfPolicy implements SchedulingPolicy {

    public static final String NAME = "drf";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean skipsJobsThatDoNotFit() {
        return true;
    }

    @Override
    public Decision decide(SchedulingContext ctx) {
        Resources capacity = ctx.cluster().totalCapacity();
        Map<String, UserQueue> users = new HashMap<>();
        for (RunningJob r : ctx.running()) {
            users.computeIfAbsent(r.job().user(), UserQueue::new).charge(r.job().total());
        }
        for (JobRequest j : ctx.pending()) {
            users.computeIfAbsent(j.user(), UserQueue::new).jobs.add(j);
        }
        PriorityQueue<UserQueue> byShare = new PriorityQueue<>((a, b) -> {
            int c = Double.compare(a.dominantShare(capacity), b.dominantShare(capacity));
            return c != 0 ? c : a.user.compareTo(b.user);
        });
        for (UserQueue u : users.values()) {
            if (!u.jobs.isEmpty()) {
                u.jobs.sort(KubeDefaultPolicy.PRIORITY_THEN_ARRIVAL.order(ctx));
                byShare.add(u);
            }
        }
        GangPlacer placer = new GangPlacer(ctx.cluster().nodes(), List.of(), NodeScorer.LEAST_ALLOCATED);
        List<Placement> out = new ArrayList<>();
        Resources smallest = GangPlacer.smallestRequest(ctx.pending());
        while (!byShare.isEmpty() && placer.mightFit(smallest)) {
            UserQueue u = byShare.poll();
            JobRequest job = u.jobs.get(u.next++);
            List<String> nodes = placer.place(job);
            if (nodes != null) {
                out.add(new Placement(job.id(), nodes));
                u.charge(job.total());
            }
            if (u.next < u.jobs.size()) {
                byShare.add(u);
            }
        }
        return Decision.placeOnly(out);
    }

    private static final class UserQueue {
        final String user;
        final List<JobRequest> jobs = new ArrayList<>();
        int next;
        long gpu;
        long cpu;
        long mem;

        UserQueue(String user) {
            this.user = user;
        }

        void charge(Resources r) {
            gpu += r.gpuMilli();
            cpu += r.cpuMilli();
            mem += r.memoryMib();
        }

        double dominantShare(Resources capacity) {
            return Math.max(share(gpu, capacity.gpuMilli()), Math.max(share(cpu, capacity.cpuMilli()), share(mem, capacity.memoryMib())));
        }

        private static double share(long used, long total) {
            return total == 0 ? 0 : (double) used / total;
        }
    }
}
