package io.gantry.scheduling.pollux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.tuning.GoodputModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The genetic search against exhaustive search on rounds small enough to enumerate (3 jobs, 2 nodes × 4 GPUs):
 * it must reach at least 95% of the best fitness in every round and 99% on average, and never break the repair's
 * rules (node GPUs, max_replicas, one multi-node job per node).
 */
class AllocationSearchTest {

    private static final Path PROFILES = SharedTraces.tracesDir().resolve("philly-pollux/app-profiles");
    private static final int[] NODES = {4, 4};

    private static PolluxFitness round(int[][] current, int[] maxReplicas) {
        String[] apps = {"cifar10", "imagenet", "deepspeech2"};
        List<PolluxFitness.JobView> jobs = new ArrayList<>();
        for (int j = 0; j < apps.length; j++) {
            GoodputOptimizer g = new GoodputOptimizer(GoodputModel.load(PROFILES.resolve(apps[j])));
            jobs.add(new PolluxFitness.JobView(apps[j], g, 1, PolluxFitness.fairGoodput(g, 1, 3, 2, 8),
                    PolluxFitness.restartFactor(600, 1), current[j], maxReplicas[j], false));
        }
        return new PolluxFitness(jobs, 2, 8, -1);
    }

    /** Best fitness over every allocation that meets the repair's rules. */
    private static double exhaustive(PolluxFitness f) {
        double best = Double.NEGATIVE_INFINITY;
        int[][] s = new int[3][2];
        for (int code = 0; code < 15625; code++) {
            int c = code;
            for (int j = 0; j < 3; j++) {
                for (int n = 0; n < 2; n++) {
                    s[j][n] = c % 5;
                    c /= 5;
                }
            }
            if (feasible(s, f)) {
                best = Math.max(best, f.evaluate(s));
            }
        }
        return best;
    }

    private static boolean feasible(int[][] s, PolluxFitness f) {
        int[] used = new int[2];
        int[] distributed = new int[2];
        for (int j = 0; j < 3; j++) {
            int total = s[j][0] + s[j][1];
            if (total > f.jobs().get(j).maxReplicas()) {
                return false;
            }
            boolean multi = s[j][0] > 0 && s[j][1] > 0;
            for (int n = 0; n < 2; n++) {
                used[n] += s[j][n];
                distributed[n] += multi ? 1 : 0;
            }
        }
        return used[0] <= 4 && used[1] <= 4 && distributed[0] <= 1 && distributed[1] <= 1;
    }

    @Test
    void reachesTheExhaustiveBestAndNeverOverAllocates() {
        int[][][] currents = {{{0, 0}, {0, 0}, {0, 0}}, {{4, 0}, {0, 2}, {0, 2}}, {{2, 2}, {2, 0}, {0, 2}}};
        int[][] caps = {{1, 1, 1}, {8, 8, 8}, {2, 8, 4}};
        double worst = 1;
        double sum = 0;
        int rounds = 0;
        for (int[][] current : currents) {
            for (int[] cap : caps) {
                int[][] start = new int[3][];
                for (int j = 0; j < 3; j++) {
                    int total = current[j][0] + current[j][1];
                    start[j] = total <= cap[j] ? current[j] : new int[2];
                }
                PolluxFitness f = round(start, cap);
                int[][] found = new AllocationSearch(7).search(f, NODES);
                assertTrue(feasible(found, f), "infeasible allocation " + java.util.Arrays.deepToString(found));
                double best = exhaustive(f);
                double ratio = f.evaluate(found) / best;
                System.out.printf("GA vs exhaustive: current %s max_replicas %s: %.5f / %.5f = %.4f%n",
                        java.util.Arrays.deepToString(start), java.util.Arrays.toString(cap), f.evaluate(found), best, ratio);
                worst = Math.min(worst, ratio);
                sum += ratio;
                rounds++;
            }
        }
        assertTrue(worst >= 0.95, "worst round reached only " + worst + " of the exhaustive best");
        assertTrue(sum / rounds >= 0.99, "mean " + sum / rounds + " of the exhaustive best");
    }

    @Test
    void sameSeedSameAllocation() {
        PolluxFitness f = round(new int[][] {{0, 0}, {0, 0}, {0, 0}}, new int[] {8, 8, 8});
        int[][] a = new AllocationSearch(3).search(f, NODES);
        int[][] b = new AllocationSearch(3).search(f, NODES);
        for (int j = 0; j < a.length; j++) {
            assertArrayEquals(a[j], b[j]);
        }
    }
}
