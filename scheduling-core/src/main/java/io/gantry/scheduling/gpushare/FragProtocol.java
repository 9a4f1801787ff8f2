package io.gantry.scheduling.gpushare;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The evaluation protocol of the FGD paper (§5.1: "pods are drawn from the trace and arrive one by one, never leaving,
 * until the arrived GPU requests reach 130% of the cluster's GPU capacity"), as its simulator runs it
 * ({@code pkg/simulator/core.go}: shuffle the pod list with the seed ({@code shufflePod: true}), then
 * {@code TunePodsByNodeTotalResource} with {@code ratio: 1.3} appends pods drawn with replacement from the list until
 * the next one would pass 130%, or removes random pods while over it). Each pod gets one scheduling cycle; one that
 * fits nowhere stays unplaced. At every whole percent of arrived GPU requests the allocation ratio and the
 * fragmentation are recorded.
 */
public final class FragProtocol {

    /** Sees every placement as it happens (tests check invariants there). */
    public interface Observer {
        void placed(GpuPod pod, ScoringPlacer.Placement where, DeviceCluster cluster);
    }

    /** Progress on long runs: {@code done} of {@code total} pods have arrived. */
    public interface Progress {
        void update(int done, int total);
    }

    private final List<GpuNode> nodes;
    private final List<GpuPod> podList;
    private final TargetWorkload measure;
    private final double arrivalRatio;

    /** {@code measure}: the target workload the fragmentation is reported against (the pod list's typical pods). */
    public FragProtocol(List<GpuNode> nodes, List<GpuPod> podList, TargetWorkload measure, double arrivalRatio) {
        if (nodes.isEmpty() || podList.isEmpty()) {
            throw new IllegalArgumentException("the protocol needs nodes and pods");
        }
        if (!(arrivalRatio > 0)) {
            throw new IllegalArgumentException("arrival ratio must be positive, got " + arrivalRatio);
        }
        this.nodes = List.copyOf(nodes);
        this.podList = List.copyOf(podList);
        this.measure = measure;
        this.arrivalRatio = arrivalRatio;
    }

    /** The arrival sequence of {@code seed}: the list shuffled, then topped up (or cut) to the arrival ratio. */
    public List<GpuPod> arrivals(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<GpuPod> pods = new ArrayList<>(podList);
        for (int i = pods.size() - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            GpuPod t = pods.get(i);
            pods.set(i, pods.get(j));
            pods.set(j, t);
        }
        double target = arrivalRatio * new DeviceCluster(nodes).totalGpuMilli();
        long requested = pods.stream().mapToLong(p -> p.shape().totalGpuMilli()).sum();
        while (requested > target) {
            requested -= pods.remove(rnd.nextInt(pods.size())).shape().totalGpuMilli();
        }
        int copy = 0;
        while (true) {
            GpuPod drawn = podList.get(rnd.nextInt(podList.size()));
            if (requested + drawn.shape().totalGpuMilli() > target) {
                break;
            }
            requested += drawn.shape().totalGpuMilli();
            pods.add(new GpuPod(drawn.name() + "-tuned-" + copy++, drawn.shape(), drawn.memoryMib()));
        }
        return pods;
    }

    /** Runs {@code scorer} on the arrivals of {@code seed} (its tie-breaks drawn from a generator of the same seed). */
    public FragCurve run(GpuScorer scorer, long seed, Observer observer, Progress progress) {
        List<GpuPod> pods = arrivals(seed);
        long start = System.nanoTime();
        DeviceCluster cluster = new DeviceCluster(nodes);
        ScoringPlacer placer = new ScoringPlacer(cluster, scorer, new SplittableRandom(seed).split());
        int maxPercent = (int) Math.round(arrivalRatio * 100);
        double[] alloc = new double[maxPercent + 1];
        double[] frag = new double[maxPercent + 1];
        double[] fragOfIdle = new double[maxPercent + 1];
        double capacity = cluster.totalGpuMilli();
        long arrived = 0;
        int next = 0;
        int placed = 0;
        for (int i = 0; i < pods.size(); i++) {
            while (next <= maxPercent && arrived >= next * capacity / 100) {
                record(cluster, next++, alloc, frag, fragOfIdle);
            }
            GpuPod pod = pods.get(i);
            ScoringPlacer.Placement where = placer.place(pod);
            arrived += pod.shape().totalGpuMilli();
            if (where != null) {
                placed++;
                if (observer != null) {
                    observer.placed(pod, where, cluster);
                }
            }
            if (progress != null && (i % 256 == 0 || i + 1 == pods.size())) {
                progress.update(i + 1, pods.size());
            }
        }
        // Arrivals stop just short of the last percent (the next pod would pass it): that point is the final state.
        while (next <= maxPercent) {
            record(cluster, next++, alloc, frag, fragOfIdle);
        }
        return new FragCurve(alloc, frag, fragOfIdle, pods.size(), placed, (System.nanoTime() - start) / 1e9);
    }

    private void record(DeviceCluster c, int percent, double[] alloc, double[] frag, double[] fragOfIdle) {
        double capacity = c.totalGpuMilli();
        double f = Fragmentation.ofCluster(c, measure);
        double idle = capacity - c.allocatedGpuMilli();
        alloc[percent] = 100 * c.allocatedGpuMilli() / capacity;
        frag[percent] = 100 * f / capacity;
        fragOfIdle[percent] = idle > 0 ? 100 * f / idle : 0;
    }
}
