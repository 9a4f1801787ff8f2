package io.gantry.scheduling.sac;

/** One step of experience: in {@code state} the agent took candidate {@code action}, got {@code reward}, then saw {@code next} (null when the episode ended). */
public record Transition(CandidateSet state, int action, double reward, CandidateSet next) {

    public boolean done() {
        return next == null;
    }
}
