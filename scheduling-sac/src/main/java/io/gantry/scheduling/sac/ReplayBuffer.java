package io.gantry.scheduling.sac;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A ring buffer of transitions. Candidate sets differ in size, so states are kept as they are and padded
 * only when a batch is assembled ({@link SacAgent#update}). Sampling is uniform with the caller's seeded
 * random source, so a training run is reproducible.
 */
public final class ReplayBuffer {

    private final Transition[] items;
    private int size;
    private int next;

    public ReplayBuffer(int capacity) {
        items = new Transition[capacity];
    }

    public void add(Transition t) {
        items[next] = t;
        next = (next + 1) % items.length;
        size = Math.min(size + 1, items.length);
    }

    public int size() {
        return size;
    }

    public List<Transition> sample(int n, SplittableRandom rng) {
        List<Transition> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(items[rng.nextInt(size)]);
        }
        return out;
    }
}
