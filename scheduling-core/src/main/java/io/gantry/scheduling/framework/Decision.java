package io.gantry.scheduling.framework;

import java.util.List;

/**
 * The full outcome of a round for a policy that may preempt: first stop {@code preemptions} (their
 * resources are released, the jobs go back to pending and keep their progress), then apply
 * {@code placements}. {@code wakeAt} asks the caller for another round at that time even if nothing
 * arrives or finishes (for example when a running job is due to be demoted); NaN when not needed.
 */
public record Decision(List<Placement> placements, List<String> preemptions, double wakeAt) {

    public Decision {
        placements = List.copyOf(placements);
        preemptions = List.copyOf(preemptions);
    }

    public static Decision placeOnly(List<Placement> placements) {
        return new Decision(placements, List.of(), Double.NaN);
    }
}
