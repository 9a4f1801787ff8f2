package io.gantry.cli.replay;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a supervisor reports about the processes it keeps running, read from the file it appends to ({@code ./gantry
 * up} writes {@code $RUN/supervisor.log}). A line is {@code <time> <process> <what happened>}; the launcher's words
 * this class counts are "exited …; restarting (k/N)", "exited …; not restarted …" and "ready again …". Not thread-safe:
 * one reader, the progress line.
 */
final class ServiceEvents {

    private final Path file;
    private long position;
    /** The start of a line whose newline has not been written yet. */
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private final Set<String> down = new TreeSet<>();
    private int restarts;
    private boolean unreadable;

    private ServiceEvents(Path file) {
        this.file = file;
    }

    /** Follows {@code file}, which need not exist yet. */
    static ServiceEvents following(Path file) {
        return new ServiceEvents(file);
    }

    /** No supervisor: nothing to show. */
    static ServiceEvents none() {
        return new ServiceEvents(null);
    }

    boolean enabled() {
        return file != null;
    }

    /** The complete lines appended since the last call; a file that cannot be read is reported once, then ignored. */
    List<String> poll() {
        if (file == null || unreadable || !Files.exists(file)) {
            return List.of();
        }
        byte[] fresh;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            if (f.length() < position) {
                position = 0; // the file was replaced: read the new one from its start
                partial.reset();
            }
            fresh = new byte[(int) Math.min(f.length() - position, 1 << 20)];
            f.seek(position);
            f.readFully(fresh);
            position += fresh.length;
        } catch (IOException e) {
            unreadable = true;
            return List.of("cannot read " + file + " (" + e.getMessage() + "); supervisor events no longer shown");
        }
        List<String> lines = new ArrayList<>();
        for (byte b : fresh) {
            if (b != '\n') {
                partial.write(b);
                continue;
            }
            String line = partial.toString(StandardCharsets.UTF_8);
            partial.reset();
            if (!line.isBlank()) {
                note(line);
                lines.add(line);
            }
        }
        return lines;
    }

    private void note(String line) {
        String[] words = line.split(" ", 3);
        if (words.length < 3) {
            return;
        }
        String process = words[1];
        String what = words[2];
        if (what.startsWith("exited")) {
            down.add(process);
            if (what.contains("; restarting (")) {
                restarts++;
            }
        } else if (what.startsWith("ready again")) {
            down.remove(process);
        }
    }

    /** Restarts announced so far. */
    int restarts() {
        return restarts;
    }

    /** For the progress line: e.g. "restarts 1  down job-tuner"; empty while nothing has happened. */
    String status() {
        StringBuilder s = new StringBuilder();
        if (restarts > 0) {
            s.append("restarts ").append(restarts);
        }
        if (!down.isEmpty()) {
            s.append(s.isEmpty() ? "" : "  ").append("down ").append(String.join(",", down));
        }
        return s.toString();
    }
}
