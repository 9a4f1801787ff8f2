package io.gantry.runner;

import ai.djl.ndarray.NDArray;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The runner's checkpoint files in their directory: names ordered by global step, atomic writes that keep the newest
 * two, and the encodings of the values {@link Training} stores in them. What goes into a file is Training's.
 */
final class CheckpointFiles {

    /** Version 2 lists each epoch's batch size after the optimiser state; version 1 files are still read. */
    static final String MAGIC = "gantry-checkpoint-2";
    static final String MAGIC_V1 = "gantry-checkpoint-1";
    private static final Comparator<Path> BY_NAME = Comparator.comparing(p -> p.getFileName().toString());

    /** Writes a checkpoint's body after the magic line. */
    interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    private CheckpointFiles() {
    }

    /** Writes the checkpoint of {@code globalStep} to a temporary file renamed into place, then keeps the newest two. */
    static void write(Path dir, long globalStep, Body body) throws IOException {
        Files.createDirectories(dir);
        String name = String.format("checkpoint-%012d.bin", globalStep);
        Path tmp = dir.resolve(name + ".tmp");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
            out.writeUTF(MAGIC);
            body.write(out);
        }
        Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        List<Path> all = list(dir);
        for (int i = 0; i < all.size() - 2; i++) {
            Files.deleteIfExists(all.get(i));
        }
    }

    /** The checkpoints in {@code dir}, oldest first; none when the directory does not exist. */
    static List<Path> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().matches("checkpoint-\\d+\\.bin")).sorted(BY_NAME).toList();
        }
    }

    static Optional<Path> newest(Path dir) throws IOException {
        List<Path> all = list(dir);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    /** Reads a checkpoint's magic: its format version (1 or 2); anything else is not a Gantry checkpoint. */
    static int readVersion(DataInputStream in, Path file) throws IOException {
        String magic = in.readUTF();
        if (MAGIC.equals(magic)) {
            return 2;
        }
        if (MAGIC_V1.equals(magic)) {
            return 1;
        }
        throw new IOException(file + " is not a Gantry checkpoint");
    }

    static void writeInts(DataOutputStream out, List<Integer> values) throws IOException {
        out.writeInt(values.size());
        for (int v : values) {
            out.writeInt(v);
        }
    }

    static List<Integer> readInts(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<Integer> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(in.readInt());
        }
        return values;
    }

    static void writeNullable(DataOutputStream out, Double v) throws IOException {
        out.writeBoolean(v != null);
        out.writeDouble(v == null ? 0 : v);
    }

    static Double readNullable(DataInputStream in) throws IOException {
        boolean present = in.readBoolean();
        double v = in.readDouble();
        return present ? v : null;
    }

    static void writeArray(DataOutputStream out, NDArray a) throws IOException {
        float[] f = a.toFloatArray();
        out.writeInt(f.length);
        for (float x : f) {
            out.writeFloat(x);
        }
    }

    static void readArray(DataInputStream in, NDArray into) throws IOException {
        int n = in.readInt();
        if (n != into.size()) {
            throw new IOException("optimiser state of " + n + " values for a parameter of " + into.size());
        }
        float[] f = new float[n];
        for (int i = 0; i < n; i++) {
            f[i] = in.readFloat();
        }
        into.set(f);
    }
}
