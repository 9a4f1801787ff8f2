package io.gantry.cli;

import java.io.PrintStream;
import java.util.function.Function;

/**
 * How every command starts: its options parsed from the arguments, then its work on them. {@code --help} prints the
 * usage on out and exits 0; a bad flag prints the parser's reason, named after the command, and the usage on err and
 * exits 2.
 */
public final class CommandOptions {

    private CommandOptions() {
    }

    /** A command's work once its options are read; its result is the exit code. */
    @FunctionalInterface
    public interface Work<T, E extends Exception> {
        int run(T options) throws E;
    }

    public static <T, E extends Exception> int run(String command, String usage, String[] args,
                                                   Function<String[], T> parser, PrintStream out, PrintStream err,
                                                   Work<T, E> work) throws E {
        T options;
        try {
            options = parser.apply(args);
        } catch (FlagValues.HelpRequested h) {
            out.print(usage);
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("gantry " + command + ": " + e.getMessage());
            err.print(usage);
            return 2;
        }
        return work.run(options);
    }
}
