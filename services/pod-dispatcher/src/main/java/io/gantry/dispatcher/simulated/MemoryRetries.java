package io.gantry.dispatcher.simulated;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobSubmitted;
import io.gantry.events.Limits;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * Submits a real job killed for memory once more, as {@code <job>-mem-retry}, with the memory it needed; counted in
 * {@code gantry_dispatcher_memory_retries}. A job whose id already ends with the suffix is not retried again.
 */
final class MemoryRetries {

    /** The suffix of a real job's retry after a memory kill: a job whose id ends with it is not retried again. */
    static final String SUFFIX = "-mem-retry";

    private static final Logger LOG = Logger.getLogger(SimulatedCluster.class);
    private static final Pattern NEEDED = Pattern.compile("needs at least (\\d+) MiB");

    /** Where a retry is submitted; null: no retry. */
    private final Consumer<JobSubmitted> resubmit;
    private final AtomicInteger count = new AtomicInteger();

    MemoryRetries(Consumer<JobSubmitted> resubmit) {
        this.resubmit = resubmit;
    }

    /** Publishes the count as {@code gantry_dispatcher_memory_retries}. */
    void register(MeterRegistry registry) {
        Gauge.builder("gantry_dispatcher_memory_retries", count, AtomicInteger::get)
                .description("Real jobs killed for memory and submitted again with the memory they needed")
                .register(registry);
    }

    /** Whether a job killed for memory with this id is submitted again. */
    boolean retries(String jobId) {
        return resubmit != null && !jobId.endsWith(SUFFIX);
    }

    /**
     * The least a retry asks for. A run is killed the moment its resident memory crosses the request, so what it had
     * reached is a lower bound of its peak, not the peak (a digits CNN killed at 100 MiB peaks near 310 MiB). The
     * runner's peak is bounded by its heap ({@code -Xmx256m} by default) plus PyTorch's native memory; the largest
     * peak {@code ./gantry bench tuner-profile} measured is 309 MiB, so 512 MiB lets the one retry finish.
     */
    static final long MIN_RETRY_MIB = 512;

    /**
     * Submits a memory-killed real job once more, as {@code <job>-mem-retry}, with a memory request of the largest of
     * what it reached plus a quarter, twice its request and {@link #MIN_RETRY_MIB} (rounded up to 64 MiB), so the
     * retry is placed where that fits and is not killed again.
     */
    void retry(RunningJob job, String reason) {
        SchedulingDecision d = job.decision();
        Matcher m = NEEDED.matcher(reason);
        long needed = m.find() ? Long.parseLong(m.group(1)) : d.perTask().memoryMib() * 2;
        long wanted = Math.max(Math.max(needed * 5 / 4, d.perTask().memoryMib() * 2), MIN_RETRY_MIB);
        long request = Math.min(Limits.MAX_MEMORY_MIB_PER_TASK, (wanted + 63) / 64 * 64);
        ResourceAmounts perTask = new ResourceAmounts(d.perTask().gpuMilli(), d.perTask().cpuMilli(), request);
        JobSubmitted retry = new JobSubmitted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(),
                d.jobId() + SUFFIX, d.user(), d.jobId() + SUFFIX, null, d.nodes().size(),
                perTask, null, null, null, null, true, job.training());
        count.incrementAndGet();
        LOG.infof("job %s was killed for memory (%s); submitted again as %s with %d MiB", d.jobId(), reason,
                retry.jobId(), request);
        resubmit.accept(retry);
    }

    /** Real jobs killed for memory and submitted again. */
    int count() {
        return count.get();
    }
}
