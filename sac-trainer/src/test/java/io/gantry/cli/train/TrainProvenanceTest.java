package io.gantry.cli.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.gantry.scheduling.sac.SacCheckpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint names the clean commit it was trained from; a dirty tree is refused unless --allow-dirty, which says so. */
class TrainProvenanceTest {

    @TempDir
    Path repo;
    @TempDir
    Path work;
    private Path trace;
    private String head;

    @BeforeEach
    void aCommittedRepository() throws Exception {
        StringBuilder csv = new StringBuilder("timestamp,duration,num_gpus,gpu_time,cluster\n");
        for (int i = 0; i < 24; i++) {
            csv.append(String.format("2017-09-%02d 10:00:00,%d.0,1,%d.0,vc%d%n", 4 + i, 600 + 50 * i, 600 + 50 * i, i % 3));
        }
        csv.append("2017-10-20 10:00:00,60.0,1,60.0,vc0\n"); // the reporting split, never trained on
        trace = Files.writeString(work.resolve("philly.csv"), csv.toString());
        Files.writeString(repo.resolve("code.txt"), "v1\n");
        git("init", "-q");
        git("add", "code.txt");
        git("-c", "user.email=t@example.org", "-c", "user.name=t", "commit", "-q", "-m", "first");
        head = git("rev-parse", "--short", "HEAD");
    }

    @Test
    void aCleanTreeGivesItsCommitAndADirtyOneIsRefused() throws Exception {
        Run clean = train(work.resolve("clean"));
        assertEquals(0, clean.code, clean.err);
        JsonObject info = SacCheckpoint.metadata(work.resolve("clean/checkpoint").toString()).getAsJsonObject("info");
        assertEquals(head, info.get("code_version").getAsString());
        assertFalse(info.get("dirty").getAsBoolean());
        assertTrue(info.get("split").getAsString().startsWith("train (2017-09-01"), info.toString());

        Files.writeString(repo.resolve("code.txt"), "v2\n");
        Run refused = train(work.resolve("refused"));
        assertEquals(2, refused.code);
        assertTrue(refused.err.contains("differs from commit " + head) && refused.err.contains("code.txt")
                && refused.err.contains("--allow-dirty"), refused.err);
        assertFalse(Files.exists(work.resolve("refused/checkpoint")));
    }

    @Test
    void allowDirtyTrainsAndTheMetadataSaysDirty() throws Exception {
        Files.writeString(repo.resolve("new-file.txt"), "untracked\n");
        Run run = train(work.resolve("dirty"), "--allow-dirty");
        assertEquals(0, run.code, run.err);
        JsonObject info = SacCheckpoint.metadata(work.resolve("dirty/checkpoint").toString()).getAsJsonObject("info");
        assertEquals(head + "-dirty", info.get("code_version").getAsString());
        assertTrue(info.get("dirty").getAsBoolean());
        assertTrue(info.get("uncommitted_changes").toString().contains("new-file.txt"), info.toString());
    }

    @Test
    void theReportingSplitIsNeverTrainedOn() throws Exception {
        Run run = train(work.resolve("report"), "--split", "report");
        assertEquals(2, run.code);
        assertTrue(run.err.contains("--split report holds the reporting split"), run.err);
    }

    private record Run(int code, String err) {
    }

    private Run train(Path out, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("--trace-file", trace.toString(), "--split", "train", "--episodes",
                "1", "--episode-jobs", "10", "--updates", "0", "--load", "1.0", "--out", out.toString()));
        args.addAll(List.of(extra));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = new TrainCommand(new PrintStream(new ByteArrayOutputStream()), errStream, repo)
                .run(args.toArray(String[]::new));
        return new Run(code, err.toString(StandardCharsets.UTF_8));
    }

    private String git(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", repo.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), s);
        return s;
    }
}
