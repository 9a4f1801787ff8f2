package io.gantry.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * The scheduler's choice to start a job now on the named nodes, on {@code gantry.scheduling.decisions} keyed
 * by {@code jobId}. {@code nodes.get(i)} holds task i. Every decision names the policy and version that made it.
 *
 * <p>{@code attempt} counts the job's starts: 1 for its first, one more after each preemption, so "bind a job
 * once" means once per attempt. {@code preempts} lists running jobs to stop before binding (their resources make
 * room for this one; each goes back to the queue and is announced {@link JobPreempted}); empty for most decisions.
 * It may name an earlier attempt of the decided job itself: a re-size, the job re-tuned while it ran to ask for other
 * room (GPUs per task, tasks), whose next attempt stops its running one (which is then not queued again).
 * For an attempt after the first, {@code durationS} is what is left of the job's run. Both fields are optional
 * on the wire: absent means attempt 1 and no preemption, as before they existed.
 *
 * <p>{@code gpuDevices} says which GPU devices of its node each task takes, when the scheduler places per device
 * ({@code gantry.scheduler.gpu-placement}): {@code gpuDevices.get(i)} are the device indices (0 = the node's first
 * GPU) on {@code nodes.get(i)}, one device for a task sharing a GPU ({@code perTask.gpuMilli} below 1000, of which it
 * takes that share), {@code ⌈gpuMilli / 1000⌉} whole devices otherwise. Optional on the wire, same schema version:
 * absent (and never written when empty) means the scheduler did not choose devices, as before the field existed.
 */
public record SchedulingDecision(
        String eventId,
        int schemaVersion,
        Instant occurredAt,
        String jobId,
        String user,
        List<String> nodes,
        ResourceAmounts perTask,
        Double durationS,
        Instant submittedAt,
        String policy,
        String policyVersion,
        Integer attempt,
        List<Preemption> preempts,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<List<Integer>> gpuDevices) implements JobEvent {

    public static final String TYPE = "SchedulingDecision";

    /** A device index is below this: no node has more GPUs (the trace's largest has 8). */
    public static final int MAX_GPU_DEVICES = 64;

    public SchedulingDecision {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        attempt = attempt == null ? 1 : attempt;
        preempts = preempts == null ? List.of() : List.copyOf(preempts);
        // List.copyOf refuses nulls; a null element is kept so that validation names it instead of decoding failing.
        gpuDevices = gpuDevices == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(
                gpuDevices));
    }

    /** A decision that chose no GPU devices. */
    public SchedulingDecision(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user,
                              List<String> nodes, ResourceAmounts perTask, Double durationS, Instant submittedAt,
                              String policy, String policyVersion, Integer attempt, List<Preemption> preempts) {
        this(eventId, schemaVersion, occurredAt, jobId, user, nodes, perTask, durationS, submittedAt, policy,
                policyVersion, attempt, preempts, List.of());
    }

    /** A first start that stops nothing. */
    public SchedulingDecision(String eventId, int schemaVersion, Instant occurredAt, String jobId, String user,
                              List<String> nodes, ResourceAmounts perTask, Double durationS, Instant submittedAt,
                              String policy, String policyVersion) {
        this(eventId, schemaVersion, occurredAt, jobId, user, nodes, perTask, durationS, submittedAt, policy,
                policyVersion, 1, List.of(), List.of());
    }

    @Override
    public void checkBody(Violations v) {
        v.placedStint(jobId, user, nodes, perTask);
        v.durationIfPresent("durationS", durationS);
        v.present("submittedAt", submittedAt);
        v.notBlank("policy", policy);
        v.notBlank("policyVersion", policyVersion);
        v.atLeast("attempt", attempt, 1);
        for (int i = 0; i < preempts.size(); i++) {
            Preemption p = preempts.get(i);
            if (p == null) {
                v.add("preempts[" + i + "]", "must not be null");
                continue;
            }
            p.check(v, "preempts[" + i + "]");
            if (p.jobId() != null && p.jobId().equals(jobId) && attempt != null && p.attempt() >= attempt) {
                // Stopping an earlier attempt of its own is a re-size (a re-tune that asks for other room); the
                // attempt being started, or a later one, cannot be stopped to make room for itself.
                v.add("preempts[" + i + "].attempt", "a job can stop only an earlier attempt of its own (a re-size), "
                        + "not attempt " + p.attempt() + " to start attempt " + attempt);
            }
        }
        checkGpuDevices(v);
    }

    private void checkGpuDevices(Violations v) {
        long milli = perTask == null ? 0 : perTask.gpuMilli();
        if (gpuDevices.isEmpty() || nodes.size() > Limits.MAX_TASKS || milli < 0
                || milli > Limits.MAX_GPU_MILLI_PER_TASK) {
            return; // nothing to check, or the nodes or the amount are already refused on their own
        }
        if (gpuDevices.size() != nodes.size()) {
            v.add("gpuDevices", "must list the devices of each of the " + nodes.size() + " tasks, listed "
                    + gpuDevices.size());
            return;
        }
        long want = milli <= 0 ? 0 : milli < 1000 ? 1 : (milli + 999) / 1000;
        for (int i = 0; i < gpuDevices.size(); i++) {
            List<Integer> d = gpuDevices.get(i);
            String field = "gpuDevices[" + i + "]";
            if (d == null || d.size() != want) {
                v.add(field, "must name " + want + " device(s) for perTask.gpuMilli " + milli + ", named "
                        + (d == null ? "none" : d.size()));
            } else if (d.stream().anyMatch(x -> x == null || x < 0 || x >= MAX_GPU_DEVICES)) {
                v.add(field, "device indices must be 0.." + (MAX_GPU_DEVICES - 1));
            } else if (d.stream().distinct().count() != d.size()) {
                v.add(field, "must not name a device twice");
            }
        }
    }
}
