package io.gantry.scheduling.pollux;

import io.gantry.scheduling.framework.Decision;
import io.gantry.scheduling.framework.ElasticPolicy;
import io.gantry.scheduling.framework.Placement;
import io.gantry.scheduling.framework.RunningJob;
import io.gantry.scheduling.framework.SchedulingContext;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeState;
import io.gantry.scheduling.model.Resources;
import io.gantry.scheduling.trace.SharedTraces;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pollux (Qiao et al., "Pollux: Co-adaptive Cluster Scheduling for Goodput-Optimized Deep Learning", OSDI 2021) as
 * a baseline: a peer's method, not Gantry's. Every {@value #INTERVAL_S} s of the caller's clock (Pollux §4.2; the
 * simulator's {@code interval=60}) it re-optimises the whole cluster's allocation with {@link AllocationSearch} on
 * {@link PolluxFitness} (p = {@value #FAIRNESS_P}); each job then trains at the batch size (and AdaScale learning
 * rate) that maximises its goodput on what it got ({@link GoodputOptimizer}), which {@link PolluxJobModel} times.
 *
 * <p>A running job whose allocation changes is stopped and placed again on its new GPUs (one task per GPU) in a
 * follow-up round {@value #FOLLOW_UP_S} s later; each new allocation costs the job model's 30 s restart delay, as
 * in Pollux's simulator. Jobs that arrive or GPUs freed between two re-optimisations wait for the next one, as in
 * Pollux's simulator, which steps its jobs and calls the policy once per interval. Job order for the node-capacity
 * repair is Pollux's: least attained service, then earliest submission. Jobs of the {@code ncf} application never
 * get more than one GPU ({@code simulator.py}).
 */
public final class PolluxPolicy implements ElasticPolicy {

    public static final String NAME = "pollux";
    static final double INTERVAL_S = 60;
    static final double FOLLOW_UP_S = 1e-3;
    static final double FAIRNESS_P = -1;
    private static final int MAX_REPLICAS = 64;

    private final PolluxJobModel model;
    private final AllocationSearch search;
    private final Map<String, PolluxJobState> states = new HashMap<>();
    /** Jobs stopped by the last re-optimisation and the GPUs (one node name each) they restart on. */
    private final Map<String, List<String>> restartOn = new LinkedHashMap<>();
    private double nextTick = Double.NaN;
    private Resources perGpu;

    public PolluxPolicy(PolluxJobModel model, long seed) {
        this.model = model;
        this.search = new AllocationSearch(seed);
    }

    /** Pollux's application profiles from the shared traces ({@code philly-pollux/app-profiles}). */
    public PolluxPolicy() {
        this(new PolluxJobModel(SharedTraces.tracesDir().resolve("philly-pollux").resolve("app-profiles")), 1);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public JobModel jobModel() {
        return model;
    }

    /** One task per GPU, each with a GPU's share of a node's CPU and memory. */
    @Override
    public JobRequest resized(JobRequest job, int tasks) {
        return new JobRequest(job.id(), job.user(), tasks, perGpu, job.submitTime(), job.priority(),
                job.predictedDurationS(), job.trueDurationS());
    }

    @Override
    public Decision decide(SchedulingContext ctx) {
        double now = ctx.now();
        NodeState first = ctx.cluster().nodes().get(0);
        double gpusPerNode = first.capacity().gpus();
        perGpu = new Resources(1000, Math.round(first.capacity().cpuMilli() / gpusPerNode),
                Math.round(first.capacity().memoryMib() / gpusPerNode));
        if (!Double.isNaN(nextTick) && now < nextTick - 1e-9) {
            return followUp(ctx);
        }
        nextTick = Double.isNaN(nextTick) ? now + INTERVAL_S : nextTick + INTERVAL_S * Math.ceil((now - nextTick + 1e-9) / INTERVAL_S);
        return reoptimise(ctx);
    }

    /** Places the jobs stopped at the last re-optimisation on their new GPUs. */
    private Decision followUp(SchedulingContext ctx) {
        List<Placement> placements = new ArrayList<>();
        for (JobRequest j : ctx.pending()) {
            List<String> gpus = restartOn.remove(j.id());
            if (gpus != null) {
                placements.add(placed(j, gpus));
            }
        }
        restartOn.clear(); // a stopped job that is not pending again (none in the simulator) waits for the next tick
        return new Decision(placements, List.of(), nextTick);
    }

    private Decision reoptimise(SchedulingContext ctx) {
        restartOn.clear();
        List<NodeState> nodes = ctx.cluster().nodes();
        Map<String, Integer> nodeIndex = new HashMap<>();
        int[] nodeGpus = new int[nodes.size()];
        int clusterGpus = 0;
        for (int n = 0; n < nodes.size(); n++) {
            nodeIndex.put(nodes.get(n).name(), n);
            nodeGpus[n] = (int) Math.round(nodes.get(n).capacity().gpus());
            clusterGpus += nodeGpus[n];
        }
        List<Candidate> jobs = candidates(ctx, nodeIndex, nodes.size());
        if (jobs.isEmpty()) {
            return new Decision(List.of(), List.of(), Double.NaN); // idle: the next arrival starts the cadence again
        }
        List<PolluxFitness.JobView> views = new ArrayList<>(jobs.size());
        for (Candidate c : jobs) {
            views.add(view(c, ctx.now(), jobs.size(), nodes.size(), clusterGpus));
        }
        PolluxFitness fitness = new PolluxFitness(views, nodes.size(), clusterGpus, FAIRNESS_P);
        int[][] target = search.search(fitness, nodeGpus);
        return apply(ctx, jobs, target, nodes);
    }

    /** A job in this round: pending or running, with its progress now and its current GPUs per node. */
    private record Candidate(JobRequest job, RunningJob running, double progress, int[] current, double attained) {
    }

    private List<Candidate> candidates(SchedulingContext ctx, Map<String, Integer> nodeIndex, int nodes) {
        List<Candidate> out = new ArrayList<>();
        for (RunningJob r : ctx.running()) {
            PolluxJobState st = state(r.job().id());
            double trained = Math.max(0, ctx.now() - r.startedAt() - model.restartDelayS());
            double progress = model.progressAfter(r.job(), r.nodes(), st.progressAtStart, trained);
            int[] row = new int[nodes];
            for (String n : r.nodes()) {
                row[nodeIndex.get(n)]++;
            }
            out.add(new Candidate(r.job(), r, progress, row, r.attainedGpuSecondsAt(ctx.now())));
        }
        for (JobRequest j : ctx.pending()) {
            out.add(new Candidate(j, null, state(j.id()).progressAtStart, new int[nodes], ctx.attainedGpuSeconds(j)));
        }
        out.sort(Comparator.comparingDouble(Candidate::attained)
                .thenComparingDouble(c -> c.job().submitTime()).thenComparing(c -> c.job().id()));
        return out;
    }

    private PolluxFitness.JobView view(Candidate c, double now, int jobCount, int nodes, int clusterGpus) {
        PolluxJobState st = state(c.job().id());
        GoodputOptimizer g = model.fitted(c.job().user());
        int epoch = model.epochAt(c.job(), c.progress());
        int maxReplicas = "ncf".equals(c.job().user()) ? 1
                : Math.min(Math.min(Math.max(2 * st.maxProfiledReplicas, 1), MAX_REPLICAS),
                (int) (g.model().maxBatch() / g.model().minLocalBsz()));
        maxReplicas = Math.max(1, Math.min(maxReplicas, clusterGpus));
        double base = PolluxFitness.fairGoodput(g, epoch, jobCount, nodes, clusterGpus);
        double factor = PolluxFitness.restartFactor(now - c.job().submitTime(), st.restarts);
        boolean pinned = c.running() != null && !c.running().preemptible();
        return new PolluxFitness.JobView(c.job().id(), g, epoch, base, factor, c.current(), maxReplicas, pinned);
    }

    /** Stops every running job whose GPUs change, places pending jobs now and the stopped ones in the follow-up. */
    private Decision apply(SchedulingContext ctx, List<Candidate> jobs, int[][] target, List<NodeState> nodes) {
        List<Placement> placements = new ArrayList<>();
        List<String> stop = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            Candidate c = jobs.get(j);
            if (java.util.Arrays.equals(target[j], c.current())) {
                continue;
            }
            List<String> gpus = new ArrayList<>();
            for (int n = 0; n < target[j].length; n++) {
                for (int k = 0; k < target[j][n]; k++) {
                    gpus.add(nodes.get(n).name());
                }
            }
            if (c.running() != null) {
                stop.add(c.job().id());
                state(c.job().id()).progressAtStart = c.progress();
                if (!gpus.isEmpty()) {
                    restartOn.put(c.job().id(), gpus);
                }
            } else if (!gpus.isEmpty()) {
                placements.add(placed(c.job(), gpus));
            }
        }
        double wake = restartOn.isEmpty() ? nextTick : ctx.now() + FOLLOW_UP_S;
        return new Decision(placements, stop, wake);
    }

    private Placement placed(JobRequest job, List<String> gpus) {
        PolluxJobState st = state(job.id());
        if (st.starts++ > 0) {
            st.restarts++;
        }
        st.maxProfiledReplicas = Math.max(st.maxProfiledReplicas, gpus.size());
        return new Placement(job.id(), gpus);
    }

    private PolluxJobState state(String id) {
        return states.computeIfAbsent(id, k -> new PolluxJobState());
    }
}
