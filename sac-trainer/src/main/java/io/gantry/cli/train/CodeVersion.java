package io.gantry.cli.train;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The commit a checkpoint is trained from, as git in {@code repo} reports it. A tree with any change git sees (a
 * modified, staged, deleted or untracked file that is not ignored) is dirty: any of them can change what is built, so
 * a checkpoint from it could not be retrained from its commit (issue 20: the shipped one said {@code 401824d-dirty}).
 *
 * @param commit  the short hash of HEAD, or "unknown" outside a git work tree
 * @param changes git's porcelain lines for the changes, empty when clean
 */
record CodeVersion(String commit, List<String> changes) {

    CodeVersion {
        changes = List.copyOf(changes);
    }

    boolean dirty() {
        return !changes.isEmpty();
    }

    boolean known() {
        return !commit.equals("unknown");
    }

    /** What the metadata records: the commit, with "-dirty" when the tree had changes. */
    String label() {
        return commit + (dirty() ? "-dirty" : "");
    }

    /** The error for a refused run: the commit and the first few changes. */
    String refusal() {
        StringBuilder s = new StringBuilder("the working tree differs from commit " + commit + " (" + changes.size()
                + " change" + (changes.size() == 1 ? "" : "s") + ": ");
        s.append(String.join(", ", changes.subList(0, Math.min(5, changes.size())).stream().map(String::strip).toList()));
        if (changes.size() > 5) {
            s.append(", ...");
        }
        return s.append("); a checkpoint must name the commit it was trained from: commit first, or pass --allow-dirty"
                + " and the metadata will say dirty").toString();
    }

    static CodeVersion of(Path repo) {
        try {
            String head = git(repo, "rev-parse", "--short", "HEAD");
            if (head == null || head.isEmpty()) {
                return new CodeVersion("unknown", List.of());
            }
            String status = git(repo, "status", "--porcelain");
            List<String> changes = status == null || status.isBlank() ? List.of() : status.lines().toList();
            return new CodeVersion(head, changes);
        } catch (IOException e) {
            return new CodeVersion("unknown", List.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CodeVersion("unknown", List.of());
        }
    }

    /** git's output, or null when it fails (not a work tree). */
    private static String git(Path repo, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", repo.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String s = new String(p.getInputStream().readAllBytes()).strip();
        return p.waitFor() == 0 ? s : null;
    }
}
