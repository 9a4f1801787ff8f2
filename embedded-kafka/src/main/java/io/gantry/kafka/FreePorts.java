package io.gantry.kafka;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports that are free now, for a listener that binds them a little later (often in another process: the broker,
 * a service, Prometheus). They are taken below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range},
 * 32768–60999 by default), never from it: a port the kernel hands out for {@code bind(0)} is one it also hands to
 * outgoing connections, and with a dozen JVMs opening Kafka connections on two cores a service that took a minute to
 * start found its port taken by one (LauncherSupervisionTest, "Port 46510 seems to be in use"). Below that range only
 * a listener can hold a port, and each one handed out is checked free by binding it.
 */
public final class FreePorts {

    private static final int LOWEST = 10_000;
    private static final int DEFAULT_EPHEMERAL_LOW = 32_768;
    private static final int RANGE_END = ephemeralLow();
    /** Where the next search starts: random per JVM, so that JVMs side by side rarely try the same ports first. */
    private static final AtomicInteger NEXT = new AtomicInteger(
            LOWEST + ThreadLocalRandom.current().nextInt(Math.max(1, RANGE_END - LOWEST)));

    private FreePorts() {
    }

    /** One port nobody listens on now. */
    public static int one() {
        return run(1);
    }

    /** The first of {@code n} consecutive ports nobody listens on now. */
    public static int run(int n) {
        if (n < 1 || n > 100) {
            throw new IllegalArgumentException("a run of 1 to 100 ports, not " + n);
        }
        int span = RANGE_END - LOWEST;
        if (span < 10 * n) {
            return fromKernel(n);
        }
        for (int attempt = 0; attempt < 200; attempt++) {
            int first = LOWEST + Math.floorMod(NEXT.getAndAdd(n) - LOWEST, span - n);
            if (allFree(first, n)) {
                return first;
            }
        }
        throw new IllegalStateException("no run of " + n + " free ports found in " + LOWEST + "–" + RANGE_END);
    }

    /** A system whose ephemeral range leaves no room below it: the kernel's choice, as before. */
    private static int fromKernel(int n) {
        for (int attempt = 0; attempt < 50; attempt++) {
            int first;
            try (ServerSocket s = new ServerSocket(0)) {
                first = s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (first + n - 1 <= 65_535 && allFree(first, n)) {
                return first;
            }
        }
        throw new IllegalStateException("no run of " + n + " free ports found");
    }

    private static boolean allFree(int first, int n) {
        for (int p = first; p < first + n; p++) {
            try (ServerSocket s = new ServerSocket(p)) {
                s.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    /** The first port of the kernel's ephemeral range; 32768, Linux's default, where it cannot be read. */
    static int ephemeralLow() {
        // A line reader, not Files.readString: for this /proc file (size 0) that returns only its first byte ("3").
        try (BufferedReader r = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }
}
