package io.gantry.scheduler.persistence;

import io.gantry.scheduling.sac.SacAgent;
import io.gantry.scheduling.sac.SacCheckpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The promoted SAC versions under the scheduler's data dir: {@code versions/sac-N/} holds version N's checkpoint
 * ({@link SacCheckpoint}), and the file {@code promoted} names the version in charge. A version's folder is
 * complete before it is renamed into place, and the pointer is replaced by an atomic rename after that, so a
 * crash at any moment leaves the previous promoted version or the new one, never half of one. Version 0 is the
 * checkpoint the service starts from when nothing was promoted yet; it is never written here.
 */
public final class PolicyVersions {

    /** The name decisions and {@code PolicyUpdated} carry: {@code sac-N}. */
    public static String name(int number) {
        return "sac-" + number;
    }

    private static final Pattern NAME = Pattern.compile("sac-(\\d+)");
    private static final String POINTER = "promoted";

    /** A promoted version on disk. */
    public record Version(int number, Path dir) {
        public String name() {
            return PolicyVersions.name(number);
        }
    }

    private final Path root;
    private final Path versions;

    public PolicyVersions(Path root) {
        this.root = root;
        this.versions = root.resolve("versions");
    }

    public Path root() {
        return root;
    }

    /** The version the pointer names, if any; empty when nothing was promoted. */
    public Optional<Version> latestPromoted() throws IOException {
        Path pointer = root.resolve(POINTER);
        if (!Files.isRegularFile(pointer)) {
            return Optional.empty();
        }
        String name = Files.readString(pointer).strip();
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new IOException(pointer + " names '" + name + "', not a version like sac-3");
        }
        return Optional.of(new Version(Integer.parseInt(m.group(1)), versions.resolve(name)));
    }

    /** The highest version number on disk (0 when none), so numbers never repeat, even past a rejected load. */
    public int highestNumber() throws IOException {
        return numbers().max(Integer::compare).orElse(0);
    }

    private Stream<Integer> numbers() throws IOException {
        if (!Files.isDirectory(versions)) {
            return Stream.empty();
        }
        try (Stream<Path> dirs = Files.list(versions)) {
            return dirs.map(p -> NAME.matcher(p.getFileName().toString())).filter(Matcher::matches)
                    .map(m -> Integer.parseInt(m.group(1))).toList().stream();
        }
    }

    /**
     * Saves {@code agent} as version {@code number}, makes it the promoted one, and deletes promoted versions
     * older than the newest {@code keep}.
     */
    public Version promote(int number, SacAgent agent, Map<String, Object> info, int keep) throws IOException {
        Files.createDirectories(versions);
        String name = name(number);
        Path tmp = versions.resolve(name + ".tmp");
        deleteTree(tmp);
        SacCheckpoint.save(tmp, agent, info);
        Path dir = versions.resolve(name);
        deleteTree(dir);
        move(tmp, dir);
        Path pointerTmp = root.resolve(POINTER + ".tmp");
        Files.writeString(pointerTmp, name + "\n");
        move(pointerTmp, root.resolve(POINTER));
        List<Integer> old = numbers().sorted(Comparator.reverseOrder()).skip(keep).toList();
        for (int n : old) {
            deleteTree(versions.resolve(name(n)));
        }
        return new Version(number, dir);
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> all = Files.walk(p)) {
            all.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.delete(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
