package io.gantry.cli;

import io.gantry.scheduling.trace.TraceFormat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Reading command-line flag values; every bad value becomes an {@link IllegalArgumentException} naming the flag. */
public final class FlagValues {

    private FlagValues() {
    }

    /** Thrown by an option parser for {@code --help}: the command prints its usage and exits 0. */
    public static final class HelpRequested extends RuntimeException {
        public HelpRequested() {
            super(null, null, false, false);
        }
    }

    /** One flag of a command line and the value after it; null for a switch, which takes none. */
    public record Flag(String name, String value) {
    }

    /**
     * The flags of {@code args} in order, each with its value, but for {@code switches}, which take none. Throws
     * {@link HelpRequested} for {@code --help} or {@code -h} in a flag's place, and as {@link #value} for an argument
     * that is not a flag or a flag without its value. What a flag means, and whether it is known, is the caller's.
     */
    public static List<Flag> read(String[] args, Set<String> switches) {
        List<Flag> flags = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new HelpRequested();
            }
            flags.add(new Flag(flag, switches.contains(flag) ? null : value(args, i++)));
        }
        return flags;
    }

    /**
     * The value of the flag at {@code args[i]}, which is {@code args[i + 1]}; the caller skips it. A flag must
     * start with {@code --} and must have a value.
     */
    public static String value(String[] args, int i) {
        String flag = args[i];
        if (!flag.startsWith("--")) {
            throw new IllegalArgumentException("unexpected argument '" + flag + "'");
        }
        if (i + 1 >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i + 1];
    }

    public static int positiveInt(String flag, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes a whole number ≥ 1, got '" + v + "'");
        }
    }

    /** A finite number. */
    public static double number(String flag, String v) {
        try {
            double d = Double.parseDouble(v);
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(flag + " takes numbers, got '" + v + "'");
    }

    public static double positive(String flag, String v) {
        double d = number(flag, v);
        if (d <= 0) {
            throw new IllegalArgumentException(flag + " must be positive, got " + v);
        }
        return d;
    }

    public static double nonNegative(String flag, String v) {
        double d = number(flag, v);
        if (d < 0) {
            throw new IllegalArgumentException(flag + " must not be negative, got " + v);
        }
        return d;
    }

    /** A comma-separated list with at least one non-blank item. */
    public static List<String> list(String flag, String v) {
        List<String> out = new ArrayList<>();
        for (String s : v.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(flag + " needs at least one value");
        }
        return out;
    }

    /** A comma list of seeds (whole numbers). */
    public static List<Long> seeds(String flag, String v) {
        List<Long> out = new ArrayList<>();
        for (String s : list(flag, v)) {
            try {
                out.add(Long.parseLong(s));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " takes whole numbers, got '" + s + "'");
            }
        }
        return out;
    }

    /** The trace file to read: {@code given} (from --trace-file) or the format's shipped default; it must exist. */
    public static Path traceFile(TraceFormat trace, Path given) {
        Path f = given != null ? given : trace.defaultFile();
        if (f == null) {
            throw new IllegalArgumentException("--trace " + trace.cliName() + " has no shipped file: pass --trace-file PATH");
        }
        if (!f.toFile().isFile()) {
            throw new IllegalArgumentException("trace file not found: " + f);
        }
        return f;
    }
}
