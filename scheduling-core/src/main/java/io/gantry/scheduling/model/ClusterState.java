package io.gantry.scheduling.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Capacity and allocation of every node. Mutable, single-threaded: the simulator and the live
 * scheduler each own one and apply placements and releases to it.
 */
public final class ClusterState {

    private final Map<String, NodeState> nodes = new LinkedHashMap<>();

    public ClusterState(List<NodeSpec> specs) {
        specs.forEach(this::upsertNode);
    }

    /** Adds a node, or changes the capacity of a known node while keeping what is allocated on it. */
    public void upsertNode(NodeSpec spec) {
        NodeState existing = nodes.get(spec.name());
        nodes.put(spec.name(), existing == null ? new NodeState(spec) : existing.withCapacity(spec.capacity()));
    }

    public List<NodeState> nodes() {
        return Collections.unmodifiableList(new ArrayList<>(nodes.values()));
    }

    public NodeState node(String name) {
        NodeState n = nodes.get(name);
        if (n == null) {
            throw new IllegalArgumentException("unknown node " + name);
        }
        return n;
    }

    public boolean hasNode(String name) {
        return nodes.containsKey(name);
    }

    /** A copy without the named nodes (e.g. cordoned ones); every other node keeps its allocation and tasks. */
    public ClusterState without(Set<String> excluded) {
        ClusterState copy = new ClusterState(List.of());
        for (NodeState n : nodes.values()) {
            if (!excluded.contains(n.name())) {
                copy.nodes.put(n.name(), n.copy());
            }
        }
        return copy;
    }

    public int size() {
        return nodes.size();
    }

    /** Reserves {@code r} on a node; refuses (and changes nothing) when it does not fit. */
    public void allocate(String node, Resources r) {
        node(node).allocate(r);
    }

    /**
     * Records {@code r} as allocated on a node even beyond what is free: an allocation that already exists on the
     * cluster (restored after a restart), which a placement must never be refused for. Use {@link #allocate} for
     * new placements.
     */
    public void hold(String node, Resources r) {
        node(node).hold(r);
    }

    public void release(String node, Resources r) {
        node(node).release(r);
    }

    public Resources totalCapacity() {
        Resources sum = Resources.ZERO;
        for (NodeState n : nodes.values()) {
            sum = sum.plus(n.capacity());
        }
        return sum;
    }
}
