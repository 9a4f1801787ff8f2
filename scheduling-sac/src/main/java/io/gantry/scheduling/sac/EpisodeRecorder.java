package io.gantry.scheduling.sac;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.sim.JobOutcome;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the decisions of one training episode and, once the replay is over, turns them into transitions.
 * The reward is {@link SacReward}'s, computed exactly from the jobs' submit and finish times, so an episode's
 * return is −Σ JCT ÷ scale (plus the optional terms). The last decision's interval runs to the last finish and
 * ends the episode.
 */
final class EpisodeRecorder implements SacPolicy.DecisionListener {

    private record Step(double time, CandidateSet state, int action, SacReward.Terms terms) {
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
        steps.add(new Step(now, state, action, SacReward.measure(settings, now, cluster, pending)));
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
        double[] submits = new double[outcomes.size()];
        double[] finishes = new double[outcomes.size()];
        for (int k = 0; k < outcomes.size(); k++) {
            JobOutcome o = outcomes.get(k);
            submits[k] = o.submit();
            finishes[k] = o.finish();
            end = Math.max(end, o.finish());
        }
        double[] boundary = new double[n + 1];
        for (int i = 0; i < n; i++) {
            boundary[i] = steps.get(i).time();
        }
        boundary[n] = end;
        double[] jobSeconds = SacReward.jobSecondsBetween(boundary, submits, finishes);
        for (int i = 0; i < n; i++) {
            Step s = steps.get(i);
            double r = SacReward.reward(settings, jobSeconds[i], s.terms(), boundary[i + 1] - boundary[i]);
            out.add(new Transition(s.state(), s.action(), r, i + 1 < n ? steps.get(i + 1).state() : null));
        }
        return out;
    }
}
