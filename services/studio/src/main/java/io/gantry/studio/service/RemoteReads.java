package io.gantry.studio.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.studio.config.StudioConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The documented REST read endpoints of other services the studio shows: sac-scheduler's queue and its explanation of
 * why a job waits, priority-accounting's view of a user. A service that is down or slow costs the page only its part:
 * every read answers with the JSON or with the reason it has none, within {@link StudioConfig#remoteTimeout()}.
 */
@ApplicationScoped
public class RemoteReads {

    /** A remote answer: {@code json} when the service answered 200, else null and {@code reason} says why. */
    public record Answer(JsonNode json, String reason) {
    }

    private final StudioConfig config;
    private final HttpClient http;

    public RemoteReads(StudioConfig config) {
        this.config = config;
        this.http = HttpClient.newBuilder().connectTimeout(config.remoteTimeout()).build();
    }

    /** Queue position (1 = next) of every job the scheduler holds pending; empty when it cannot be asked. */
    public Map<String, Integer> queuePositions() {
        Answer a = get(config.schedulerUrl(), "/scheduler/queue");
        Map<String, Integer> out = new HashMap<>();
        if (a.json() != null) {
            a.json().path("jobs").forEach(j -> out.put(j.path("jobId").asText(), j.path("position").asInt()));
        }
        return out;
    }

    /** The scheduler's explanation of why {@code jobId} waits (its {@code GET /scheduler/queue/{jobId}}). */
    public Answer pending(String jobId) {
        return get(config.schedulerUrl(), "/scheduler/queue/" + encode(jobId));
    }

    public Answer priority(String user) {
        return get(config.priorityUrl(), "/users/" + encode(user));
    }

    public Answer usage(String user) {
        return get(config.priorityUrl(), "/users/" + encode(user) + "/usage");
    }

    private Answer get(String base, String path) {
        String url = base.replaceAll("/+$", "") + path;
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(config.remoteTimeout()).GET();
        config.serviceToken().filter(t -> !t.isBlank()).ifPresent(t -> b.header("Authorization", "Bearer " + t));
        HttpRequest req = b.build();
        try {
            HttpResponse<String> res = http.send(req, HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() == 200) {
                return new Answer(EventCodec.mapper().readTree(res.body()), null);
            }
            return new Answer(null, url + " answered " + res.statusCode());
        } catch (IOException e) {
            return new Answer(null, url + " is unreachable: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(null, "interrupted while asking " + url);
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
