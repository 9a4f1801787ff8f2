package io.gantry.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressLineTest {

    @TempDir
    Path dir;

    @Test
    void theProgressLineRedrawsOnItsOwnAndPrintsTheNewsAboveItself() throws Exception {
        Path file = dir.resolve("supervisor.log");
        LifecycleTally tally = new LifecycleTally(1000);
        tally.submitted("job-1");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (ProgressLine line = new ProgressLine(tally, 5, Instant.now(), ServiceEvents.following(file), out)) {
            line.start();
            Files.writeString(file, "11:25:45 job-tuner exited (code 137, killed by SIGKILL); restarting (1/3)\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            // Nothing is submitted or consumed meanwhile: only the ticker draws.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (count(bytes.toString(StandardCharsets.UTF_8), "submitted 1/5") < 3 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(count(text, "submitted 1/5") >= 3, "redrawn without anything else happening: " + text);
        Set<String> timer = new HashSet<>();
        Matcher m = Pattern.compile("\\[ *([0-9.]+)s]").matcher(text);
        while (m.find()) {
            timer.add(m.group(1));
        }
        assertTrue(timer.size() >= 2, "the timer moves: " + text);
        assertTrue(text.contains("\r\033[K11:25:45 job-tuner exited (code 137, killed by SIGKILL); restarting (1/3)\n"),
                "the news on a line of its own: " + text);
        assertEquals(1, count(text, "restarting (1/3)"), "printed once: " + text);
        assertTrue(text.endsWith("restarts 1  down job-tuner" + System.lineSeparator()),
                "the last line shows the status and ends the line: " + text);
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
