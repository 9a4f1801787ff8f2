package io.gantry.scheduler.service;

import io.gantry.scheduler.config.SchedulerConfig;
import io.gantry.scheduling.gpushare.DevicePlacement;
import io.gantry.scheduling.gpushare.GpuNode;
import io.gantry.scheduling.gpushare.GpuPod;
import io.gantry.scheduling.gpushare.GpuSharePolicies;
import io.gantry.scheduling.gpushare.OpenbGpuFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Builds the GPU-sharing placement {@code gantry.scheduler.gpu-placement} names, from the same core classes bench-frag uses. */
final class GpuPlacementSetup {

    static final String OFF = "off";
    static final String DEFAULT_TARGET_PODS = "openb_pod_list_default.csv";

    private GpuPlacementSetup() {
    }

    /** Null when placement per device is off; an unknown plugin or a bad file stops the start with the reason. */
    static DevicePlacement create(SchedulerConfig config) {
        String name = config.gpuPlacement().trim();
        if (name.equals(OFF)) {
            return null;
        }
        if (!GpuSharePolicies.names().contains(name)) {
            throw new IllegalArgumentException("gantry.scheduler.gpu-placement: unknown plugin '" + name + "'; known: "
                    + OFF + ", " + String.join(", ", GpuSharePolicies.names()));
        }
        Map<String, String> models = new HashMap<>();
        config.gpuNodesFile().ifPresent(f -> {
            for (GpuNode n : OpenbGpuFiles.loadNodesOrExplain(Path.of(f), "gantry.scheduler.gpu-nodes-file")) {
                models.put(n.name(), n.model());
            }
        });
        List<GpuPod> target = config.gpuTargetPods()
                .map(f -> OpenbGpuFiles.loadPodsOrExplain(Path.of(f), "gantry.scheduler.gpu-target-pods"))
                .orElseGet(GpuPlacementSetup::shippedTargetPods);
        try {
            return new DevicePlacement(GpuSharePolicies.create(name, target, config.gpuPlacementSeed()),
                    new SplittableRandom(config.gpuPlacementSeed()), models);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("gantry.scheduler.gpu-placement=" + name + ": " + e.getMessage()
                    + " (set gantry.scheduler.gpu-target-pods to a pod list)", e);
        }
    }

    private static List<GpuPod> shippedTargetPods() {
        Path p = OpenbGpuFiles.traceDir().resolve(DEFAULT_TARGET_PODS);
        return Files.isRegularFile(p) ? OpenbGpuFiles.loadPods(p, new ArrayList<>()) : List.of();
    }
}
