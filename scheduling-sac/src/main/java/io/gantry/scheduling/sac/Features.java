package io.gantry.scheduling.sac;

import io.gantry.scheduling.framework.GangPlacer;
import io.gantry.scheduling.framework.VictimChooser;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the candidate set of one decision and the normalised features of each candidate (DESIGN §2,
 * SAC). Only what a deployable scheduler knows is read: requests, the predicted duration filled in at
 * submission ({@link JobRequest#predictedDurationS()}) and the service a job has received; never the
 * true duration.
 *
 * <p><b>The prior.</b> Every candidate carries a heuristic prior logit (feature {@code prior_logit_over_10});
 * the actor's logit is that prior plus a bounded learned correction ({@link SacAgent}). The prior is
 * −{@code priorWeight} × ln(1 + urgency ÷ 60 GPU-s) − (mean free fraction the node keeps after placement), with
 * urgency from {@link #priorUrgencyGpuS}: the job's predicted <em>remaining</em> GPU service (shortest
 * remaining predicted service first), and, once a job has outlived its prediction, its attained GPU service
 * (2D least-attained-service, as Tiresias). The node term prefers the fullest node (MostAllocated).
 *
 * <p><b>Which jobs.</b> At most {@code windowJobs} pending jobs that can start now: the most urgent by the prior,
 * walking the queue from the most urgent until the window is full, plus the {@value #LONGEST_WAITING}
 * longest-waiting jobs that fit in free space (so the agent can choose to serve an old job). A job that does
 * not fit in free space can still start by preempting running jobs strictly less urgent than itself (least
 * urgent first, only as many as needed, as the preemptive baselines do); it is offered once, on the fullest node
 * of the cluster as it would be after those preemptions, with features saying so. At most
 * {@value #MAX_PREEMPTION_TRIALS} such plans are tried per decision.
 *
 * <p><b>Which nodes</b> (jobs that fit in free space): nodes whose free resources, capacity and running count are
 * identical give identical features, so only one representative of each such class is offered; per job at most
 * {@code nodesPerJob} classes, half the ones left fullest and half left emptiest after placement (so both packing
 * and spreading stay possible on a 1,000-node cluster), then classes where the job does not fit, masked.
 *
 * <p>The last candidate is "wait". It is masked whenever a job can start: the policy is work-conserving (a more
 * urgent job that arrives later preempts instead of finding capacity held idle for it).
 */
public final class Features {

    /** The names of the base features, in order; written into every checkpoint's metadata, the extra ones after them. */
    public static final List<String> NAMES = List.of(
            "is_wait", "prior_logit_over_10",
            "job_gpu_per_task_over_node_gpu", "job_cpu_per_task_over_node_cpu", "job_mem_per_task_over_node_mem",
            "job_gang_size_log2_over_4", "job_predicted_duration_log1p_over_ln1e6", "job_has_prediction",
            "job_attained_gpu_s_log1p_over_ln1e7", "job_outlived_prediction", "job_prior_urgency_rank_in_window",
            "job_waited_log1p_over_ln1e6", "job_owner_priority_tanh_over_100",
            "node_free_gpu_frac", "node_free_cpu_frac", "node_free_mem_frac", "node_running_tasks_over_16",
            "pair_mean_free_frac_after", "pair_gpu_fragment_left_frac", "pair_gang_share_on_node",
            "pair_needs_preemption", "pair_preempted_gpus_over_job_gpus_over_4",
            "global_queue_length_log1p_over_ln1001", "global_gpu_allocated_frac",
            "global_queued_gpu_demand_over_cluster_gpus_log1p", "global_running_tasks_over_nodes_over_8");

    /** Base features per candidate; the extra ones ({@link #EXTRA_NAMES}) follow them. */
    public static final int COUNT = NAMES.size();
    /** Features a checkpoint trained with {@code extendedFeatures} also reads ({@link QueueAndHistoryFeatures}). */
    public static final List<String> EXTRA_NAMES = QueueAndHistoryFeatures.NAMES;
    /** Column of the prior logit ÷ {@link #PRIOR_SCALE}; the agent adds it back to its learned correction. */
    static final int PRIOR_INDEX = 1;
    static final float PRIOR_SCALE = 10f;
    /** Column that is 1 when the candidate starts its job by preempting running jobs. */
    static final int NEEDS_PREEMPTION_INDEX = 20;
    /** Urgency of a job without any prediction (before the first job of a replay finishes): after every predicted one. */
    static final double UNKNOWN_URGENCY_GPU_S = 1e9;
    static final int LONGEST_WAITING = 2;
    static final int MAX_PREEMPTION_TRIALS = 16;
    static final double AGE_WEIGHT = 0.1;

    private static final double LN_1E6 = Math.log(1e6);
    private static final double LN_1E7 = Math.log(1e7);
    private static final double LN_1001 = Math.log(1001);
    private static final int GLOBALS = 4;

    private final int windowJobs;
    private final int nodesPerJob;
    private final double priorWeight;
    private final boolean extended;

    public Features(int windowJobs, int nodesPerJob, double priorWeight) {
        this(windowJobs, nodesPerJob, priorWeight, false);
    }

    /** @param extended true: each candidate also carries {@link #EXTRA_NAMES} */
    public Features(int windowJobs, int nodesPerJob, double priorWeight, boolean extended) {
        if (windowJobs <= LONGEST_WAITING || nodesPerJob < 2) {
            throw new IllegalArgumentException("windowJobs > " + LONGEST_WAITING + " and nodesPerJob ≥ 2 needed, got "
                    + windowJobs + " and " + nodesPerJob);
        }
        if (!(priorWeight >= 0)) {
            throw new IllegalArgumentException("priorWeight must be ≥ 0, got " + priorWeight);
        }
        this.windowJobs = windowJobs;
        this.nodesPerJob = nodesPerJob;
        this.priorWeight = priorWeight;
        this.extended = extended;
    }

    /** Features per candidate. */
    public int count() {
        return extended ? COUNT + EXTRA_NAMES.size() : COUNT;
    }

    /** Their names, in order. */
    public List<String> names() {
        if (!extended) {
            return NAMES;
        }
        List<String> all = new ArrayList<>(NAMES);
        all.addAll(EXTRA_NAMES);
        return List.copyOf(all);
    }

    /**
     * The prior's urgency of a job (GPU-seconds, lower runs first): predicted remaining GPU service while the job
     * is within its prediction, its attained GPU service once it has outlived it. Uses the prediction made at
     * submission, never the true duration.
     */
    public static double priorUrgencyGpuS(JobRequest job, double attainedGpuS) {
        double predicted = job.predictedDurationS();
        if (!(predicted >= 0)) {
            return UNKNOWN_URGENCY_GPU_S + attainedGpuS;
        }
        double remaining = predicted * Math.max(1.0, job.gpus()) - attainedGpuS;
        return remaining > 0 ? remaining : attainedGpuS;
    }

    /**
     * The job part of the prior logit: −priorWeight × ln(1 + urgency ÷ 60 GPU-s) + {@value #AGE_WEIGHT} × ln(1 + waited
     * ÷ 60 s). The age term makes the older of two equally urgent jobs go first (jobs of one user and shape share a
     * prediction, so ties are common) by a margin that a small learned correction does not overturn.
     */
    double jobPrior(double urgencyGpuS, double waitedS) {
        return -priorWeight * Math.log1p(urgencyGpuS / 60.0) + AGE_WEIGHT * Math.log1p(Math.max(0, waitedS) / 60.0);
    }

    private record Offered(JobRequest job, double urgency, List<VictimChooser.Candidate> victims) {
    }

    /** Candidates for the jobs of {@code pending} (arrival order) on the cluster as tentatively charged so far. */
    CandidateSet build(double now, List<JobRequest> pending, TentativeCluster cluster) {
        return build(now, new RoundQueue(pending, cluster), cluster, new ObservedRuntimes());
    }

    /**
     * Candidates for the jobs still waiting in {@code pending} on the cluster as tentatively charged so far;
     * {@code seen} is what the policy has seen its users' jobs do (read only with the extra features).
     */
    CandidateSet build(double now, RoundQueue pending, TentativeCluster cluster, ObservedRuntimes seen) {
        int width = count();
        int[] reps = Arrays.stream(nodeClasses(cluster)).distinct().toArray();
        List<Offered> window = window(pending, cluster, reps);

        double clusterGpu = 0;
        for (int i = 0; i < cluster.size(); i++) {
            clusterGpu += cluster.nodes().capacity(i).gpuMilli();
        }
        double allocatedGpu = clusterGpu - cluster.nodes().freeGpuTotal();
        double queuedGpu = pending.queuedGpuMilli();
        int runningTasks = cluster.totalRunningTasks();
        float[] global = {
                (float) (Math.log1p(pending.waiting()) / LN_1001),
                (float) (clusterGpu > 0 ? allocatedGpu / clusterGpu : 0),
                (float) Math.log1p(clusterGpu > 0 ? queuedGpu / clusterGpu : 0),
                (float) Math.min(1.0, runningTasks / (8.0 * Math.max(1, cluster.size())))};

        long smallestGpu = Long.MAX_VALUE;
        for (Offered o : window) {
            smallestGpu = Math.min(smallestGpu, o.job().perTask().gpuMilli());
        }
        double[] urgencyRank = ranks(window);

        List<float[]> rows = new ArrayList<>();
        List<Boolean> mask = new ArrayList<>();
        List<String> jobIds = new ArrayList<>();
        List<Integer> nodes = new ArrayList<>();
        boolean anyJob = false;
        for (int w = 0; w < window.size(); w++) {
            Offered o = window.get(w);
            JobRequest job = o.job();
            double attained = cluster.attainedGpuS(job);
            if (o.victims().isEmpty()) {
                long clusterSlots = cluster.clusterSlots(job.perTask());
                for (int node : nodesFor(job, cluster, reps, clusterSlots)) {
                    boolean ok = cluster.canAnchor(job, node, clusterSlots);
                    anyJob |= ok;
                    rows.add(row(now, o, attained, urgencyRank[w], node, cluster, smallestGpu, global, 0, pending, seen));
                    mask.add(ok);
                    jobIds.add(job.id());
                    nodes.add(node);
                }
            } else {
                TentativeCluster after = cluster.without(o.victims());
                int anchor = after.mostAllocatedAnchor(job);
                double stoppedGpus = 0;
                for (VictimChooser.Candidate v : o.victims()) {
                    stoppedGpus += v.gpus();
                }
                rows.add(row(now, o, attained, urgencyRank[w], anchor, after, smallestGpu, global, stoppedGpus, pending,
                        seen));
                mask.add(true);
                anyJob = true;
                jobIds.add(job.id());
                nodes.add(anchor);
            }
        }
        float[] wait = new float[width];
        wait[0] = 1;
        System.arraycopy(global, 0, wait, COUNT - GLOBALS, GLOBALS);
        rows.add(wait);
        mask.add(!anyJob && runningTasks > 0);
        jobIds.add(null);
        nodes.add(-1);

        int n = rows.size();
        float[] features = new float[n * width];
        boolean[] m = new boolean[n];
        String[] ids = jobIds.toArray(new String[0]);
        int[] nodeIdx = new int[n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(rows.get(i), 0, features, i * width, width);
            m[i] = mask.get(i);
            nodeIdx[i] = nodes.get(i);
        }
        return new CandidateSet(features, m, ids, nodeIdx, n);
    }

    private float[] row(double now, Offered o, double attainedGpuS, double urgencyRank, int node, TentativeCluster c,
                        long smallestGpu, float[] global, double stoppedGpus, RoundQueue queue, ObservedRuntimes seen) {
        JobRequest job = o.job();
        Resources t = job.perTask();
        float[] f = new float[count()];
        double predicted = job.predictedDurationS();
        boolean hasPrediction = predicted >= 0;
        GangPlacer n = c.nodes();
        Resources cap = n.capacity(node);
        Resources free = n.free(node);
        long onNode = Math.max(0, Math.min(job.tasks(), c.slots(node, t)));
        double freeAfter = c.meanFreeRatioAfter(node, t, onNode);
        f[1] = (float) ((jobPrior(o.urgency(), now - job.submitTime()) - freeAfter) / PRIOR_SCALE);
        f[2] = (float) TentativeCluster.ratio(t.gpuMilli(), cap.gpuMilli());
        f[3] = (float) TentativeCluster.ratio(t.cpuMilli(), cap.cpuMilli());
        f[4] = (float) TentativeCluster.ratio(t.memoryMib(), cap.memoryMib());
        f[5] = (float) (Math.log(job.tasks()) / Math.log(2) / 4);
        f[6] = hasPrediction ? (float) (Math.log1p(predicted) / LN_1E6) : 0f;
        f[7] = hasPrediction ? 1f : 0f;
        f[8] = (float) (Math.log1p(attainedGpuS) / LN_1E7);
        f[9] = hasPrediction && attainedGpuS >= predicted * Math.max(1.0, job.gpus()) ? 1f : 0f;
        f[10] = (float) urgencyRank;
        f[11] = (float) (Math.log1p(Math.max(0, now - job.submitTime())) / LN_1E6);
        f[12] = (float) Math.tanh(job.priority() / 100.0);
        f[13] = (float) TentativeCluster.ratio(free.gpuMilli(), cap.gpuMilli());
        f[14] = (float) TentativeCluster.ratio(free.cpuMilli(), cap.cpuMilli());
        f[15] = (float) TentativeCluster.ratio(free.memoryMib(), cap.memoryMib());
        f[16] = (float) Math.min(1.0, n.runningTasks(node) / 16.0);
        f[17] = (float) freeAfter;
        long gpuLeft = free.gpuMilli() - onNode * t.gpuMilli();
        // A GPU remainder too small for any job in sight is capacity the placement strands.
        f[18] = gpuLeft > 0 && gpuLeft < smallestGpu ? (float) TentativeCluster.ratio(gpuLeft, cap.gpuMilli()) : 0f;
        f[19] = (float) onNode / job.tasks();
        f[NEEDS_PREEMPTION_INDEX] = o.victims().isEmpty() ? 0f : 1f;
        f[21] = (float) Math.min(1.0, stoppedGpus / Math.max(1.0, job.gpus()) / 4);
        System.arraycopy(global, 0, f, COUNT - GLOBALS, GLOBALS);
        if (extended) {
            QueueAndHistoryFeatures.fill(f, COUNT, job, queue, seen);
        }
        return f;
    }

    /** Class id per node: the index of the first node with identical capacity, free resources and running count. */
    private static int[] nodeClasses(TentativeCluster c) {
        record Key(long cg, long cc, long cm, long fg, long fc, long fm, int r) {
        }
        Map<Key, Integer> first = new HashMap<>();
        int[] cls = new int[c.size()];
        for (int i = 0; i < c.size(); i++) {
            final int node = i;
            Resources cap = c.nodes().capacity(i);
            Resources free = c.nodes().free(i);
            cls[i] = first.computeIfAbsent(new Key(cap.gpuMilli(), cap.cpuMilli(), cap.memoryMib(), free.gpuMilli(),
                    free.cpuMilli(), free.memoryMib(), c.nodes().runningTasks(i)), k -> node);
        }
        return cls;
    }

    /** The jobs offered: the most urgent that can start (by free space or by preemption), then the longest-waiting that fit. */
    private List<Offered> window(RoundQueue pending, TentativeCluster c, int[] reps) {
        int n = pending.size();
        List<Offered> chosen = new ArrayList<>(windowJobs);
        Set<String> ids = new HashSet<>();
        int byUrgency = windowJobs - LONGEST_WAITING;
        int trials = 0;
        boolean preempt = c.mayPreempt();
        for (int k = 0; k < n && chosen.size() < byUrgency; k++) {
            int i = pending.byUrgency(k);
            if (pending.taken(i)) {
                continue;
            }
            JobRequest j = pending.job(i);
            if (fitsSomewhere(j, c, reps)) {
                chosen.add(new Offered(j, pending.urgency(i), List.of()));
                ids.add(j.id());
            } else if (preempt && trials < MAX_PREEMPTION_TRIALS) {
                trials++;
                List<VictimChooser.Candidate> victims = c.victimsFor(j, pending.urgency(i));
                if (victims != null && !victims.isEmpty()) {
                    chosen.add(new Offered(j, pending.urgency(i), victims));
                    ids.add(j.id());
                }
            }
        }
        // By arrival, so the longest-waiting jobs come first.
        for (int i = 0; i < n && chosen.size() < windowJobs; i++) {
            JobRequest j = pending.job(i);
            if (!pending.taken(i) && !ids.contains(j.id()) && fitsSomewhere(j, c, reps)) {
                chosen.add(new Offered(j, pending.urgency(i), List.of()));
                ids.add(j.id());
            }
        }
        return chosen;
    }

    private static boolean fitsSomewhere(JobRequest j, TentativeCluster c, int[] reps) {
        Resources t = j.perTask();
        for (int r : reps) {
            if (c.slots(r, t) >= 1) {
                return c.clusterSlots(t) >= j.tasks();
            }
        }
        return false;
    }

    /** Node classes offered for one job: feasible ones split between fullest and emptiest after placement, then masked ones. */
    private List<Integer> nodesFor(JobRequest job, TentativeCluster c, int[] reps, long clusterSlots) {
        List<Integer> feasible = new ArrayList<>();
        List<Integer> infeasible = new ArrayList<>();
        for (int r : reps) {
            (c.canAnchor(job, r, clusterSlots) ? feasible : infeasible).add(r);
        }
        List<Integer> out = new ArrayList<>(nodesPerJob);
        if (feasible.size() <= nodesPerJob) {
            out.addAll(feasible);
        } else {
            Resources t = job.perTask();
            feasible.sort(Comparator.comparingDouble((Integer i) -> c.meanFreeRatioAfter(i, t, 1)).thenComparingInt(i -> i));
            int packed = nodesPerJob / 2;
            out.addAll(feasible.subList(0, packed));
            out.addAll(feasible.subList(feasible.size() - (nodesPerJob - packed), feasible.size()));
        }
        for (int i = 0; i < infeasible.size() && out.size() < nodesPerJob; i++) {
            out.add(infeasible.get(i));
        }
        return out;
    }

    /** Rank of each offered job's urgency within the window, 0 (most urgent) to 1. */
    private static double[] ranks(List<Offered> window) {
        int n = window.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> window.get(i).urgency()));
        double[] rank = new double[n];
        for (int r = 0; r < n; r++) {
            rank[order[r]] = n == 1 ? 0 : (double) r / (n - 1);
        }
        return rank;
    }
}
