package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the candidate set of one decision and the normalised features of each candidate (DESIGN §2,
 * SAC). Only what a deployable scheduler knows is read: requests, the predicted duration filled in at
 * submission ({@link JobRequest#predictedDurationS()}), never the true one.
 *
 * <p>Which jobs: at most {@code windowJobs} pending jobs that fit somewhere now, half the longest-waiting
 * and half the smallest predicted GPU service (predicted duration × GPUs), so the agent can choose between
 * serving old jobs and short ones. Which nodes: nodes whose free resources, capacity and running count are
 * identical give identical features, so only one representative of each such class is offered; per job at
 * most {@code nodesPerJob} classes, half the ones left fullest and half left emptiest after placement (so
 * both packing and spreading stay possible on a 1,000-node cluster), then classes where the job does not
 * fit, masked. The last candidate is "wait", masked when nothing is running (nothing would ever wake the
 * round up again).
 */
public final class Features {

    /** The names of the features, in order; written into every checkpoint's metadata. */
    public static final List<String> NAMES = List.of(
            "is_wait",
            "job_gpu_per_task_over_node_gpu", "job_cpu_per_task_over_node_cpu", "job_mem_per_task_over_node_mem",
            "job_gang_size_log2_over_4", "job_predicted_duration_log1p_over_ln1e6", "job_has_prediction",
            "job_predicted_service_rank_in_window", "job_waited_log1p_over_ln1e6", "job_owner_priority_tanh_over_100",
            "node_free_gpu_frac", "node_free_cpu_frac", "node_free_mem_frac", "node_running_tasks_over_16",
            "pair_mean_free_frac_after", "pair_gpu_fragment_left_frac", "pair_gang_share_on_node",
            "global_queue_length_log1p_over_ln1001", "global_gpu_allocated_frac",
            "global_queued_gpu_demand_over_cluster_gpus_log1p", "global_running_tasks_over_nodes_over_8");

    public static final int COUNT = NAMES.size();
    private static final double LN_1E6 = Math.log(1e6);
    private static final double LN_1001 = Math.log(1001);

    private final int windowJobs;
    private final int nodesPerJob;

    public Features(int windowJobs, int nodesPerJob) {
        if (windowJobs < 1 || nodesPerJob < 2) {
            throw new IllegalArgumentException("windowJobs ≥ 1 and nodesPerJob ≥ 2 needed");
        }
        this.windowJobs = windowJobs;
        this.nodesPerJob = nodesPerJob;
    }

    /** Candidates for the jobs of {@code pending} (arrival order) on the cluster as tentatively charged so far. */
    CandidateSet build(double now, List<JobRequest> pending, TentativeCluster cluster) {
        int[] classOf = nodeClasses(cluster);
        int[] reps = Arrays.stream(classOf).distinct().toArray();
        List<JobRequest> window = window(pending, cluster, reps);

        double clusterGpu = 0;
        double allocatedGpu = 0;
        for (int i = 0; i < cluster.size(); i++) {
            clusterGpu += cluster.capGpu[i];
            allocatedGpu += cluster.capGpu[i] - cluster.freeGpu[i];
        }
        double queuedGpu = 0;
        for (JobRequest j : pending) {
            queuedGpu += j.total().gpuMilli();
        }
        int runningTasks = cluster.totalRunningTasks();
        float[] global = {
                (float) (Math.log1p(pending.size()) / LN_1001),
                (float) (clusterGpu > 0 ? allocatedGpu / clusterGpu : 0),
                (float) Math.log1p(clusterGpu > 0 ? queuedGpu / clusterGpu : 0),
                (float) Math.min(1.0, runningTasks / (8.0 * Math.max(1, cluster.size())))};

        long smallestGpu = Long.MAX_VALUE;
        for (JobRequest j : window) {
            smallestGpu = Math.min(smallestGpu, j.perTask().gpuMilli());
        }
        double[] serviceRank = serviceRanks(window);

        List<float[]> rows = new ArrayList<>();
        List<Boolean> mask = new ArrayList<>();
        List<String> jobIds = new ArrayList<>();
        List<Integer> nodes = new ArrayList<>();
        for (int w = 0; w < window.size(); w++) {
            JobRequest job = window.get(w);
            long clusterSlots = cluster.clusterSlots(job.perTask());
            for (int node : nodesFor(job, cluster, reps, clusterSlots)) {
                boolean ok = cluster.canAnchor(job, node, clusterSlots);
                rows.add(row(now, job, serviceRank[w], node, cluster, smallestGpu, global));
                mask.add(ok);
                jobIds.add(job.id());
                nodes.add(node);
            }
        }
        float[] wait = new float[COUNT];
        wait[0] = 1;
        System.arraycopy(global, 0, wait, COUNT - global.length, global.length);
        rows.add(wait);
        mask.add(runningTasks > 0);
        jobIds.add(null);
        nodes.add(-1);

        int n = rows.size();
        float[] features = new float[n * COUNT];
        boolean[] m = new boolean[n];
        String[] ids = jobIds.toArray(new String[0]);
        int[] nodeIdx = new int[n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(rows.get(i), 0, features, i * COUNT, COUNT);
            m[i] = mask.get(i);
            nodeIdx[i] = nodes.get(i);
        }
        return new CandidateSet(features, m, ids, nodeIdx, n);
    }

    private float[] row(double now, JobRequest job, double serviceRank, int node, TentativeCluster c, long smallestGpu,
                        float[] global) {
        Resources t = job.perTask();
        float[] f = new float[COUNT];
        double predicted = job.predictedDurationS();
        boolean hasPrediction = predicted >= 0;
        f[1] = (float) TentativeCluster.ratio(t.gpuMilli(), c.capGpu[node]);
        f[2] = (float) TentativeCluster.ratio(t.cpuMilli(), c.capCpu[node]);
        f[3] = (float) TentativeCluster.ratio(t.memoryMib(), c.capMem[node]);
        f[4] = (float) (Math.log(job.tasks()) / Math.log(2) / 4);
        f[5] = hasPrediction ? (float) (Math.log1p(predicted) / LN_1E6) : 0f;
        f[6] = hasPrediction ? 1f : 0f;
        f[7] = (float) serviceRank;
        f[8] = (float) (Math.log1p(Math.max(0, now - job.submitTime())) / LN_1E6);
        f[9] = (float) Math.tanh(job.priority() / 100.0);
        f[10] = (float) TentativeCluster.ratio(c.freeGpu[node], c.capGpu[node]);
        f[11] = (float) TentativeCluster.ratio(c.freeCpu[node], c.capCpu[node]);
        f[12] = (float) TentativeCluster.ratio(c.freeMem[node], c.capMem[node]);
        f[13] = (float) Math.min(1.0, c.running[node] / 16.0);
        long onNode = Math.max(0, Math.min(job.tasks(), c.slots(node, t)));
        f[14] = (float) c.meanFreeRatioAfter(node, t, onNode);
        long gpuLeft = c.freeGpu[node] - onNode * t.gpuMilli();
        // A GPU remainder too small for any job in sight is capacity the placement strands.
        f[15] = gpuLeft > 0 && gpuLeft < smallestGpu ? (float) TentativeCluster.ratio(gpuLeft, c.capGpu[node]) : 0f;
        f[16] = (float) onNode / job.tasks();
        System.arraycopy(global, 0, f, COUNT - global.length, global.length);
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
            cls[i] = first.computeIfAbsent(new Key(c.capGpu[i], c.capCpu[i], c.capMem[i], c.freeGpu[i], c.freeCpu[i],
                    c.freeMem[i], c.running[i]), k -> node);
        }
        return cls;
    }

    /** The jobs offered: among those that fit now, half longest-waiting, half smallest predicted service. */
    private List<JobRequest> window(List<JobRequest> pending, TentativeCluster c, int[] reps) {
        List<JobRequest> fitting = new ArrayList<>();
        for (JobRequest j : pending) {
            if (fitsSomewhere(j, c, reps)) {
                fitting.add(j);
            }
        }
        if (fitting.size() <= windowJobs) {
            return fitting;
        }
        List<JobRequest> chosen = new ArrayList<>(windowJobs);
        int oldest = windowJobs - windowJobs / 2;
        // pending is in arrival order, so the longest-waiting fitting jobs are the first ones.
        chosen.addAll(fitting.subList(0, oldest));
        List<JobRequest> rest = new ArrayList<>(fitting.subList(oldest, fitting.size()));
        rest.sort(Comparator.comparingDouble(Features::predictedService).thenComparingDouble(JobRequest::submitTime)
                .thenComparing(JobRequest::id));
        chosen.addAll(rest.subList(0, windowJobs - oldest));
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

    private static double predictedService(JobRequest j) {
        double d = j.predictedDurationS();
        return d >= 0 ? d * Math.max(1.0, j.gpus()) : Double.POSITIVE_INFINITY;
    }

    /** Rank of each job's predicted service within the window, 0 (smallest) to 1; unknown predictions rank last. */
    private static double[] serviceRanks(List<JobRequest> window) {
        int n = window.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> predictedService(window.get(i))));
        double[] rank = new double[n];
        for (int r = 0; r < n; r++) {
            rank[order[r]] = n == 1 ? 0 : (double) r / (n - 1);
        }
        return rank;
    }
}
