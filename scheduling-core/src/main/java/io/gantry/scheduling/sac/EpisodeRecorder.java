package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.sim.JobOutcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects the decisions of one training episode and, once the replay is over, turns them into transitions.
 * The reward of decision i is earned between its time and the next decision's:
 * −∫ (jobs pending or running) dt ÷ scale, computed exactly from the jobs' submit and finish times, so an
 * episode's return is −Σ JCT ÷ scale; plus the optional balance and fairness terms of {@link SacSettings},
 * whose values are taken at the decision and held until the next one. The last decision's interval runs to
 * the last finish and ends the episode.
 */
final class EpisodeRecorder implements SacPolicy.DecisionListener {

    private record Step(double time, CandidateSet state, int action, double nodeCv, double waitUnfairness) {
    }

    private final SacSettings settings;
    private final List<Step> steps = new ArrayList<>();
    private double entropySum;

    EpisodeRecorder(SacSettings settings) {
        this.settings = settings;
    }

    @Override
    public void decided(double now, CandidateSet state, int action, double[] probabilities, TentativeCluster cluster,
                        List<JobRequest> pending) {
        for (double q : probabilities) {
            if (q > 0) {
                entropySum -= q * Math.log(q);
            }
        }
        double cv = settings.balanceWeight() > 0 ? gpuAllocationCv(cluster) : 0;
        double unfair = settings.fairnessWeight() > 0 ? 1 - waitJain(now, pending) : 0;
        steps.add(new Step(now, state, action, cv, unfair));
    }

    int decisions() {
        return steps.size();
    }

    double meanPolicyEntropy() {
        return steps.isEmpty() ? 0 : entropySum / steps.size();
    }

    /** Transitions in decision order, with their rewards; the last one is terminal. */
    List<Transition> transitions(List<JobOutcome> outcomes) {
        int n = steps.size();
        List<Transition> out = new ArrayList<>(n);
        if (n == 0) {
            return out;
        }
        double end = steps.get(n - 1).time();
        double[] times = new double[2 * outcomes.size()];
        int[] deltas = new int[2 * outcomes.size()];
        Integer[] order = new Integer[times.length];
        for (int k = 0; k < outcomes.size(); k++) {
            JobOutcome o = outcomes.get(k);
            times[2 * k] = o.submit();
            deltas[2 * k] = 1;
            times[2 * k + 1] = o.finish();
            deltas[2 * k + 1] = -1;
            end = Math.max(end, o.finish());
        }
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Double.compare(times[a], times[b]));
        // Sweep: jobsInSystem over time, integrated up to each decision boundary.
        double[] boundary = new double[n + 1];
        for (int i = 0; i < n; i++) {
            boundary[i] = steps.get(i).time();
        }
        boundary[n] = end;
        double[] integralAt = new double[n + 1];
        int e = 0;
        int inSystem = 0;
        double t = Double.NEGATIVE_INFINITY;
        double integral = 0;
        for (int i = 0; i <= n; i++) {
            while (e < order.length && times[order[e]] <= boundary[i]) {
                if (t != Double.NEGATIVE_INFINITY) {
                    integral += inSystem * (times[order[e]] - t);
                }
                t = times[order[e]];
                inSystem += deltas[order[e]];
                e++;
            }
            if (t != Double.NEGATIVE_INFINITY) {
                integral += inSystem * (boundary[i] - t);
                t = boundary[i];
            }
            integralAt[i] = integral;
        }
        for (int i = 0; i < n; i++) {
            Step s = steps.get(i);
            double dt = boundary[i + 1] - boundary[i];
            double r = -(integralAt[i + 1] - integralAt[i]) / settings.rewardScaleJobSeconds()
                    - settings.balanceWeight() * s.nodeCv() * dt / 3600.0
                    - settings.fairnessWeight() * s.waitUnfairness() * dt / 3600.0;
            out.add(new Transition(s.state(), s.action(), r, i + 1 < n ? steps.get(i + 1).state() : null));
        }
        return out;
    }

    private static double gpuAllocationCv(TentativeCluster c) {
        int n = c.size();
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < n; i++) {
            double a = TentativeCluster.ratio(c.capGpu[i] - c.freeGpu[i], c.capGpu[i]);
            sum += a;
            sq += a * a;
        }
        double mean = sum / n;
        return mean <= 0 ? 0 : Math.sqrt(Math.max(0, sq / n - mean * mean)) / mean;
    }

    /** Jain's index over tenants of the mean wait of their pending jobs; 1 when one tenant or nobody waits. */
    private static double waitJain(double now, List<JobRequest> pending) {
        Map<String, double[]> byTenant = new HashMap<>();
        for (JobRequest j : pending) {
            double[] acc = byTenant.computeIfAbsent(j.user(), k -> new double[2]);
            acc[0] += now - j.submitTime();
            acc[1]++;
        }
        double sum = 0;
        double sq = 0;
        for (double[] acc : byTenant.values()) {
            double x = acc[0] / acc[1];
            sum += x;
            sq += x * x;
        }
        return sq <= 0 ? 1 : sum * sum / (byTenant.size() * sq);
    }
}
