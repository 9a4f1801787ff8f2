package io.gantry.scheduling.framework;

import io.gantry.scheduling.model.JobRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Preemption's stage (kube-scheduler's PostFilter), one for every preemptive policy, SAC's candidates included:
 * which running jobs to stop so that a pending job fits. The policy ranks the candidates by its own urgency (lower is
 * more urgent) and says when the job fits; the chooser stops the least urgent first, one at a time on a trial copy of
 * the placer, until it fits. Only jobs strictly less urgent than the one to start are stopped, and with a restart cost
 * only ones less urgent by more than the GPU-seconds a stopped job loses ({@code restartCostS} × its GPUs): stopping
 * it for less would cost more service than it saves (SRPT with a switching cost). A plan that makes no room is
 * abandoned, so a failed attempt changes nothing.
 */
public final class VictimChooser {

    /** A running job that may be stopped, with the urgency its policy gives it now. */
    public record Candidate(RunningJob running, double urgency) {
        public String id() {
            return running.job().id();
        }

        public double gpus() {
            return running.job().gpus();
        }
    }

    /** The jobs to stop, least urgent first, and the placer with their room released (and whatever fits charged). */
    public record Plan(List<Candidate> victims, GangPlacer trial) {
    }

    private final double restartCostS;

    /** @param restartCostS run time a stopped job needs again when it resumes; 0 when preemption is free */
    public VictimChooser(double restartCostS) {
        this.restartCostS = restartCostS;
    }

    /**
     * The victims for {@code job} (of urgency {@code urgency}) among {@code leastUrgentFirst}, skipping those in
     * {@code gone} (stopped already); {@code fits} tests a trial placer and may place the job on it. Null when
     * stopping every eligible candidate would not make room.
     */
    public Plan choose(GangPlacer placer, List<Candidate> leastUrgentFirst, Set<String> gone, JobRequest job,
                       double urgency, Predicate<GangPlacer> fits) {
        // Cheap necessary condition first: the GPUs free plus those every eligible victim holds.
        double freeable = placer.freeGpuTotal();
        for (Candidate v : leastUrgentFirst) {
            if (!gone.contains(v.id()) && worthStopping(v, urgency)) {
                freeable += v.gpus() * 1000;
            }
        }
        if (freeable < job.total().gpuMilli()) {
            return null;
        }
        GangPlacer trial = placer.copy();
        List<Candidate> chosen = new ArrayList<>();
        for (Candidate v : leastUrgentFirst) {
            if (v.urgency() <= urgency) {
                break; // least urgent first: none after this one is less urgent than the job
            }
            if (gone.contains(v.id()) || !worthStopping(v, urgency)) {
                continue;
            }
            trial.release(v.running().nodes(), v.running().job().perTask());
            chosen.add(v);
            if (fits.test(trial)) {
                return new Plan(chosen, trial);
            }
        }
        return null;
    }

    private boolean worthStopping(Candidate v, double urgency) {
        return v.urgency() > urgency + restartCostS * v.gpus();
    }
}
