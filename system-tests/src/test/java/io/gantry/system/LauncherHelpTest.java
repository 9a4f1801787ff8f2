package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code ./gantry help} cannot drift from what the launcher and the replay accept: every command the script
 * dispatches is listed, and the flags listed for {@code up} are exactly the replay's flags (those {@code up} passes
 * through) plus the ones {@code up} reads itself.
 */
class LauncherHelpTest {

    private static final Pattern FLAG = Pattern.compile("--[a-z][a-z-]*");
    /** Replay flags {@code up} sets itself, from the system it started. */
    private static final Set<String> SET_BY_UP = Set.of("--bootstrap", "--service-events");

    @Test
    void helpListsEveryCommandAndEveryFlagOfUp() throws Exception {
        String script = Files.readString(GantryLauncher.ROOT.resolve("gantry"));
        String help = run(GantryLauncher.ROOT.resolve("gantry").toString(), "help");

        String dispatch = script.substring(script.indexOf("case \"${1:-help}\" in"));
        Matcher command = Pattern.compile("(?m)^  ([a-z-]+)(?:\\|[^)]*)?\\)").matcher(dispatch);
        Set<String> commands = new TreeSet<>();
        while (command.find()) {
            commands.add(command.group(1));
        }
        assertTrue(commands.containsAll(Set.of("up", "bench", "train", "replay", "build", "help")), "parsed: " + commands);
        for (String c : commands) {
            assertTrue(Pattern.compile("(?m)^  " + Pattern.quote(c) + " ").matcher(help).find(),
                    "./gantry help lists the command " + c + ":\n" + help);
        }

        Set<String> upHelp = flags(help.substring(help.indexOf("\n  up "), help.indexOf("\n  bench ")));
        String cmdUp = script.substring(script.indexOf("cmd_up() {"), script.indexOf("ensure_built", script.indexOf("cmd_up() {")));
        Set<String> upOwn = flags(cmdUp);
        upOwn.removeAll(SET_BY_UP);
        Set<String> replay = flags(run("java", "-jar",
                GantryLauncher.ROOT.resolve("sac-trainer/target/sac-trainer-0.1.0-SNAPSHOT.jar").toString(), "replay", "--help"));
        assertTrue(replay.containsAll(SET_BY_UP) && replay.contains("--jobs"), "parsed replay flags: " + replay);
        assertFalse(upOwn.isEmpty(), "parsed up's own flags: " + upOwn);

        Set<String> expected = new TreeSet<>(replay);
        expected.removeAll(SET_BY_UP);
        expected.addAll(upOwn);
        expected.remove("--help");
        upHelp.remove("--help");
        assertEquals(expected, upHelp, "./gantry help's up section lists the replay's flags and up's own:\n" + help);
    }

    private static Set<String> flags(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = FLAG.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(GantryLauncher.ROOT.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " ended");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + out);
        return out;
    }
}
