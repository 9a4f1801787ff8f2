package io.gantry.tuner.service;

import io.gantry.events.JobSubmitted;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TuningOptions;
import io.gantry.events.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What makes a job that passed the event contract still impossible: a task larger than the largest node can never be
 * placed, and a submission outside the submitter's own tuning bounds contradicts itself (passing it through would
 * queue a job its owner said must not exist; tuning it silently into the bounds would guess which of the two the
 * submitter meant). The contract itself (positive tasks, batch size and epochs, …) is checked by the event codec.
 */
public final class RequestLimits {

    private final long nodeGpuMilli;
    private final long nodeCpuMilli;
    private final long nodeMemoryMib;

    public RequestLimits(int nodeGpus, int nodeCpuCores, int nodeMemoryGib) {
        if (nodeGpus < 0 || nodeCpuCores < 1 || nodeMemoryGib < 1) {
            throw new IllegalArgumentException("node shape: GPUs ≥ 0, vCPUs ≥ 1, memory ≥ 1 GiB; was "
                    + nodeGpus + "/" + nodeCpuCores + "/" + nodeMemoryGib);
        }
        this.nodeGpuMilli = nodeGpus * 1000L;
        this.nodeCpuMilli = nodeCpuCores * 1000L;
        this.nodeMemoryMib = nodeMemoryGib * 1024L;
    }

    public long nodeGpuMilli() {
        return nodeGpuMilli;
    }

    public long nodeCpuMilli() {
        return nodeCpuMilli;
    }

    public long nodeMemoryMib() {
        return nodeMemoryMib;
    }

    /** Every reason {@code job} (already valid by the contract) can never run as submitted; empty when it can. */
    public List<Violation> check(JobSubmitted job) {
        List<Violation> out = new ArrayList<>();
        ResourceAmounts t = job.perTask();
        if (t.gpuMilli() > nodeGpuMilli) {
            out.add(new Violation("perTask.gpuMilli", String.format(Locale.ROOT,
                    "%d (%s GPUs) per task is more than the largest node has (%d GPUs): the task could never be placed",
                    t.gpuMilli(), count(t.gpuMilli() / 1000.0), nodeGpuMilli / 1000)));
        }
        if (t.cpuMilli() > nodeCpuMilli) {
            out.add(new Violation("perTask.cpuMilli", String.format(Locale.ROOT,
                    "%d (%s vCPUs) per task is more than the largest node has (%d vCPUs): the task could never be placed",
                    t.cpuMilli(), count(t.cpuMilli() / 1000.0), nodeCpuMilli / 1000)));
        }
        if (t.memoryMib() > nodeMemoryMib) {
            out.add(new Violation("perTask.memoryMib", String.format(Locale.ROOT,
                    "%d MiB per task is more than the largest node has (%d GiB = %d MiB): the task could never be placed",
                    t.memoryMib(), nodeMemoryMib / 1024, nodeMemoryMib)));
        }
        TuningOptions o = job.tuningOrDefault();
        // With tuning switched off nothing reads the bounds, and the job must pass exactly as submitted.
        if (o.enabled()) {
            Integer b = job.batchSize();
            if (b != null && o.minBatchSize() != null && b < o.minBatchSize()) {
                out.add(new Violation("batchSize", b + " is below your own tuning.minBatchSize " + o.minBatchSize()));
            }
            if (b != null && o.maxBatchSize() != null && b > o.maxBatchSize()) {
                out.add(new Violation("batchSize", b + " is above your own tuning.maxBatchSize " + o.maxBatchSize()));
            }
            Integer tb = job.training() == null ? null : job.training().batchSize();
            if (tb != null && o.minBatchSize() != null && tb < o.minBatchSize()) {
                out.add(new Violation("training.batchSize", tb + " is below your own tuning.minBatchSize " + o.minBatchSize()));
            }
            if (tb != null && o.maxBatchSize() != null && tb > o.maxBatchSize()) {
                out.add(new Violation("training.batchSize", tb + " is above your own tuning.maxBatchSize " + o.maxBatchSize()));
            }
            // In floating point: the product of two contract values must not wrap round in a long.
            double gpus = job.tasks() * (double) t.gpuMilli() / 1000.0;
            if (o.maxGpus() != null && gpus > o.maxGpus()) {
                out.add(new Violation("tuning.maxGpus", String.format(Locale.ROOT,
                        "is %d but the job itself asks for %s GPUs (tasks × perTask.gpuMilli ÷ 1000)", o.maxGpus(), count(gpus))));
            }
        }
        return out;
    }

    /** 4 for 4.0, 0.5 for 0.5: how a person writes a count of GPUs or vCPUs. */
    private static String count(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
