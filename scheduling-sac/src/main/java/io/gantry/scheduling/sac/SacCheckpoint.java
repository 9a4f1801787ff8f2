package io.gantry.scheduling.sac;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A checkpoint is a folder (or a classpath folder) with two files: {@value #PARAMS} (DJL parameters of the
 * actor, the twin critics and their targets, then log α) and {@value #METADATA} (settings, the feature
 * list, reward terms, and whatever the trainer adds: trace, seed, code version). Loading refuses a
 * checkpoint whose parameters do not match the SHA-256 in its metadata or whose feature list is not one this code
 * computes (the base features, or the base then the extra ones), so a corrupted or stale file is an error, not a
 * silently different policy. The feature list decides which of the two the loaded policy computes.
 */
public final class SacCheckpoint {

    public static final String PARAMS = "sac.params";
    public static final String METADATA = "metadata.json";
    /** Prefix of a checkpoint location inside the class path, e.g. {@code classpath:/sac/default}. */
    public static final String CLASSPATH = "classpath:";

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

    private SacCheckpoint() {
    }

    /** Writes the agent and its metadata; {@code info} values must be JSON-friendly (strings, numbers, lists, maps). */
    public static void save(Path dir, SacAgent agent, Map<String, Object> info) throws IOException {
        Files.createDirectories(dir);
        ByteArrayOutputStream params = new ByteArrayOutputStream();
        agent.writeParameters(params);
        byte[] bytes = params.toByteArray();
        JsonObject meta = new JsonObject();
        meta.add("settings", GSON.toJsonTree(settingsMap(agent.settings())));
        meta.add("features", GSON.toJsonTree(agent.settings().features().names()));
        meta.add("reward_terms", GSON.toJsonTree(rewardTerms(agent.settings())));
        meta.addProperty("actor", "logit = prior + " + agent.settings().residualBound() + " x tanh(MLP); prior = -"
                + agent.settings().priorWeight() + " x ln(1 + urgency / 60 GPU-s) + " + Features.AGE_WEIGHT
                + " x ln(1 + waited / 60 s) - node free fraction after placement; urgency = predicted remaining GPU"
                + " service, or attained GPU service once the job outlived its prediction; preemption of strictly less"
                + " urgent running jobs; never the true duration");
        meta.add("info", GSON.toJsonTree(info));
        meta.addProperty("params_sha256", sha256(bytes));
        Files.write(dir.resolve(PARAMS), bytes);
        Files.writeString(dir.resolve(METADATA), GSON.toJson(meta) + "\n");
    }

    /** Loads from a folder path or {@code classpath:/folder}; every failure is an IOException saying what is wrong. */
    public static SacAgent load(String location) throws IOException {
        byte[] metaBytes = read(location, METADATA);
        byte[] params = read(location, PARAMS);
        JsonObject meta;
        try {
            meta = JsonParser.parseString(new String(metaBytes, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (RuntimeException e) {
            throw new IOException(location + "/" + METADATA + " is not valid JSON: " + e.getMessage(), e);
        }
        JsonElement sha = meta.get("params_sha256");
        if (sha == null || !sha.getAsString().equals(sha256(params))) {
            throw new IOException(location + "/" + PARAMS + " does not match the SHA-256 recorded in its metadata"
                    + " (corrupted or replaced)");
        }
        JsonArray features = meta.getAsJsonArray("features");
        List<?> names = features == null ? null : GSON.fromJson(features, List.class);
        SacSettings base = settingsFrom(meta.getAsJsonObject("settings"), location);
        SacSettings settings = null;
        for (boolean extended : new boolean[] {false, true}) {
            if (base.withExtendedFeatures(extended).features().names().equals(names)) {
                settings = base.withExtendedFeatures(extended);
            }
        }
        if (settings == null) {
            throw new IOException(location + " was trained on features " + features + ", this code computes "
                    + Features.NAMES + ", optionally followed by " + Features.EXTRA_NAMES);
        }
        return SacAgent.readParameters(settings, new ByteArrayInputStream(params));
    }

    /** The metadata as written, for callers that report it. */
    public static JsonObject metadata(String location) throws IOException {
        return JsonParser.parseString(new String(read(location, METADATA), StandardCharsets.UTF_8)).getAsJsonObject();
    }

    private static byte[] read(String location, String file) throws IOException {
        if (location.startsWith(CLASSPATH)) {
            String resource = location.substring(CLASSPATH.length()).replaceAll("/+$", "") + "/" + file;
            try (InputStream in = SacCheckpoint.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IOException("no " + resource + " on the class path");
                }
                return in.readAllBytes();
            }
        }
        Path p = Path.of(location).resolve(file);
        if (!Files.isRegularFile(p)) {
            throw new IOException("no file " + p);
        }
        return Files.readAllBytes(p);
    }

    static Map<String, Object> settingsMap(SacSettings s) {
        return Map.ofEntries(Map.entry("window_jobs", s.windowJobs()), Map.entry("nodes_per_job", s.nodesPerJob()),
                Map.entry("hidden", s.hidden()), Map.entry("gamma", s.gamma()), Map.entry("tau", s.tau()),
                Map.entry("learning_rate", s.learningRate()), Map.entry("alpha_learning_rate", s.alphaLearningRate()),
                Map.entry("initial_alpha", s.initialAlpha()), Map.entry("target_entropy_ratio", s.targetEntropyRatio()),
                Map.entry("batch_size", s.batchSize()), Map.entry("replay_capacity", s.replayCapacity()),
                Map.entry("reward_scale_job_seconds", s.rewardScaleJobSeconds()),
                Map.entry("balance_weight", s.balanceWeight()), Map.entry("fairness_weight", s.fairnessWeight()),
                Map.entry("prior_weight", s.priorWeight()), Map.entry("residual_bound", s.residualBound()));
    }

    private static SacSettings settingsFrom(JsonObject o, String location) throws IOException {
        try {
            return new SacSettings(o.get("window_jobs").getAsInt(), o.get("nodes_per_job").getAsInt(),
                    o.get("hidden").getAsInt(), o.get("gamma").getAsDouble(), o.get("tau").getAsDouble(),
                    o.get("learning_rate").getAsDouble(), o.get("alpha_learning_rate").getAsDouble(),
                    o.get("initial_alpha").getAsDouble(), o.get("target_entropy_ratio").getAsDouble(),
                    o.get("batch_size").getAsInt(), o.get("replay_capacity").getAsInt(),
                    o.get("reward_scale_job_seconds").getAsDouble(), o.get("balance_weight").getAsDouble(),
                    o.get("fairness_weight").getAsDouble(), o.get("prior_weight").getAsDouble(),
                    o.get("residual_bound").getAsDouble());
        } catch (RuntimeException e) {
            throw new IOException(location + "/" + METADATA + " has no complete \"settings\": " + e, e);
        }
    }

    static Map<String, String> rewardTerms(SacSettings s) {
        return Map.of(
                "jobs_in_system", "on: -(jobs pending or running) x dt / " + s.rewardScaleJobSeconds()
                        + " job-seconds, summed exactly between decisions; its total is -(sum of JCTs), so it minimises average JCT (Little's law)",
                "balance", (s.balanceWeight() > 0 ? "on" : "off") + ": -" + s.balanceWeight()
                        + " x (coefficient of variation of node GPU allocation at the decision) x dt / 3600 s",
                "fairness", (s.fairnessWeight() > 0 ? "on" : "off") + ": -" + s.fairnessWeight()
                        + " x (1 - Jain's index over tenants of their pending jobs' mean wait at the decision) x dt / 3600 s");
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
