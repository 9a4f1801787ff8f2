package io.gantry.scheduling.gpushare;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.random.RandomGenerator;

/**
 * One scheduling cycle per pod, as the Kubernetes scheduler framework runs it in the FGD study's simulator (with
 * {@code percentageOfNodesToScore: 100}): filter the nodes that admit the pod, score each with the plugin, normalise,
 * and bind to a node of the highest score, drawn uniformly among ties (the scheduler's {@code selectHost}); the
 * plugin then picks the devices. A pod no node admits stays unplaced (the protocol never retries it).
 * <p>
 * For a {@linkplain GpuScorer#cacheable cacheable} plugin the score of a node for a pod shape is kept until that node
 * changes or the plugin's epoch moves: one placement changes one node, so the 1,213-node cluster is rescored only where
 * it changed.
 */
public final class ScoringPlacer {

    /** Where a pod went: the node and its devices. */
    public record Placement(int node, int[] devices) {
    }

    private static final IntPredicate ALL_NODES = n -> true;

    private final DeviceCluster cluster;
    private final GpuScorer scorer;
    private final RandomGenerator tieBreak;
    private final int[] candidates;
    private final long[] scores;
    private final Map<PodShape, Integer> shapeIds = new HashMap<>();
    /** Per shape id, per node: the node version and scorer epoch the cached score was computed for. */
    private final List<long[]> stamps = new ArrayList<>();
    private final List<long[]> cached = new ArrayList<>();
    private long epochSeen;

    public ScoringPlacer(DeviceCluster cluster, GpuScorer scorer, RandomGenerator tieBreak) {
        this.cluster = cluster;
        this.scorer = scorer;
        this.tieBreak = tieBreak;
        this.candidates = new int[cluster.size()];
        this.scores = new long[cluster.size()];
        this.epochSeen = scorer.epoch();
    }

    public GpuScorer scorer() {
        return scorer;
    }

    /** Tells the plugin of the arrival, then places the pod; {@code null} when no node admits it. */
    public Placement place(GpuPod pod) {
        scorer.arrived(pod);
        return placeArrived(pod, ALL_NODES);
    }

    /**
     * Places a pod the plugin was already told of ({@link GpuScorer#arrived}), on one of the nodes {@code eligible}
     * accepts (the live scheduler leaves out cordoned nodes); {@code null} when none admits it.
     */
    public Placement placeArrived(GpuPod pod, IntPredicate eligible) {
        int count = 0;
        int shape = scorer.cacheable() ? shapeId(pod.shape()) : -1;
        if (scorer.epoch() != epochSeen) {
            epochSeen = scorer.epoch();
            stamps.forEach(s -> java.util.Arrays.fill(s, -1));
        }
        for (int n = 0; n < cluster.size(); n++) {
            if (cluster.fits(n, pod) && eligible.test(n)) {
                candidates[count] = n;
                scores[count] = shape < 0 ? scorer.score(cluster, n, pod) : cachedScore(shape, n, pod);
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        scorer.normalize(scores, count);
        int chosen = pickHighest(count);
        int[] devices = scorer.devices(cluster, chosen, pod);
        cluster.place(chosen, pod, devices);
        return new Placement(chosen, devices);
    }

    private int pickHighest(int count) {
        long best = Long.MIN_VALUE;
        int chosen = -1;
        int ties = 0;
        for (int i = 0; i < count; i++) {
            if (scores[i] > best) {
                best = scores[i];
                chosen = candidates[i];
                ties = 1;
            } else if (scores[i] == best && tieBreak.nextInt(++ties) == 0) {
                chosen = candidates[i];
            }
        }
        return chosen;
    }

    private long cachedScore(int shape, int node, GpuPod pod) {
        long[] stamp = stamps.get(shape);
        if (stamp[node] != cluster.version(node)) {
            cached.get(shape)[node] = scorer.score(cluster, node, pod);
            stamp[node] = cluster.version(node);
        }
        return cached.get(shape)[node];
    }

    private int shapeId(PodShape s) {
        Integer id = shapeIds.get(s);
        if (id == null) {
            id = shapeIds.size();
            shapeIds.put(s, id);
            long[] stamp = new long[cluster.size()];
            java.util.Arrays.fill(stamp, -1);
            stamps.add(stamp);
            cached.add(new long[cluster.size()]);
        }
        return id;
    }
}
