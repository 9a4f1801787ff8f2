package io.gantry.cli.bench;

import java.io.PrintStream;

/** A one-line progress bar on stderr, redrawn in place; cheap enough to call on every simulator report. */
public final class ProgressBar {

    private static final int WIDTH = 30;
    private final PrintStream err;
    private final int totalRuns;
    private String lastLine = "";

    public ProgressBar(PrintStream err, int totalRuns) {
        this.err = err;
        this.totalRuns = totalRuns;
    }

    public void update(int runIndex, String label, int done, int total) {
        double overall = (runIndex + (total == 0 ? 1 : (double) done / total)) / totalRuns;
        int filled = (int) Math.round(overall * WIDTH);
        String line = String.format("\r[%s%s] %3.0f%%  run %d/%d %s", "#".repeat(filled), " ".repeat(WIDTH - filled),
                overall * 100, Math.min(runIndex + 1, totalRuns), totalRuns, label);
        if (!line.equals(lastLine)) {
            err.print(line + "\u001b[K");
            err.flush();
            lastLine = line;
        }
    }

    public void finish() {
        err.println();
    }
}
