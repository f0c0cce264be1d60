package dev.sopline.engine.processor;

import dev.sopline.schemas.event.HashedUlids;
import java.time.Instant;

/**
 * Ids of the events on {@code sop.events}. A replay of the log after a crash publishes the events of a decision again,
 * and a subscriber that saw the first copy must see the same id, so the id derives from the command's place in the
 * log (partition and offset) and the event's place among that command's events: a ULID whose time is the event's
 * time and whose random part is a hash of those.
 */
final class EventIds {

    private EventIds() {}

    static String of(String instanceId, int partition, long offset, int index, Instant time) {
        String place = instanceId + "\n" + partition + "\n" + offset + "\n" + index;
        return HashedUlids.of(time.toEpochMilli(), place);
    }
}
