package io.gantry.dispatcher.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gantry.dispatcher.config.RealJobsConfig;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobTuned;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.ModelGraph;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingSpec;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which re-tunes the dispatcher carries out in place (a runner restart on the same room) and which it leaves to the
 * scheduler's re-size (a new room: the job's next attempt starts with the new spec); either way the newest spec is
 * the job's, and a stale or redelivered revision changes nothing. The reader is fed records directly, never started.
 */
class TunedSpecReaderTest {

    private static final Instant T0 = Instant.parse("2026-12-06T00:00:00Z");
    private static final TrainingSpec IRIS = new TrainingSpec(new ModelGraph(List.of(
            new ModelGraph.Layer("in", "Input", Map.of("shape", List.of(4))),
            new ModelGraph.Layer("out", "Output", Map.of("units", 3))), List.of(new ModelGraph.Edge("in", "out"))),
            "iris", "sgd", 0.01, 4, 20, 7L, null);

    private static RealJobsConfig config() {
        return (RealJobsConfig) Proxy.newProxyInstance(RealJobsConfig.class.getClassLoader(),
                new Class<?>[] {RealJobsConfig.class}, (proxy, method, args) -> {
                    if (method.getName().equals("specWait")) {
                        return Duration.ofMillis(10);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private static String tuned(int revision, int gpus, int batch) {
        return EventCodec.encode(new JobTuned(Events.newId(), 1, T0, "j", "u", "j", null, T0, 1,
                new ResourceAmounts(gpus * 1000L, 1000, 1024), null, null, null, null, List.of(), "test", true,
                IRIS.with(batch, 0.01, 20), revision));
    }

    @Test
    void aNewBatchOnTheSameRoomRestartsInPlaceAndANewRoomIsLeftToTheScheduler() {
        TunedSpecReader reader = new TunedSpecReader("localhost:1", KafkaClientAuth.PLAINTEXT, config());
        List<String> restarts = new ArrayList<>();
        reader.onRetune((jobId, spec) -> restarts.add(jobId + "@" + spec.batchSize()));

        reader.take(tuned(0, 1, 4));
        assertEquals(List.of(), restarts, "revision 0 is the job as queued");
        reader.take(tuned(1, 1, 16));
        assertEquals(List.of("j@16"), restarts, "same room, new batch: restarted in place");
        reader.take(tuned(2, 2, 32));
        assertEquals(List.of("j@16"), restarts, "a new room is the scheduler's re-size: no restart in place");
        assertEquals(32, reader.knownSpec("j").batchSize(), "the next attempt starts with the newest spec");
        reader.take(tuned(2, 2, 32));
        reader.take(tuned(1, 1, 16));
        assertEquals(List.of("j@16"), restarts, "a redelivered or stale revision changes nothing");
        assertEquals(32, reader.knownSpec("j").batchSize());
        reader.take(tuned(3, 2, 64));
        assertEquals(List.of("j@16", "j@64"), restarts, "the new room kept, a new batch: in place again");
    }
}
