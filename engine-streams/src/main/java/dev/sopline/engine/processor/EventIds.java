package dev.sopline.engine.processor;

import com.github.f4b6a3.ulid.Ulid;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;

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
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(place.getBytes(StandardCharsets.UTF_8));
            return new Ulid(time.toEpochMilli(), Arrays.copyOf(hash, 10)).toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected the JVM to provide SHA-256", e);
        }
    }
}
