package dev.sopline.worker;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keys remembered for a while, at most {@code capacity} of them (the oldest is forgotten first): what a worker keeps
 * about the steps and runs it has seen must not grow with every step it ever saw. Thread-safe.
 */
final class RecentKeys {

    private final int capacity;
    private final Map<String, Instant> until;

    RecentKeys(int capacity) {
        this.capacity = capacity;
        this.until = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
                return size() > RecentKeys.this.capacity;
            }
        };
    }

    /** Remembers {@code key} until {@code now + duration}; true when it was not remembered already. */
    synchronized boolean add(String key, Instant now, Duration duration) {
        boolean known = contains(key, now);
        until.remove(key); // re-inserted last, so the most recent is forgotten last
        until.put(key, now.plus(duration));
        return !known;
    }

    /** Remembers {@code key} for good (until pushed out by newer ones); true when it was not remembered already. */
    synchronized boolean add(String key) {
        return until.putIfAbsent(key, Instant.MAX) == null;
    }

    synchronized boolean contains(String key, Instant now) {
        Instant expiry = until.get(key);
        if (expiry == null) {
            return false;
        }
        if (!now.isBefore(expiry)) {
            until.remove(key);
            return false;
        }
        return true;
    }

    /**
     * How many keys are remembered as of {@code now}. Keys whose time has passed are forgotten here from the oldest on,
     * up to the first still remembered: a key is otherwise only forgotten when asked about again, and a step resolved
     * elsewhere is never asked about again.
     */
    synchronized int size(Instant now) {
        Iterator<Map.Entry<String, Instant>> oldestFirst = until.entrySet().iterator();
        while (oldestFirst.hasNext()) {
            if (now.isBefore(oldestFirst.next().getValue())) {
                break;
            }
            oldestFirst.remove();
        }
        return until.size();
    }
}
