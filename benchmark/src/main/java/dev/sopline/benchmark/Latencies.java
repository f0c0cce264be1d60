package dev.sopline.benchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Recorded durations in nanoseconds, and their percentiles in milliseconds. */
final class Latencies {

    private final List<Long> nanos = Collections.synchronizedList(new ArrayList<>());

    void record(long durationNanos) {
        nanos.add(durationNanos);
    }

    int count() {
        return nanos.size();
    }

    double percentileMillis(double percentile) {
        List<Long> sorted;
        synchronized (nanos) {
            sorted = new ArrayList<>(nanos);
        }
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(sorted);
        int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1))) / 1_000_000.0;
    }
}
