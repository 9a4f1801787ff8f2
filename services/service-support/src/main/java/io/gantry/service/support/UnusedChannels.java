package io.gantry.service.support;

import java.util.Optional;

/**
 * Channels a service declares but does not consume in its current mode (pod-dispatcher's {@code submissions} channel is
 * for Kubernetes only). The admin API refuses to pause or resume them, so an operator cannot start a consumer the
 * service has no use for.
 */
public interface UnusedChannels {

    /** Why {@code channel} is not consumed in this mode; empty when it is consumed (or unknown to this bean). */
    Optional<String> unusedBecause(String channel);
}
