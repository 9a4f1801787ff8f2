package io.gantry.scheduling.pollux;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Pollux's genetic search for the round's allocation matrix (Pollux §4.2 "PolluxSched", adaptdl's
 * {@code simulator/pollux.py}: pymoo's NSGA-II, population 100, 100 generations, seeded with the last round's
 * population). The operators are {@code pollux.py}'s: single-point crossover over jobs; mutation that resets a
 * job to its current allocation (p = 0.1), zeroes some of a job's entries (p = 0.1 per job, then 0.1 per entry) and
 * raises entries on nodes with a free GPU to a random count up to the node's size; repair that keeps at most one
 * multi-node job per node, caps each job at its {@code max_replicas} (nodes visited in random order) and caps each
 * node at its GPUs (jobs in priority order).
 *
 * <p>One difference: pollux.py's NSGA-II has a second objective (cluster utility) but then picks the solution of
 * the best fitness; this search keeps a (μ + λ) elitist population on fitness alone, which aims at that same
 * solution directly. {@code PolluxFitnessSearchTest} compares it with exhaustive search on small rounds.
 * Seeded, so the same rounds give the same allocations.
 */
public final class AllocationSearch {

    public static final int POPULATION = 100;
    public static final int GENERATIONS = 100;

    private final Random random;
    private final int population;
    private final int generations;
    private List<Map<String, int[]>> previous = List.of();

    public AllocationSearch(long seed) {
        this(seed, POPULATION, GENERATIONS);
    }

    public AllocationSearch(long seed, int population, int generations) {
        this.random = new Random(seed);
        this.population = population;
        this.generations = generations;
    }

    private record Scored(int[][] state, double fitness) {
    }

    /** The best allocation found for {@code fitness}'s jobs on nodes of {@code nodeGpus} GPUs each. */
    public int[][] search(PolluxFitness fitness, int[] nodeGpus) {
        List<PolluxFitness.JobView> jobs = fitness.jobs();
        List<Scored> pop = new ArrayList<>();
        pop.add(score(fitness, repair(current(jobs, nodeGpus.length), jobs, nodeGpus)));
        for (Map<String, int[]> prev : previous) {
            pop.add(score(fitness, repair(adapt(prev, jobs, nodeGpus.length), jobs, nodeGpus)));
        }
        while (pop.size() < population) {
            int[][] s = copy(pop.get(random.nextInt(pop.size())).state());
            mutate(s, jobs, nodeGpus);
            pop.add(score(fitness, repair(s, jobs, nodeGpus)));
        }
        Comparator<Scored> best = Comparator.comparingDouble(Scored::fitness).reversed();
        for (int g = 0; g < generations && !jobs.isEmpty(); g++) {
            List<Scored> next = new ArrayList<>(pop);
            for (int k = 0; k < population / 2; k++) {
                int[][][] kids = crossover(tournament(pop).state(), tournament(pop).state());
                for (int[][] kid : kids) {
                    mutate(kid, jobs, nodeGpus);
                    next.add(score(fitness, repair(kid, jobs, nodeGpus)));
                }
            }
            next.sort(best);
            pop = new ArrayList<>(next.subList(0, population));
        }
        pop.sort(best);
        previous = pop.stream().map(s -> byId(s.state(), jobs)).toList();
        return pop.get(0).state();
    }

    private Scored score(PolluxFitness f, int[][] s) {
        return new Scored(s, f.evaluate(s));
    }

    private Scored tournament(List<Scored> pop) {
        Scored a = pop.get(random.nextInt(pop.size()));
        Scored b = pop.get(random.nextInt(pop.size()));
        return a.fitness() >= b.fitness() ? a : b;
    }

    private int[][][] crossover(int[][] a, int[][] b) {
        int point = a.length == 0 ? 0 : random.nextInt(a.length);
        int[][] x = new int[a.length][];
        int[][] y = new int[a.length][];
        for (int j = 0; j < a.length; j++) {
            x[j] = (j < point ? a[j] : b[j]).clone();
            y[j] = (j < point ? b[j] : a[j]).clone();
        }
        return new int[][][] {x, y};
    }

    void mutate(int[][] s, List<PolluxFitness.JobView> jobs, int[] nodeGpus) {
        for (int j = 0; j < s.length; j++) {
            if (random.nextDouble() < 0.1) {
                s[j] = jobs.get(j).current().clone();
            }
            if (random.nextDouble() < 0.1) {
                for (int n = 0; n < s[j].length; n++) {
                    if (random.nextDouble() < 0.1) {
                        s[j][n] = 0;
                    }
                }
            }
        }
        int[] free = nodeGpus.clone();
        int withFree = 0;
        for (int[] row : s) {
            for (int n = 0; n < row.length; n++) {
                free[n] -= row[n];
            }
        }
        for (int f : free) {
            withFree += f >= 1 ? 1 : 0;
        }
        for (int[] row : s) {
            int heldWithFree = 0;
            for (int n = 0; n < row.length; n++) {
                heldWithFree += row[n] > 0 && free[n] >= 1 ? 1 : 0;
            }
            for (int n = 0; n < row.length; n++) {
                if (free[n] < 1) {
                    continue;
                }
                double p1 = 1.0 / Math.max(withFree, 1);
                double p2 = row[n] > 0 ? 1.0 / Math.max(heldWithFree, 1) : 0;
                if (random.nextDouble() < p1 + p2 - p1 * p2) {
                    row[n] = row[n] + random.nextInt(nodeGpus[n] - row[n] + 1);
                }
            }
        }
    }

    int[][] repair(int[][] s, List<PolluxFitness.JobView> jobs, int[] nodeGpus) {
        int nodes = nodeGpus.length;
        boolean[] hostsDistributed = new boolean[nodes];
        for (int j = 0; j < s.length; j++) {
            if (jobs.get(j).pinned()) {
                s[j] = jobs.get(j).current().clone();
            }
            if (spanned(s[j]) > 1) {
                for (int n = 0; n < nodes; n++) {
                    if (s[j][n] > 0 && hostsDistributed[n]) {
                        s[j][n] = 0;
                    } else if (s[j][n] > 0) {
                        hostsDistributed[n] = true;
                    }
                }
            }
            capReplicas(s[j], jobs.get(j).maxReplicas());
        }
        int[] used = new int[nodes];
        for (int[] row : s) {
            for (int n = 0; n < nodes; n++) {
                row[n] = Math.min(row[n], nodeGpus[n] - used[n]);
                used[n] += row[n];
            }
        }
        return s;
    }

    private void capReplicas(int[] row, int max) {
        int[] order = new int[row.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        for (int i = order.length - 1; i > 0; i--) {
            int k = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[k];
            order[k] = t;
        }
        int total = 0;
        for (int n : order) {
            row[n] = Math.min(row[n], max - total);
            total += row[n];
        }
    }

    private static int spanned(int[] row) {
        int k = 0;
        for (int g : row) {
            k += g > 0 ? 1 : 0;
        }
        return k;
    }

    private static int[][] current(List<PolluxFitness.JobView> jobs, int nodes) {
        int[][] s = new int[jobs.size()][];
        for (int j = 0; j < s.length; j++) {
            s[j] = jobs.get(j).current().length == nodes ? jobs.get(j).current().clone() : new int[nodes];
        }
        return s;
    }

    private static int[][] adapt(Map<String, int[]> prev, List<PolluxFitness.JobView> jobs, int nodes) {
        int[][] s = new int[jobs.size()][];
        for (int j = 0; j < s.length; j++) {
            int[] row = prev.get(jobs.get(j).id());
            s[j] = row != null && row.length == nodes ? row.clone() : new int[nodes];
        }
        return s;
    }

    private static Map<String, int[]> byId(int[][] s, List<PolluxFitness.JobView> jobs) {
        Map<String, int[]> m = new HashMap<>();
        for (int j = 0; j < s.length; j++) {
            m.put(jobs.get(j).id(), s[j].clone());
        }
        return m;
    }

    private static int[][] copy(int[][] s) {
        int[][] c = new int[s.length][];
        for (int j = 0; j < s.length; j++) {
            c[j] = s[j].clone();
        }
        return c;
    }
}
