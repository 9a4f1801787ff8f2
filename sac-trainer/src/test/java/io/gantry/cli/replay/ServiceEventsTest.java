package io.gantry.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceEventsTest {

    @TempDir
    Path dir;

    private void append(Path file, String text) throws Exception {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void newCompleteLinesAreReturnedOnceAndCountedAsTheLauncherWritesThem() throws Exception {
        Path file = dir.resolve("supervisor.log");
        ServiceEvents events = ServiceEvents.following(file);
        assertEquals(List.of(), events.poll(), "no file yet: nothing");

        append(file, "11:25:45 job-tuner exited (code 137, killed by SIGKILL); restarting (1/3)\n11:25:47 job-tu");
        assertEquals(List.of("11:25:45 job-tuner exited (code 137, killed by SIGKILL); restarting (1/3)"), events.poll());
        assertEquals("restarts 1  down job-tuner", events.status());

        append(file, "ner ready again (pid 2234, 2 s after the restart)\n");
        assertEquals(List.of("11:25:47 job-tuner ready again (pid 2234, 2 s after the restart)"), events.poll(),
                "the line finished by a later write comes whole");
        assertEquals("restarts 1", events.status());
        assertEquals(List.of(), events.poll(), "each line once");

        append(file, "11:26:01 kafka-broker exited (code 1); not restarted: --max-restarts 3 reached\n");
        assertEquals(1, events.poll().size());
        assertEquals(1, events.restarts(), "a death without a restart is no restart");
        assertEquals("restarts 1  down kafka-broker", events.status());
    }

    @Test
    void withoutAFileThereIsNothingToShow() {
        ServiceEvents none = ServiceEvents.none();
        assertEquals(List.of(), none.poll());
        assertEquals("", none.status());
        assertFalse(none.enabled());
    }
}
