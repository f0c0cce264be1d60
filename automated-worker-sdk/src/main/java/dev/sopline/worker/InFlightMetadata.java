package dev.sopline.worker;

import java.time.Instant;

/**
 * The metadata a worker commits with a partition's offset: how many steps of that partition it runs now, and when it
 * said so, {@code {"inFlight":3,"at":"2026-01-01T00:00:00Z"}}. {@code GET /sop/workers} sums it per group, ignoring
 * figures too old to come from a live member. Kafka keeps it with the committed offset: no topic or store of its own.
 */
final class InFlightMetadata {

    private InFlightMetadata() {
    }

    static String encode(int inFlight, Instant at) {
        // A number and an ISO-8601 instant need no escaping: formatted by hand on the commit path.
        return "{\"inFlight\":" + inFlight + ",\"at\":\"" + at + "\"}";
    }
}
