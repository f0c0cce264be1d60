package dev.sopline.engine.state;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Finished instances (completed, failed, cancelled) in the order their retention ends. Key:
 * {@code <expiry millis, 15 digits>|<workspace>|<instance id>}, so the expired ones are one range scan from the start,
 * however many instances are stored, as the timers are.
 */
public final class FinishedInstances {

    private final KeyValueStore<String, FinishedInstance> store;

    public FinishedInstances(KeyValueStore<String, FinishedInstance> store) {
        this.store = store;
    }

    /** Remembers a finished instance until {@code completedAt + retention}. */
    public void add(Instance finished, Duration retention) {
        Instant expiresAt = expiryOf(finished, retention);
        FinishedInstance entry = new FinishedInstance(finished.workspace(), finished.id(), expiresAt);
        store.put(key(entry), entry);
    }

    public static Instant expiryOf(Instance finished, Duration retention) {
        Instant end = finished.completedAt() != null ? finished.completedAt() : finished.startedAt();
        return end.plus(retention);
    }

    /**
     * Up to {@code max} entries whose retention has ended by {@code now}, the oldest first, passing over those whose
     * key {@code skip} accepts. Nothing is removed: an entry goes when its instance's expiry is decided ({@link #remove}).
     */
    public List<FinishedInstance> expired(Instant now, int max, Predicate<String> skip) {
        List<FinishedInstance> expired = new ArrayList<>();
        try (KeyValueIterator<String, FinishedInstance> iterator = store.range(null, Keys.millis(now.toEpochMilli()) + "|~")) {
            while (iterator.hasNext() && expired.size() < max) {
                KeyValue<String, FinishedInstance> entry = iterator.next();
                if (!skip.test(entry.key)) {
                    expired.add(entry.value);
                }
            }
        }
        return expired;
    }

    public void remove(FinishedInstance entry) {
        store.delete(key(entry));
    }

    public static String key(FinishedInstance entry) {
        return Keys.millis(entry.expiresAt().toEpochMilli()) + '|' + entry.workspace() + '|' + entry.instanceId();
    }
}
