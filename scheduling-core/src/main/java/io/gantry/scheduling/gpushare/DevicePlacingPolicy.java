package io.gantry.scheduling.gpushare;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.DecoratingPolicy;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.framework.SchedulingPolicy;
import io.gantry.scheduling.model.ClusterState;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A policy whose placements are redone per device by a GPU-sharing plugin ({@link DevicePlacement#wrap}). The inner
 * policy decides as always (which jobs start, which stop); then, on a copy of the devices with the stopped jobs'
 * room given back, each placement in the policy's order is placed again:
 * <ul>
 *   <li>a one-task job by the plugin's {@link ScoringPlacer} cycle over every node the round may use (not cordoned),
 *       exactly as {@code ./gantry bench-frag} places a pod: filter, score, normalise, the highest (random among
 *       ties), then the plugin's devices;</li>
 *   <li>a gang keeps the policy's nodes and takes, per task, the devices {@link DeviceChoice#bestFit} picks (the
 *       study's simulator places pods one by one and has no gangs);</li>
 *   <li>a job on nodes not tracked per device keeps the policy's placement and gets no devices.</li>
 * </ul>
 * A placement that no longer fits once the devices are counted is left out: the job stays pending, as in the
 * protocol a pod no node admits stays unplaced. The policy's name is the inner one's, so decisions name it.
 */
final class DevicePlacingPolicy extends DecoratingPolicy {

    private final DevicePlacement devices;
    /** Jobs the plugin was told of ({@link GpuScorer#arrived}): each once, when first seen pending. */
    private final Set<String> announced = new HashSet<>();

    DevicePlacingPolicy(SchedulingPolicy inner, DevicePlacement devices) {
        super(inner);
        this.devices = devices;
    }

    @Override
    public Decision decide(SchedulingContext ctx) {
        Decision d = inner.decide(ctx);
        if (d.placements().isEmpty()) {
            return d;
        }
        Map<String, JobRequest> byId = new HashMap<>();
        for (JobRequest j : ctx.pending()) {
            byId.put(j.id(), j);
            GpuPod pod = DevicePlacement.pod(j);
            if (pod != null && announced.add(j.id())) {
                devices.scorer().arrived(pod);
            }
        }
        DeviceCluster trial = devices.cluster().copy();
        for (String victim : d.preemptions()) {
            DevicePlacement.Held h = devices.heldBy(victim);
            if (h != null) {
                devices.releaseAll(trial, h);
            }
        }
        devices.forgetChoices();
        ScoringPlacer placer = new ScoringPlacer(trial, devices.scorer(), devices.tieBreak());
        Totals free = new Totals(ctx, d.preemptions());
        List<Placement> kept = new ArrayList<>(d.placements().size());
        for (Placement p : d.placements()) {
            JobRequest job = byId.get(p.jobId());
            GpuPod pod = job == null ? null : DevicePlacement.pod(job);
            Placement again = pod == null ? p : place(trial, placer, free, p, pod, job.perTask());
            if (again != null) {
                kept.add(again);
                again.nodes().forEach(n -> free.take(n, job == null ? Resources.ZERO : job.perTask()));
            }
        }
        return new Decision(kept, d.preemptions(), d.wakeAt());
    }

    /**
     * What each node has free on the engine's totals in this round: the cluster the policy saw, with the stopped jobs'
     * room given back and the kept placements' taken. The devices are the stricter count, but a job restored without
     * devices holds only totals, so both are checked and the engine never over-allocates.
     */
    private static final class Totals {
        private final ClusterState view;
        private final Map<String, Resources> free = new HashMap<>();

        Totals(SchedulingContext ctx, List<String> victims) {
            this.view = ctx.cluster();
            Map<String, RunningJob> running = ctx.runningById();
            for (String v : victims) {
                RunningJob r = running.get(v);
                if (r != null) {
                    r.nodes().stream().filter(view::hasNode).forEach(n -> free.put(n, of(n).plus(r.job().perTask())));
                }
            }
        }

        private Resources of(String node) {
            return free.computeIfAbsent(node, n -> view.node(n).free());
        }

        boolean admits(String node, Resources perTask) {
            return view.hasNode(node) && of(node).covers(perTask);
        }

        void take(String node, Resources perTask) {
            if (view.hasNode(node)) {
                free.put(node, of(node).minus(perTask));
            }
        }
    }

    private Placement place(DeviceCluster trial, ScoringPlacer placer, Totals free, Placement p, GpuPod pod,
                            Resources perTask) {
        boolean tracked = p.nodes().stream().allMatch(n -> devices.index(n) != null);
        if (p.nodes().size() == 1) {
            ScoringPlacer.Placement where = placer.placeArrived(pod, n -> free.admits(trial.node(n).name(), perTask));
            if (where != null) {
                devices.choose(p.jobId(), new int[][] {where.devices()});
                return new Placement(p.jobId(), List.of(trial.node(where.node()).name()));
            }
            return tracked ? null : p;
        }
        if (!tracked) {
            return p;
        }
        int[][] chosen = new int[p.nodes().size()][];
        for (int k = 0; k < chosen.length; k++) {
            int idx = devices.index(p.nodes().get(k));
            String node = p.nodes().get(k);
            int onNode = (int) p.nodes().subList(0, k + 1).stream().filter(node::equals).count();
            if (!trial.fits(idx, pod) || !free.admits(node, perTask.times(onNode))) {
                for (int u = 0; u < k; u++) {
                    trial.release(devices.index(p.nodes().get(u)), pod, chosen[u]);
                }
                return null;
            }
            chosen[k] = DeviceChoice.bestFit(trial.gpuFreeView(idx), pod.shape());
            trial.place(idx, pod, chosen[k]);
        }
        devices.choose(p.jobId(), chosen);
        return p;
    }
}
