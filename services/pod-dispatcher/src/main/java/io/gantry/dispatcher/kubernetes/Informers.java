package io.gantry.dispatcher.kubernetes;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

/** Small helpers for the informers: one handler for every change, waiting for the first list, bounded id sets. */
final class Informers {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(60);
    /** Job ids remembered as decided or ended; far more than a cluster keeps in flight. */
    private static final int REMEMBERED_JOBS = 1_000_000;

    private Informers() {
    }

    static <T> ResourceEventHandler<T> handler(java.util.function.Consumer<T> onChange) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                onChange.accept(obj);
            }

            @Override
            public void onUpdate(T before, T obj) {
                onChange.accept(obj);
            }

            @Override
            public void onDelete(T obj, boolean finalStateUnknown) {
                onChange.accept(obj);
            }
        };
    }

    static void await(java.util.concurrent.CompletableFuture<?> started, String what) {
        try {
            started.get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing " + what, e);
        } catch (Exception e) {
            throw new IllegalStateException("could not list and watch " + what + " on the API server: " + e, e);
        }
    }

    static Set<String> bounded() {
        return Collections.newSetFromMap(new LinkedHashMap<>(1024, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > REMEMBERED_JOBS;
            }
        });
    }
}
