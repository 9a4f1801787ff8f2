package io.gantry.cli;

import java.io.PrintStream;

/** A command that reports on {@code out} and complains on {@code err}; {@link GantryCli} passes the process's own. */
public abstract class PrintingCommand implements GantryCli.Command {

    protected final PrintStream out;
    protected final PrintStream err;

    protected PrintingCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }
}
