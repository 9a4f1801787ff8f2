package io.gantry.scheduling.trace;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The trace formats the bench understands, each with its default file under the shared traces folder. */
public enum TraceFormat {
    OPENB("openb", "alibaba-gpu-v2023-openb/openb_pod_list_default.csv", new OpenbTraceLoader()),
    PHILLY("philly", "philly-pollux/philly-sep-oct.csv", new PhillyTraceLoader()),
    POLLUX("pollux", "philly-pollux/workloads/workload-1.csv", new PolluxWorkloadLoader()),
    // Alibaba's pai_job_duration_estimate_100K.csv is not shipped; users who fetch it pass --trace-file.
    PAI2020("pai2020", null, new Pai2020TraceLoader());

    private final String cliName;
    private final String defaultRelativePath;
    private final TraceLoader loader;

    TraceFormat(String cliName, String defaultRelativePath, TraceLoader loader) {
        this.cliName = cliName;
        this.defaultRelativePath = defaultRelativePath;
        this.loader = loader;
    }

    public String cliName() {
        return cliName;
    }

    public TraceLoader loader() {
        return loader;
    }

    /** The default file, or null when the format has none in the shared folder. */
    public Path defaultFile() {
        return defaultRelativePath == null ? null : SharedTraces.tracesDir().resolve(defaultRelativePath);
    }

    public static TraceFormat byCliName(String name) {
        for (TraceFormat f : values()) {
            if (f.cliName.equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown trace '" + name + "'; known: "
                + Arrays.stream(values()).map(TraceFormat::cliName).collect(Collectors.joining(", ")));
    }
}
