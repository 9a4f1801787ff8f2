package io.gantry.scheduling.framework;

/**
 * A policy that wraps another and changes or checks its decisions: it keeps the inner policy's name (decisions name
 * the policy that chose the jobs) and its {@link #skipsJobsThatDoNotFit} promise, which holds as long as the wrapper
 * only ever leaves placements out.
 */
public abstract class DecoratingPolicy implements SchedulingPolicy {

    /** The policy whose decisions this one changes or checks. */
    protected final SchedulingPolicy inner;

    protected DecoratingPolicy(SchedulingPolicy inner) {
        this.inner = java.util.Objects.requireNonNull(inner, "inner");
    }

    /** The inner policy's: decisions name the policy that chose their jobs. */
    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public boolean skipsJobsThatDoNotFit() {
        return inner.skipsJobsThatDoNotFit();
    }
}
