package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** What a pod's status says: its phase, why it failed or was disrupted, how long its containers ran. */
final class PodStates {

    private PodStates() {
    }

    static String phase(Pod p) {
        return p.getStatus() == null || p.getStatus().getPhase() == null ? "Pending" : p.getStatus().getPhase();
    }

    static List<ContainerStatus> containerStatuses(Pod p) {
        return p.getStatus() == null || p.getStatus().getContainerStatuses() == null ? List.of()
                : p.getStatus().getContainerStatuses();
    }

    static boolean oomKilled(Pod p) {
        if ("OOMKilled".equals(p.getStatus() == null ? null : p.getStatus().getReason())) {
            return true;
        }
        for (ContainerStatus c : containerStatuses(p)) {
            ContainerStateTerminated now = c.getState() == null ? null : c.getState().getTerminated();
            ContainerStateTerminated last = c.getLastState() == null ? null : c.getLastState().getTerminated();
            if ((now != null && "OOMKilled".equals(now.getReason())) || (last != null && "OOMKilled".equals(last.getReason()))) {
                return true;
            }
        }
        return false;
    }

    /** The failed pod's reason as Kubernetes gives it: the pod's own, else its containers' terminations. */
    static String failureOf(Pod p) {
        StringBuilder reason = new StringBuilder("pod " + key(p) + " failed");
        if (p.getStatus() != null && p.getStatus().getReason() != null) {
            reason.append(": ").append(p.getStatus().getReason());
            if (p.getStatus().getMessage() != null) {
                reason.append(" (").append(p.getStatus().getMessage()).append(')');
            }
        }
        for (ContainerStatus c : containerStatuses(p)) {
            ContainerStateTerminated t = c.getState() == null ? null : c.getState().getTerminated();
            if (t != null && (t.getExitCode() == null || t.getExitCode() != 0)) {
                reason.append("; container ").append(c.getName()).append(" terminated: ")
                        .append(t.getReason() == null ? "Error" : t.getReason())
                        .append(" (exit code ").append(t.getExitCode()).append(')');
                if (t.getMessage() != null && !t.getMessage().isBlank()) {
                    reason.append(": ").append(t.getMessage().strip());
                }
            }
        }
        return reason.toString();
    }

    /** Why Kubernetes deleted the pod when it says so (a DisruptionTarget condition), else null. */
    static String disruptionOf(Pod p) {
        List<PodCondition> conditions = p.getStatus() == null ? null : p.getStatus().getConditions();
        if (conditions == null) {
            return null;
        }
        for (PodCondition c : conditions) {
            if ("DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus())) {
                return c.getReason() + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")");
            }
        }
        return null;
    }

    /** From the first container start to the last container finish, as the kubelet recorded them. */
    static double runtimeSeconds(Collection<Pod> jobPods, Instant startedAt, Instant now) {
        Instant first = null;
        Instant last = null;
        for (Pod p : jobPods) {
            for (ContainerStatus c : containerStatuses(p)) {
                ContainerStateTerminated t = c.getState() == null ? null : c.getState().getTerminated();
                if (t != null && t.getStartedAt() != null && t.getFinishedAt() != null) {
                    Instant s = Instant.parse(t.getStartedAt());
                    Instant f = Instant.parse(t.getFinishedAt());
                    first = first == null || s.isBefore(first) ? s : first;
                    last = last == null || f.isAfter(last) ? f : last;
                }
            }
        }
        if (first == null) {
            first = startedAt == null ? now : startedAt;
            last = now;
        }
        return Math.max(0.0, Duration.between(first, last).toMillis() / 1000.0);
    }

    static String key(Pod p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    static String describeBinding(List<Pod> jobPods, List<String> targets) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < jobPods.size(); i++) {
            parts.add(key(jobPods.get(i)) + " → " + targets.get(i));
        }
        return String.join(", ", parts);
    }
}
