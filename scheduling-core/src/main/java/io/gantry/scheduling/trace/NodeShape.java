package io.gantry.scheduling.trace;

import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.util.ArrayList;
import java.util.List;

/** One homogeneous node type: whole GPUs, vCPUs and GiB of memory. */
public record NodeShape(int gpus, double vcpus, double memoryGib) {

    /** The commonest Alibaba 2023 GPU node (G2): 8 GPUs, 96 vCPU, 384 GiB. */
    public static final NodeShape ALIBABA_G2 = new NodeShape(8, 96, 384);

    public NodeShape {
        if (gpus < 0 || vcpus <= 0 || memoryGib <= 0) {
            throw new IllegalArgumentException("node shape needs gpus ≥ 0 and positive vCPU and memory: " + gpus + "," + vcpus + "," + memoryGib);
        }
    }

    public static NodeShape parse(String s) {
        String[] p = s.split(",");
        if (p.length != 3) {
            throw new IllegalArgumentException("node shape is GPUS,VCPUS,MEM_GIB, got '" + s + "'");
        }
        try {
            return new NodeShape(Integer.parseInt(p[0].trim()), Double.parseDouble(p[1].trim()), Double.parseDouble(p[2].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("node shape is GPUS,VCPUS,MEM_GIB (numbers), got '" + s + "'");
        }
    }

    public Resources capacity() {
        return Resources.ofGpus(gpus, vcpus, memoryGib);
    }

    public List<NodeSpec> nodes(int count) {
        List<NodeSpec> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(new NodeSpec(String.format("node-%04d", i), capacity()));
        }
        return out;
    }

    /**
     * How a job of {@code totalGpus} whole GPUs becomes a gang on this node type: one task if it fits a
     * node; otherwise identical tasks of the largest GPU count that divides the total and fits a node
     * (16 → 2 × 8, 12 → 2 × 6, 24 → 3 × 8). CPU and memory, which these traces do not record, are
     * given in proportion to the GPUs, so GPUs stay the binding resource.
     */
    public Gang gangFor(int totalGpus) {
        int perTask = totalGpus;
        if (gpus > 0 && totalGpus > gpus) {
            perTask = gpus;
            while (totalGpus % perTask != 0) {
                perTask--;
            }
        }
        int tasks = perTask == 0 ? 1 : totalGpus / perTask;
        double share = gpus == 0 ? 0 : (double) perTask / gpus;
        Resources r = new Resources(perTask * 1000L, Math.round(vcpus * 1000 * share), Math.round(memoryGib * 1024 * share));
        return new Gang(tasks, r);
    }

    public record Gang(int tasks, Resources perTask) {
    }
}
