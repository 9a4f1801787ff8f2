package io.gantry.cli;

import io.gantry.scheduling.sac.SacConfig;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Entry point of the command line: {@code gantry <command> [options]}. Each command is one class. */
public final class GantryCli {

    /** A sub-command; returns the process exit code. */
    public interface Command {
        String summary();

        int run(String[] args) throws Exception;
    }

    private static final Map<String, Command> COMMANDS = new LinkedHashMap<>();

    static {
        // One line per command.
        COMMANDS.put("adapt", new io.gantry.cli.adapt.AdaptCommand(System.out, System.err));
        COMMANDS.put("bench", new io.gantry.cli.bench.BenchCommand(System.out, System.err));
        COMMANDS.put("bench-frag", new io.gantry.cli.benchfrag.BenchFragCommand(System.out, System.err));
        COMMANDS.put("predictors", new io.gantry.cli.predict.PredictorsCommand(System.out, System.err));
        COMMANDS.put("replay", new io.gantry.cli.replay.ReplayCommand());
        COMMANDS.put("train", new io.gantry.cli.train.TrainCommand(System.out, System.err));
    }

    private GantryCli() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !COMMANDS.containsKey(args[0])) {
            System.err.println("usage: gantry <command> [options]\ncommands:");
            COMMANDS.forEach((name, c) -> System.err.printf("  %-16s %s%n", name, c.summary()));
            System.exit(args.length == 0 || args[0].equals("--help") ? 0 : 2);
        }
        // The sac policy's settings: -Dgantry.sac.* first, then GANTRY_SAC_*; --policy-setting may override them.
        SacConfig.use(SacConfig.from(key -> {
            String p = System.getProperty(key);
            return p != null && !p.isBlank() ? p
                    : System.getenv(key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_'));
        }));
        // The shared traces and datasets: -Dgantry.shared.dir first, then GANTRY_SHARED_DIR (the core reads no environment).
        String sharedDir = System.getenv("GANTRY_SHARED_DIR");
        if (System.getProperty("gantry.shared.dir") == null && sharedDir != null && !sharedDir.isBlank()) {
            System.setProperty("gantry.shared.dir", sharedDir);
        }
        int rc = COMMANDS.get(args[0]).run(Arrays.copyOfRange(args, 1, args.length));
        System.exit(rc);
    }
}
