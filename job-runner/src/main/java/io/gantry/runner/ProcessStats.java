package io.gantry.runner;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** What this process used, measured, not assumed: peak resident set, CPU time, wall time since the JVM started. */
final class ProcessStats {

    private ProcessStats() {
    }

    /** {@code VmHWM} of {@code /proc/self/status} in bytes (the kernel's peak RSS); 0 where there is no /proc. */
    static long peakRssBytes() {
        return statusKb("VmHWM:") * 1024;
    }

    static long statusKb(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    /** User + system CPU seconds of this process (all threads, native ones included). */
    static double cpuSeconds() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9;
    }

    static double wallSeconds() {
        return ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0;
    }
}
