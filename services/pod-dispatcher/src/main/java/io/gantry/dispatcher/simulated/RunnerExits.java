package io.gantry.dispatcher.simulated;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What a job-runner process shows of itself from outside: its resident memory while it runs, why it ended badly. */
final class RunnerExits {

    private RunnerExits() {
    }

    /** {@code VmRSS} of a process in MiB; 0 when it is gone or there is no /proc. */
    static long residentMib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    static String failureReason(Path dir, Path log, int code) {
        try {
            Path failure = dir.resolve("checkpoints/failure.txt");
            if (Files.exists(failure)) {
                String why = Files.readString(failure).trim();
                if (!why.isEmpty()) {
                    return why.length() > 900 ? why.substring(0, 900) + "…" : why;
                }
            }
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            String last = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
            if (last.length() > 400) {
                last = last.substring(0, 400) + "…";
            }
            String signal = code > 128 ? " (signal " + (code - 128) + ")" : "";
            return "job-runner exited with code " + code + signal + " without a result; last log line: " + last;
        } catch (IOException | RuntimeException e) {
            return "job-runner exited with code " + code + " without a result";
        }
    }

}
