package dev.sopline.engine.state;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A store as the stream thread reads and writes it, remembering the values it last read or wrote for up to
 * {@code capacity} keys (least recently used out), so a value read again is not decoded again. The engine reads an
 * instance for each of its commands and each workspace's counters and current metric buckets for most of them, and
 * decoding those records was about a twelfth of its stream thread's work.
 *
 * <p>Sound only as the one way a task's processor reaches its store, and only because the values are not changed in
 * place (records of immutable lists, maps only read): every write goes through here, and the processor that holds it
 * is initialised again whenever Kafka Streams resets the task's stores (a dirty close under exactly-once wipes them
 * and restores from the changelog), so nothing remembered outlives the state it was read from. Not thread safe: the
 * stream thread alone uses it; interactive queries read the store itself.
 */
public final class DecodedValues<V> {

    private final KeyValueStore<String, V> store;
    private final Map<String, V> recent;

    public DecodedValues(KeyValueStore<String, V> store, int capacity) {
        this.store = store;
        this.recent = new LinkedHashMap<>(Math.min(capacity, 1_024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > capacity;
            }
        };
    }

    public V get(String key) {
        V known = recent.get(key);
        if (known != null) {
            return known;
        }
        V stored = store.get(key);
        if (stored != null) {
            recent.put(key, stored);
        }
        return stored;
    }

    /** Writes the value, or deletes the key when it is null. */
    public void put(String key, V value) {
        store.put(key, value);
        if (value == null) {
            recent.remove(key);
        } else {
            recent.put(key, value);
        }
    }

    /** Writes the value without keeping it decoded: one that is not expected to be read again soon. */
    public void putForgetting(String key, V value) {
        store.put(key, value);
        recent.remove(key);
    }

    public void delete(String key) {
        store.delete(key);
        recent.remove(key);
    }
}
