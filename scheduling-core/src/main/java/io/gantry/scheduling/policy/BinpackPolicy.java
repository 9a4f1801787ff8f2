package io.gantry.scheduling.policy;

import io.gantry.scheduling.framework.FrameworkPolicy;
import io.gantry.scheduling.framework.NodeScorer;
import java.util.List;

/** FIFO by priority then arrival, MostAllocated scoring: fill nodes before opening new ones (fights fragmentation). */
public final class BinpackPolicy extends FrameworkPolicy {

    public static final String NAME = "binpack";

    public BinpackPolicy() {
        super(NAME, KubeDefaultPolicy.PRIORITY_THEN_ARRIVAL, List.of(), NodeScorer.MOST_ALLOCATED, false);
    }
}
