package io.gantry.scheduler.mapping;

import io.gantry.events.ResourceAmounts;
import io.gantry.scheduling.model.Resources;

/** The one place sac-scheduler turns the events' resource amounts into the core's resources. */
public final class Amounts {

    private Amounts() {
    }

    public static Resources resources(ResourceAmounts a) {
        return new Resources(a.gpuMilli(), a.cpuMilli(), a.memoryMib());
    }
}
