package io.gantry.cli.replay;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The replay's live progress line, redrawn by a thread of its own twice a second, so neither a long wait between two
 * arrivals nor a slow send freezes it or its timer. Lines a supervisor reports ({@link ServiceEvents}) are printed
 * above it as they come.
 */
final class ProgressLine implements AutoCloseable {

    private static final long PERIOD_MS = 500;
    /** Back to the line's start and clear it: a shorter line leaves nothing of a longer one behind. */
    private static final String CLEAR = "\r\033[K";

    private final LifecycleTally tally;
    private final int total;
    private final Instant since;
    private final ServiceEvents events;
    private final PrintStream out;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "progress-line");
        t.setDaemon(true);
        return t;
    });
    private boolean closed;

    ProgressLine(LifecycleTally tally, int total, Instant since, ServiceEvents events, PrintStream out) {
        this.tally = tally;
        this.total = total;
        this.since = since;
        this.events = events;
        this.out = out;
    }

    ProgressLine start() {
        ticker.scheduleAtFixedRate(this::redrawQuietly, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Prints the supervisor's new lines, then the progress line (without a newline). */
    synchronized void redraw() {
        if (closed) {
            return;
        }
        for (String line : events.poll()) {
            out.print(CLEAR + line + "\n");
        }
        out.print(CLEAR + line(tally.snapshot()));
        out.flush();
    }

    private void redrawQuietly() {
        try {
            redraw();
        } catch (RuntimeException e) {
            // A failed redraw must not cancel the later ones (a scheduled task that throws is never run again).
            out.print(CLEAR + "progress line: " + e + "\n");
        }
    }

    String line(LifecycleTally.Snapshot s) {
        double wall = Duration.between(since, Instant.now()).toMillis() / 1000.0;
        String line = String.format(Locale.ROOT, "[%6.1fs] submitted %d/%d  running %d  completed %d  failed %d  "
                        + "rejected %d  pending %d  preempted %d  dup %d", wall, s.submitted(), total, s.running(),
                s.completed(), s.failed(), s.rejected(), s.pending(), s.preempted(), s.duplicates());
        if (s.realJobs() > 0) {
            line += String.format(Locale.ROOT, "  real %d: running %d done %d at-target %d", s.realJobs(),
                    s.realRunning(), s.realCompleted(), s.realTargetReached());
        }
        String status = events.status();
        return status.isEmpty() ? line : line + "  " + status;
    }

    /** Stops the ticker and draws the line a last time, with a newline; a second call does nothing. */
    @Override
    public void close() {
        ticker.shutdownNow();
        synchronized (this) {
            if (closed) {
                return;
            }
            redraw();
            out.println();
            closed = true;
        }
    }
}
