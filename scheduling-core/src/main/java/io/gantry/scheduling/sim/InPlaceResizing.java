package io.gantry.scheduling.sim;

import io.gantry.scheduling.engine.SchedulingEngine;
import io.gantry.scheduling.fairness.TenantServiceMeter;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an {@link AdaptiveJobs} job changes GPU count while it keeps running. A grow is a <em>grow request</em>: a
 * pending job of the extra GPUs alone (a packed gang, {@link AdaptiveJobs#resized}), named
 * {@code <id>}{@value #SUFFIX}, with the running job's user, priority and attained service, so the policy weighs it
 * as it weighs the job itself; when the policy places it, the job is restarted on its old GPUs plus the new ones. A shrink needs nobody's consent: the job keeps the GPUs on the nodes
 * where it holds the most (so it stays packed) and frees the rest at once.
 */
final class InPlaceResizing {

    static final String SUFFIX = "+grow";

    /** Training progress of a running job now. */
    interface ProgressNow {
        double of(JobRun run);
    }

    /** The driver's checkpoint-restart of a running job as {@code job} on {@code nodes}, in place. */
    interface RestartInPlace {
        void restart(JobRun run, JobRequest job, List<String> nodes);
    }

    private final SchedulingEngine engine;
    private final AdaptiveJobs adaptive;
    /** Pending grow requests by the running job they would grow. */
    private final Map<String, JobRequest> requests = new HashMap<>();

    InPlaceResizing(SchedulingEngine engine, AdaptiveJobs adaptive) {
        this.engine = engine;
        this.adaptive = adaptive;
    }

    /**
     * One re-tune: each running adaptive job that wants fewer GPUs shrinks now, one that wants more asks for them,
     * and one content with what it has withdraws a request it made before. The jobs are asked together, with the
     * cluster's idle GPUs ({@link #spare()}). Jobs that use idle GPUs grow only while nobody waits, into free GPUs at
     * once (there is nobody for the policy to weigh such a grow against, and a grow request left in the queue could
     * make a policy preempt a running job for it; a grow the free GPUs do not hold is not made), and give idle GPUs
     * back when jobs wait ({@link #makeRoom}).
     */
    void retune(double now, List<JobRun> running, double restartCostS, ProgressNow progress, RestartInPlace restart) {
        List<JobRun> adapting = running.stream().filter(r -> adaptive.adapts(r.job)).toList();
        SpareGpus spare = spare();
        boolean idleGpus = adaptive.usesIdleGpus();
        int[] wanted = adaptive.wantedGpus(jobsOf(adapting), progressOf(adapting, progress), restartCostS, spare);
        // Shrinks first, so that the GPUs they free are there for the grows of the same re-tune.
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < wanted.length; i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingInt(i -> wanted[i] - (int) Math.round(adapting.get(i).job.gpus())));
        for (int i : order) {
            JobRun r = adapting.get(i);
            int have = (int) Math.round(r.job.gpus());
            int want = wanted[i];
            if (want > have && idleGpus) {
                List<String> free = spare.jobsWaiting() ? null : freeGpusFor(r.current.nodes(), want - have);
                if (free != null) {
                    List<String> nodes = new ArrayList<>(r.current.nodes());
                    nodes.addAll(free);
                    restart.restart(r, adaptive.inPlace(r.job, want), nodes);
                }
            } else if (want > have) {
                askToGrow(r.job, want - have, r.current.attainedGpuSecondsAt(now));
            } else {
                drop(r.job.id());
                if (want < have) {
                    restart.restart(r, adaptive.inPlace(r.job, want), kept(r.current.nodes(), want));
                }
            }
        }
        makeRoom(running, restartCostS, progress, restart);
    }

    /**
     * Jobs wait and lack GPUs: jobs holding GPUs nobody else wanted ({@link AdaptiveJobs#giveBackOrder}) give them
     * back, at once and in place, one GPU at a time from the node it leaves with the most free GPUs, until the
     * waiting jobs fit (or nobody has more to give); before the policy's round, so that it need not preempt.
     */
    void makeRoom(List<JobRun> running, double restartCostS, ProgressNow progress, RestartInPlace restart) {
        if (!adaptive.usesIdleGpus()) {
            return;
        }
        List<JobRequest> waiting = waiting();
        Map<String, Integer> free = new LinkedHashMap<>();
        engine.cluster().nodes().forEach(n -> free.put(n.name(), wholeGpus(n)));
        if (unmet(waiting, free) == 0) {
            return;
        }
        List<JobRun> adapting = running.stream().filter(r -> adaptive.adapts(r.job)).toList();
        for (SpareGpus.GiveBack g : adaptive.giveBackOrder(jobsOf(adapting), progressOf(adapting, progress), restartCostS)) {
            JobRun r = adapting.get(g.job());
            List<String> keep = r.current.nodes();
            while (keep.size() > g.floorGpus() && unmet(waiting, free) > 0) {
                keep = keptForWaiting(keep, free);
            }
            if (keep.size() < r.current.nodes().size()) {
                restart.restart(r, adaptive.inPlace(r.job, keep.size()), keep);
            }
            if (unmet(waiting, free) == 0) {
                return;
            }
        }
    }

    /** Jobs that arrived now, before they are queued: each adaptive one as {@link AdaptiveJobs#arrivalGpus} sizes it. */
    void sizeArrivals(List<JobRun> arrived, TenantServiceMeter service) {
        SpareGpus spare = spare();
        for (JobRun r : arrived) {
            if (adaptive.adapts(r.job)) {
                JobRequest sized = adaptive.resized(r.job, adaptive.arrivalGpus(r.job, spare));
                service.resized(r.job.user(), r.job.gpus(), sized.gpus(), false);
                r.job = sized;
            }
        }
    }

    private static List<JobRequest> jobsOf(List<JobRun> runs) {
        return runs.stream().map(r -> r.job).toList();
    }

    private static double[] progressOf(List<JobRun> runs, ProgressNow progress) {
        return runs.stream().mapToDouble(progress::of).toArray();
    }

    private static int unmet(List<JobRequest> waiting, Map<String, Integer> free) {
        return SpareGpus.withWaiting(waiting, free.values().stream().mapToInt(Integer::intValue).toArray()).unmetGpus();
    }

    private static int wholeGpus(NodeState n) {
        return (int) Math.floor(n.free().gpus() + 1e-9);
    }

    /** The jobs waiting in the queue (grow requests are not jobs). */
    private List<JobRequest> waiting() {
        return engine.pending().stream().filter(j -> !j.id().endsWith(SUFFIX)).toList();
    }

    /**
     * The cluster now, as a re-tune sees it: whether a job (not a grow request) is queued, how many of the GPUs such
     * jobs ask for are not free, and each node's whole free GPUs beyond what they fit into. GPUs of pending grow
     * requests are still free: they are counted, and the job that asked is asked again.
     */
    SpareGpus spare() {
        return SpareGpus.withWaiting(waiting(), engine.cluster().nodes().stream().mapToInt(InPlaceResizing::wholeGpus).toArray());
    }

    /** Asks for {@code extraGpus} more GPUs for running {@code job}; a pending request of another size is replaced. */
    void askToGrow(JobRequest job, int extraGpus, double attainedGpuS) {
        JobRequest pending = requests.get(job.id());
        if (pending != null && pending.tasks() == extraGpus) {
            return;
        }
        drop(job.id());
        JobRequest extra = adaptive.resized(job, extraGpus);
        JobRequest request = new JobRequest(job.id() + SUFFIX, job.user(), extra.tasks(), extra.perTask(),
                job.submitTime(), job.priority(), job.predictedDurationS(), job.trueDurationS());
        requests.put(job.id(), request);
        engine.requeue(request, attainedGpuS, true);
    }

    /** Withdraws the job's grow request, if it has one pending (it no longer wants to grow, stopped or finished). */
    void drop(String jobId) {
        JobRequest pending = requests.remove(jobId);
        if (pending != null) {
            engine.withdraw(pending.id());
        }
    }

    /**
     * The job a placed grow request belongs to (which may have been stopped in the same round, and so no longer runs);
     * null when {@code placedId} is not a grow request.
     */
    String grownJob(String placedId) {
        if (!placedId.endsWith(SUFFIX)) {
            return null;
        }
        String job = placedId.substring(0, placedId.length() - SUFFIX.length());
        requests.remove(job);
        return job;
    }

    /** Where a running job's GPUs are, one entry per GPU (a task of k GPUs on node n is k entries n). */
    static List<String> perGpu(RunningJob r) {
        int gpusPerTask = (int) Math.round(r.job().perTask().gpus());
        List<String> out = new ArrayList<>(r.nodes().size() * gpusPerTask);
        for (String n : r.nodes()) {
            for (int i = 0; i < gpusPerTask; i++) {
                out.add(n);
            }
        }
        return out;
    }

    /**
     * {@code extra} free GPUs for a job on {@code nodes} (one entry per GPU), on its own nodes first and then on the
     * nodes with the most free GPUs, so that it stays on as few nodes as it can; null when fewer are free.
     */
    private List<String> freeGpusFor(List<String> nodes, int extra) {
        List<NodeState> byFree = new ArrayList<>(engine.cluster().nodes());
        byFree.sort(Comparator.comparing((NodeState n) -> !nodes.contains(n.name()))
                .thenComparingDouble(n -> -n.free().gpus()));
        List<String> out = new ArrayList<>(extra);
        for (NodeState n : byFree) {
            for (int g = wholeGpus(n); g > 0 && out.size() < extra; g--) {
                out.add(n.name());
            }
        }
        return out.size() == extra ? out : null;
    }

    /**
     * {@code nodes} (one entry per GPU) less one GPU, given back on the node with the most free GPUs in {@code free}
     * (of those, the one the job holds most on, where it can go on giving back), which counts it as free: what a job
     * gives back piles up on as few nodes as it can, where a waiting task of several GPUs fits.
     */
    static List<String> keptForWaiting(List<String> nodes, Map<String, Integer> free) {
        Map<String, Integer> held = new LinkedHashMap<>();
        for (String n : nodes) {
            held.merge(n, 1, Integer::sum);
        }
        String from = null;
        for (String n : held.keySet()) {
            if (from == null || free.get(n) > free.get(from)
                    || free.get(n).equals(free.get(from)) && held.get(n) > held.get(from)) {
                from = n;
            }
        }
        free.merge(from, 1, Integer::sum);
        List<String> out = new ArrayList<>(nodes);
        out.remove(from);
        return out;
    }

    /** The first {@code gpus} of {@code nodes} (one entry per GPU), taken from the nodes that hold the most of them. */
    static List<String> kept(List<String> nodes, int gpus) {
        Map<String, Integer> perNode = new LinkedHashMap<>();
        for (String n : nodes) {
            perNode.merge(n, 1, Integer::sum);
        }
        List<Map.Entry<String, Integer>> byCount = new ArrayList<>(perNode.entrySet());
        byCount.sort(Comparator.comparingInt((Map.Entry<String, Integer> e) -> -e.getValue()));
        List<String> out = new ArrayList<>(gpus);
        for (Map.Entry<String, Integer> e : byCount) {
            for (int i = 0; i < e.getValue() && out.size() < gpus; i++) {
                out.add(e.getKey());
            }
        }
        return out;
    }
}
