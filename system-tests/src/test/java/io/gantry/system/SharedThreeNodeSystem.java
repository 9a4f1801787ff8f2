package io.gantry.system;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One broker and the five services, on 3 simulated nodes of 8 GPUs at 1000x with the default policy ({@code sac},
 * preempting), shared by the test classes in {@link #USERS} ({@code @ExtendWith} and a {@link GantryProcesses}
 * parameter): on two cores each start of the six JVMs costs about 50 CPU-seconds. Started by the first of them that
 * runs, stopped once all of them have run (an idle system still costs a fifth of a core, so it must not outlive its
 * users), or at the end of the test run when only some of them are selected. The classes keep apart by their own job
 * ids and never count what they did not submit.
 */
public final class SharedThreeNodeSystem implements ParameterResolver, AfterAllCallback {

    static final List<Class<?>> USERS = List.of(PipelineEndToEndTest.class, PoisonJobTest.class);
    private static final Set<Class<?>> DONE = ConcurrentHashMap.newKeySet();

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == GantryProcesses.class;
    }

    @Override
    public GantryProcesses resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // In the root store, which closes it (AutoCloseable) at the end of the run if afterAll has not.
        return store(context).computeIfAbsent(SharedThreeNodeSystem.class, k -> start(), GantryProcesses.class);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        DONE.add(context.getRequiredTestClass());
        if (DONE.containsAll(USERS)) {
            GantryProcesses system = store(context).remove(SharedThreeNodeSystem.class, GantryProcesses.class);
            if (system != null) {
                system.close();
            }
        }
    }

    private static ExtensionContext.Store store(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL);
    }

    private static GantryProcesses start() {
        try {
            GantryProcesses system = new GantryProcesses();
            system.startBroker();
            system.startServices(Map.of("GANTRY_SIMULATED_CLUSTER_NODES", "3", "GANTRY_SIMULATED_CLUSTER_SPEEDUP", "1000"));
            return system;
        } catch (Exception e) {
            throw new IllegalStateException("the shared three-node system did not start", e);
        }
    }
}
