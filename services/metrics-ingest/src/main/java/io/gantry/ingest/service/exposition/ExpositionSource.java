package io.gantry.ingest.service.exposition;

import io.gantry.ingest.service.NodeMetricsSource;
import io.gantry.ingest.service.SourceReading;
import io.gantry.ingest.service.SourceUnavailableException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Scrapes a Prometheus text exposition over HTTP, as Prometheus itself would scrape an exporter. */
public final class ExpositionSource implements NodeMetricsSource {

    private final URI url;
    private final Duration timeout;
    private final HttpClient http;
    private final ExpositionInterpreter interpreter = new ExpositionInterpreter();

    public ExpositionSource(URI url, Duration timeout) {
        this.url = url;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public SourceReading read() throws SourceUnavailableException {
        String body;
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(url).timeout(timeout)
                    .header("Accept", "text/plain;version=0.0.4").GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new SourceUnavailableException("unavailable", "HTTP " + response.statusCode() + " from " + url, null);
            }
            body = response.body();
        } catch (IOException e) {
            throw new SourceUnavailableException("unavailable", "cannot read " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SourceUnavailableException("unavailable", "interrupted while reading " + url, e);
        }
        ParsedExposition parsed = PrometheusTextParser.parse(body);
        if (parsed.samples().isEmpty()) {
            String first = parsed.errors().isEmpty() ? "it is empty"
                    : "line " + parsed.errors().get(0).line() + ": " + parsed.errors().get(0).reason();
            throw new SourceUnavailableException("unparsable", url + " did not answer with a metrics exposition: "
                    + first, null);
        }
        return interpreter.interpret(parsed);
    }

    @Override
    public String describe() {
        return url.toString();
    }
}
