package io.gantry.dispatcher.mapping;

import io.gantry.events.ResourceAmounts;
import io.gantry.scheduling.model.Resources;

/** The one place pod-dispatcher turns the events' resource amounts into the core's resources and back. */
public final class Amounts {

    private Amounts() {
    }

    public static Resources resources(ResourceAmounts a) {
        return new Resources(a.gpuMilli(), a.cpuMilli(), a.memoryMib());
    }

    public static ResourceAmounts amounts(Resources r) {
        return new ResourceAmounts(r.gpuMilli(), r.cpuMilli(), r.memoryMib());
    }
}
