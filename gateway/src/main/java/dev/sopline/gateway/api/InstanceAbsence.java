package dev.sopline.gateway.api;

import com.github.f4b6a3.ulid.Ulid;
import dev.sopline.gateway.command.EngineUnavailableException;
import java.time.Duration;
import java.time.Instant;

/**
 * What to answer when the engine does not hold an instance. Instance ids are ULIDs minted when the start is sent, so
 * an id minted moments ago may name an instance that exists but is not in the stores yet: its start was answered
 * before the engine's transaction committed, and after an engine replica failed, the replica that took over has not
 * replayed that start yet. Such an id gets 503 and {@code Retry-After}, never a 404 for an instance that exists;
 * older or malformed ids get the 404.
 */
public final class InstanceAbsence {

    /** Longer than a failover takes: the group notices the loss, aborts the open transaction and replays it. */
    static final Duration MAY_STILL_APPEAR = Duration.ofSeconds(30);

    private InstanceAbsence() {}

    /**
     * How far ahead of this replica's clock another replica's may be. An id stamped later than that was not minted by
     * a gateway (a made-up id, or a callback id, whose first characters are a hash): it gets 404, where answering 503
     * would ask the client to retry for ever.
     */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(1);

    public static RuntimeException of(String process, String id) {
        Instant now = Instant.now();
        if (Ulid.isValid(id) && Ulid.from(id).getInstant().isAfter(now.minus(MAY_STILL_APPEAR))
                && Ulid.from(id).getInstant().isBefore(now.plus(CLOCK_SKEW))) {
            return new EngineUnavailableException("Instance '%s' of process '%s' was started moments ago and is not readable yet"
                    .formatted(id, process), null);
        }
        return ProcessController.notFound("Expected to find instance '%s' of process '%s', but there is none".formatted(id, process));
    }
}
