package io.gantry.scheduling.sim;

import io.gantry.scheduling.engine.SchedulingEngine;
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
     * and one content with what it has withdraws a request it made before. The jobs are asked in the order they run
     * in, each told what the ones before it left of the idle GPUs ({@link #spare()}).
     */
    void retune(double now, List<JobRun> running, double restartCostS, ProgressNow progress, RestartInPlace restart) {
        SpareGpus spare = spare();
        for (JobRun r : running) {
            if (!adaptive.adapts(r.job)) {
                continue;
            }
            int have = (int) Math.round(r.job.gpus());
            int want = adaptive.wantedGpus(r.job, progress.of(r), have, restartCostS, spare);
            if (want > have) {
                askToGrow(r.job, want - have, r.current.attainedGpuSecondsAt(now));
                continue;
            }
            drop(r.job.id());
            if (want < have) {
                restart.restart(r, adaptive.inPlace(r.job, want), kept(r.current.nodes(), want));
            }
        }
    }

    /**
     * The cluster now, as a re-tune sees it: whether a job (not a grow request) is queued, and each node's whole free
     * GPUs. GPUs of pending grow requests are still free: they are counted, and the job that asked is asked again.
     */
    SpareGpus spare() {
        boolean waiting = false;
        for (JobRequest j : engine.pending()) {
            waiting |= !j.id().endsWith(SUFFIX);
        }
        List<NodeState> nodes = engine.cluster().nodes();
        int[] free = new int[nodes.size()];
        for (int i = 0; i < free.length; i++) {
            free[i] = (int) Math.floor(nodes.get(i).free().gpus() + 1e-9);
        }
        return new SpareGpus(waiting, free);
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
