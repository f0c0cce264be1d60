package dev.sopline.engine.state;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A store as the stream thread reads and writes it, remembering the values it last read or wrote for up to
 * {@code capacity} keys and, where values may be large, up to a total weight (least recently used out), so a value read
 * again is not decoded again. The engine reads an
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
    private final ToLongFunction<V> weight;
    private final long maxWeight;
    private final LinkedHashMap<String, V> recent;
    private long remembered;

    public DecodedValues(KeyValueStore<String, V> store, int capacity) {
        this(store, capacity, value -> 0, Long.MAX_VALUE);
    }

    /**
     * Remembering at most {@code maxWeight} of {@code weight} in all, least recently used out: values that may be large
     * (an instance holds up to its data budget, and decoded it takes more) bound the memory, not only the count.
     */
    public DecodedValues(KeyValueStore<String, V> store, int capacity, ToLongFunction<V> weight, long maxWeight) {
        this.store = store;
        this.weight = weight;
        this.maxWeight = maxWeight;
        this.recent = new LinkedHashMap<>(Math.min(capacity, 1_024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                if (size() > capacity) {
                    remembered -= DecodedValues.this.weight.applyAsLong(eldest.getValue());
                    return true;
                }
                return false;
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
            remember(key, stored);
        }
        return stored;
    }

    /** Writes the value, or deletes the key when it is null. */
    public void put(String key, V value) {
        store.put(key, value);
        if (value == null) {
            forget(key);
        } else {
            remember(key, value);
        }
    }

    /** Writes the value without keeping it decoded: one that is not expected to be read again soon. */
    public void putForgetting(String key, V value) {
        store.put(key, value);
        forget(key);
    }

    public void delete(String key) {
        store.delete(key);
        forget(key);
    }

    /** How much of the weight is remembered now. */
    long rememberedWeight() {
        return remembered;
    }

    private void remember(String key, V value) {
        long added = weight.applyAsLong(value);
        if (added > maxWeight) {
            forget(key); // read from the store each time: one value may not take all the room
            return;
        }
        V previous = recent.put(key, value);
        remembered += added - (previous == null ? 0 : weight.applyAsLong(previous));
        if (remembered > maxWeight) {
            Iterator<Map.Entry<String, V>> eldest = recent.entrySet().iterator();
            while (remembered > maxWeight && eldest.hasNext()) {
                remembered -= weight.applyAsLong(eldest.next().getValue());
                eldest.remove();
            }
        }
    }

    private void forget(String key) {
        V removed = recent.remove(key);
        if (removed != null) {
            remembered -= weight.applyAsLong(removed);
        }
    }
}
