package io.gantry.scheduling.model;

/**
 * One node's capacity and what is allocated on it. Never over-allocated by a placement: {@link #allocate} refuses.
 * Only {@link #hold} may exceed the capacity, for allocations that already exist on a real cluster.
 */
public final class NodeState {

    private final String name;
    private Resources capacity;
    private Resources allocated = Resources.ZERO;
    private int runningTasks;

    NodeState(NodeSpec spec) {
        this.name = spec.name();
        this.capacity = spec.capacity();
    }

    NodeState copy() {
        NodeState c = new NodeState(new NodeSpec(name, capacity));
        c.allocated = allocated;
        c.runningTasks = runningTasks;
        return c;
    }

    NodeState withCapacity(Resources newCapacity) {
        this.capacity = newCapacity;
        return this;
    }

    public String name() {
        return name;
    }

    public Resources capacity() {
        return capacity;
    }

    public Resources allocated() {
        return allocated;
    }

    public Resources free() {
        Resources c = capacity;
        Resources a = allocated;
        // A node whose capacity shrank below its allocation (a live resize) has nothing free, not a negative amount.
        return new Resources(Math.max(0, c.gpuMilli() - a.gpuMilli()), Math.max(0, c.cpuMilli() - a.cpuMilli()),
                Math.max(0, c.memoryMib() - a.memoryMib()));
    }

    public int runningTasks() {
        return runningTasks;
    }

    public boolean fits(Resources request) {
        return free().covers(request);
    }

    void allocate(Resources r) {
        if (!fits(r)) {
            throw new IllegalStateException("node " + name + " cannot hold " + r + ", free " + free());
        }
        allocated = allocated.plus(r);
        runningTasks++;
    }

    /**
     * Records {@code r} as allocated without the fit check: what the cluster already runs, learned after a restart,
     * is a fact, not a request. A node held beyond its capacity has nothing free until enough is released.
     */
    void hold(Resources r) {
        allocated = allocated.plus(r);
        runningTasks++;
    }

    void release(Resources r) {
        if (!allocated.covers(r) || runningTasks == 0) {
            throw new IllegalStateException("node " + name + " releases " + r + " but holds only " + allocated);
        }
        allocated = allocated.minus(r);
        runningTasks--;
    }

    /** Share of GPU capacity allocated, 0..1. */
    public double gpuAllocatedRatio() {
        return capacity.gpuMilli() == 0 ? 0 : (double) allocated.gpuMilli() / capacity.gpuMilli();
    }
}
