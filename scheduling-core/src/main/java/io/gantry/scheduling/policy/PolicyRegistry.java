package io.gantry.scheduling.policy;

import io.gantry.scheduling.pollux.PolluxPolicy;
import io.gantry.scheduling.framework.SchedulingPolicy;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Every policy by name. A new policy is one class and one line here; a policy in another module (the learned
 * {@code sac}, in scheduling-sac) is found through {@link PolicyProvider} when that module is on the classpath.
 */
public final class PolicyRegistry {

    private static final Map<String, Supplier<SchedulingPolicy>> POLICIES = new LinkedHashMap<>();

    static {
        POLICIES.put(KubeDefaultPolicy.NAME, KubeDefaultPolicy::new);
        POLICIES.put(BinpackPolicy.NAME, BinpackPolicy::new);
        POLICIES.put(DrfPolicy.NAME, DrfPolicy::new);
        POLICIES.put(TiresiasPolicy.NAME, TiresiasPolicy::new);
        POLICIES.put(QssfPolicy.NAME, QssfPolicy::new);
        POLICIES.put(SrptOraclePolicy.NAME, SrptOraclePolicy::new);
        POLICIES.put(PolluxPolicy.NAME, PolluxPolicy::new);
        for (PolicyProvider p : ServiceLoader.load(PolicyProvider.class, PolicyRegistry.class.getClassLoader())) {
            if (POLICIES.putIfAbsent(p.name(), p::create) != null) {
                throw new IllegalStateException("two policies are named '" + p.name() + "'");
            }
        }
    }

    private PolicyRegistry() {
    }

    public static Set<String> names() {
        return POLICIES.keySet();
    }

    /**
     * The policies that schedule any trace: every name but those that need Pollux's application profiles for each
     * job ({@code pollux}, a peer's method, run only on Pollux's workloads and only when asked for by name).
     */
    public static Set<String> generalNames() {
        Set<String> general = new java.util.LinkedHashSet<>(POLICIES.keySet());
        general.remove(PolluxPolicy.NAME);
        return general;
    }

    /** A fresh instance (policies may keep per-run state). */
    public static SchedulingPolicy create(String name) {
        Supplier<SchedulingPolicy> s = POLICIES.get(name);
        if (s == null) {
            throw new IllegalArgumentException("unknown policy '" + name + "'; known: " + String.join(", ", POLICIES.keySet()));
        }
        return s.get();
    }
}
