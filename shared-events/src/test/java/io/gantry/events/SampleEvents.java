package io.gantry.events;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One fixed example of every event type: the instances the golden JSON files are compared with. */
final class SampleEvents {

    static final Instant AT = Instant.parse("2026-11-29T12:00:00Z");
    static final Instant SUBMITTED = Instant.parse("2026-11-29T11:59:58.500Z");
    static final ResourceAmounts ONE_GPU = new ResourceAmounts(1000, 12000, 16384);

    /** A small CNN on digits, the shape of graph the studio produces. */
    static final TrainingSpec TRAINING = new TrainingSpec(
            new ModelGraph(List.of(
                    new ModelGraph.Layer("in", "Input", Map.of("shape", List.of(1, 8, 8))),
                    new ModelGraph.Layer("conv1", "Conv2d", Map.of("filters", 8, "kernel", 3, "padding", 1)),
                    new ModelGraph.Layer("relu1", "ReLU"),
                    new ModelGraph.Layer("pool1", "MaxPool2d", Map.of("kernel", 2)),
                    new ModelGraph.Layer("flat", "Flatten"),
                    new ModelGraph.Layer("drop", "Dropout", Map.of("rate", 0.1)),
                    new ModelGraph.Layer("out", "Output", Map.of("units", 10))),
                    List.of(new ModelGraph.Edge("in", "conv1"), new ModelGraph.Edge("conv1", "relu1"),
                            new ModelGraph.Edge("relu1", "pool1"), new ModelGraph.Edge("pool1", "flat"),
                            new ModelGraph.Edge("flat", "drop"), new ModelGraph.Edge("drop", "out"))),
            "digits", "adam", 0.01, 64, 20, 7L, new TrainingTarget(TrainingTarget.TEST_ACCURACY, 0.95));

    private SampleEvents() {
    }

    static List<GantryEvent> all() {
        return List.of(
                new JobSubmitted("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0001", 1, AT, "openb-pod-0017", "alice", "resnet18-sweep",
                        "cifar10", 1, ONE_GPU, 256, 30, 5400.0, new TuningOptions(true, 64, 1024, 4), false,
                        TRAINING),
                new JobTuned("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0002", 1, AT, "openb-pod-0017", "alice", "resnet18-sweep",
                        "cifar10", SUBMITTED, 1, ONE_GPU, 256, 30, 5400.0, 5400.0,
                        List.of(new TuningChange("batchSize", "256", "256", "kept: no profile for this model yet")),
                        "passed through unchanged", false, TRAINING, 0),
                new UserPriority("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0003", 1, AT, "alice", 10.0, 7.5, 1.0,
                        "base 10, decayed usage share 0.25"),
                new NodeMetrics("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0004", 1, AT, "sim-node-01",
                        new ResourceAmounts(8000, 96000, 393216), ONE_GPU, 0.31, 0.92, 0.18, 1, true, false,
                        "simulated-cluster"),
                new SchedulingDecision("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0005", 1, AT, "openb-pod-0017", "alice",
                        List.of("sim-node-01"), ONE_GPU, 5400.0, SUBMITTED, "sac", "sac-3", 2,
                        List.of(new Preemption("openb-pod-0009", 1)), List.of(List.of(3))),
                new JobStarted("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0006", 1, AT, "openb-pod-0017", "alice",
                        List.of("sim-node-01"), ONE_GPU, SUBMITTED, "sac-3", 2),
                new JobProgress("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0007", 1, AT, "openb-pod-0017", "alice", 0.5, 15,
                        0.42, 0.87, 1830.0, 180L, 0.42, 0.45, 0.87, 64),
                new JobResult("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0013", 1, AT, "openb-pod-0017", "alice", 2, 0.96, 0.12,
                        new int[][]{{30, 2}, {1, 27}}, 12, 14, 412_000_000L, 21.5, 23.0, 5400.0, TRAINING.modelKey(), 64,
                        0.01, TRAINING.optimizer(), TRAINING.target(),
                        List.of(32, 32, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64)),
                new JobCompleted("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0008", 1, AT, "openb-pod-0017", "alice",
                        List.of("sim-node-01"), ONE_GPU, SUBMITTED, 5400.0),
                new JobFailed("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0009", 1, AT, "openb-pod-0017", "alice",
                        List.of("sim-node-01"), ONE_GPU, "OOMKilled: container exceeded 16384 MiB", true),
                new JobPreempted("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0010", 1, AT, "openb-pod-0017", "alice",
                        List.of("sim-node-01"), ONE_GPU, "preempted by tiresias: queue 2 yields to queue 0", 1, 1830.5),
                new JobRejected("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0011", 1, AT, "openb-pod-0017", "alice", "job-tuner",
                        "perTask.gpuMilli", "requests 16000 GPU milli per task; the largest node has 8000"),
                new PolicyUpdated("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0012", 1, AT, "sac", "sac-7", "sac-6",
                        Map.of("avg_jct_s", 812.5, "baseline_avg_jct_s", 840.0), "replay check: not worse than sac-6"),
                new JobCancelRequested("5b0e9c1e-6f1a-4a51-9d7e-0a6c1f0f0014", 1, AT, "studio-7f3a9c21d4e8", "alice",
                        "cancelled from the studio"));
    }
}
