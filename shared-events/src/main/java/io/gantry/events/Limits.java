package io.gantry.events;

/**
 * Upper bounds of the contracts' numbers and strings. A value beyond one is rejected by the event's {@code checkBody}
 * with the field and the bound, so it never reaches a loop, an array size or a product that overflows. Each bound is
 * far above what any real job asks for (every job of every shipped trace validates, see {@code ReplayEventsTest}) and
 * low enough that a consumer can afford to act on it.
 */
public final class Limits {

    /**
     * Pods in one gang. The largest shipped gang is 6 pods (a 48-GPU Philly job on 8-GPU nodes); Kubernetes' own
     * scalability target is 110 pods per node, so 1,024 pods of one job is already a very large cluster's worth.
     */
    public static final int MAX_TASKS = 1_024;

    /** GPUs per pod, in thousandths: 64 GPUs, more than any single node has (the shipped traces' largest is 8). */
    public static final long MAX_GPU_MILLI_PER_TASK = 64_000;

    /** CPU per pod, in millicores: 1,024 cores, above the largest single machines sold (the traces' largest is 120). */
    public static final long MAX_CPU_MILLI_PER_TASK = 1_024_000;

    /** Memory per pod, in MiB: 16 TiB, above the largest single machines sold (the traces' largest is 720 GiB). */
    public static final long MAX_MEMORY_MIB_PER_TASK = 16L * 1024 * 1024;

    /**
     * The tuner's {@code tuning.maxGpus}: 8,192 GPUs, the size of the largest training clusters; the tuner tries every
     * count up to it, so it must be small enough to iterate.
     */
    public static final int MAX_GPUS = 8_192;

    /**
     * Total batch size (and {@code tuning.min/maxBatchSize}): 2^24 samples, 512 times the largest batch any profiled
     * model was measured with (ncf, 32,768).
     */
    public static final int MAX_BATCH_SIZE = 16_777_216;

    /** Epochs: 100,000, a thousand times the longest profiled training (cifar10, 100 epochs). */
    public static final int MAX_EPOCHS = 100_000;

    /**
     * Run time in seconds: 366 days. The longest pod in the shipped traces ran about 145 days; a job meant to run longer
     * than a year is a mistake, and a huge value (1e300) would hold its resources for ever.
     */
    public static final double MAX_DURATION_S = 366 * 86_400.0;

    /**
     * Length of a job id: 317, the longest id Gantry itself makes, {@code namespace/pod-name} for a pod created outside
     * Gantry (a namespace is at most 63 characters, a pod name at most 253, Kubernetes' own limits).
     */
    public static final int MAX_JOB_ID_LENGTH = 317;

    /** Length of a user name (see {@link Names#USER}). */
    public static final int MAX_USER_LENGTH = 200;

    /** Length of free-text names ({@code jobName}, {@code model}): 253, a Kubernetes object name's limit. */
    public static final int MAX_NAME_LENGTH = 253;

    /**
     * Length of one event's JSON, in characters: 512 Ki. The largest valid event is far below it (a decision of 1,024
     * nodes of 253 characters is about 260 K; a training spec of 256 layers a few tens of K), and every record is
     * bounded again by the broker ({@code message.max.bytes}, 1 MB by default) and the consumers' fetch sizes, so no
     * record can make a consumer hold more. A longer event is dead-lettered with this bound as its reason.
     */
    public static final int MAX_EVENT_LENGTH = 512 * 1024;

    /** Length of a node name: 253, a Kubernetes node name's limit (a DNS subdomain). */
    public static final int MAX_NODE_NAME_LENGTH = 253;

    /** Layers of a training model graph: 256, far above the small networks the shipped datasets need. */
    public static final int MAX_TRAINING_LAYERS = 256;

    /** Edges of a training model graph: 1,024 (four per layer on average). */
    public static final int MAX_TRAINING_EDGES = 1_024;

    /** Units of a Linear/Output layer or filters of a Conv2d layer: 4,096, so one layer's weights stay a few MB on a CPU. */
    public static final int MAX_TRAINING_UNITS = 4_096;

    /** Samples per training step: 4,096, above the largest shipped dataset's training split (digits, 1,257 rows). */
    public static final int MAX_TRAINING_BATCH_SIZE = 4_096;

    /** Epochs of a real training run: 1,000; the shipped datasets reach their targets in tens. */
    public static final int MAX_TRAINING_EPOCHS = 1_000;

    /** Learning rate: at most 10; beyond it every optimiser here diverges. */
    public static final double MAX_TRAINING_LEARNING_RATE = 10.0;

    private Limits() {
    }
}
