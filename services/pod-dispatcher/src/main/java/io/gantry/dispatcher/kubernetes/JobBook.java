package io.gantry.dispatcher.kubernetes;

import io.gantry.events.JobStarted;
import io.gantry.events.TrainingSpec;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What pod-dispatcher knows of each job between pod events: decided, ended, cancelled, resumable, tracked. Every
 * field is guarded by the {@link KubernetesCluster}'s lock.
 */
final class JobBook {

    /** Job ids remembered as decided or ended; far more than a cluster keeps in flight. */
    private static final int REMEMBERED_JOBS = 1_000_000;

    final Set<String> decided = bounded();
    final Set<String> ended = bounded();
    /** Jobs whose pods were all deleted before a decision came: a decision for them binds nothing. */
    final Set<String> cancelledBeforeBinding = bounded();
    final Set<String> foreignSubmitted = bounded();
    final Map<String, JobStarted> startedBeforeRestart = new HashMap<>();
    final Map<String, GantryPods.JobSpec> submittedSpecs = new LinkedHashMap<>();
    /**
     * Jobs Kubernetes evicted that Gantry can start again, with the attempt that may bind next: their pods are made
     * anew for it (only jobs Gantry made pods for; a foreign pod's owner decides what replaces it).
     */
    final Map<String, Integer> resumable = new HashMap<>();
    final Map<String, TrackedJob> tracked = new LinkedHashMap<>();
    /** The spec a training job's pods run (as made, or as last re-tuned), so a re-tune tells a new batch size. */
    final Map<String, TrainingSpec> trainingSpecs = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TrainingSpec> eldest) {
            return size() > REMEMBERED_JOBS;
        }
    };

    private static Set<String> bounded() {
        return Collections.newSetFromMap(new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > REMEMBERED_JOBS;
            }
        });
    }
}
