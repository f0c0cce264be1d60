package dev.sopline.engine.api.view;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Durations counted in bins that grow by 2% each: a sparse map from bin to count, which merges by adding and whose
 * percentiles are within 2% of the exact ones. Written by hand rather than with HdrHistogram (on the classpath through
 * Micrometer) because a bin map is a few dozen numbers in a JSON record that is read and written on the stream thread
 * at each completion; HdrHistogram's compact form must be compressed and decompressed each time.
 */
public final class DurationBins {

    private static final double GROWTH = 1.02;
    private static final double LOG_GROWTH = Math.log(GROWTH);

    private DurationBins() {}

    /** The bin of a duration: the smallest {@code b} with {@code 1.02^b >= millis + 1}. */
    public static int binOf(long millis) {
        return (int) Math.ceil(Math.log(Math.max(0, millis) + 1.0) / LOG_GROWTH - 1e-9);
    }

    /** The largest duration a bin holds, in milliseconds. */
    public static long upperBound(int bin) {
        return Math.max(0, (long) Math.floor(Math.pow(GROWTH, bin)) - 1);
    }

    /**
     * The duration at or below which {@code percentile} percent of the counted durations lie (nearest rank): the
     * upper bound of the bin holding that rank, but never more than the exact maximum. Null when nothing is counted.
     */
    public static Long percentile(Map<Integer, Long> bins, double percentile, Long max) {
        NavigableMap<Integer, Long> sorted = new TreeMap<>(bins);
        long total = sorted.values().stream().mapToLong(Long::longValue).sum();
        if (total == 0) {
            return null;
        }
        long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        for (Map.Entry<Integer, Long> bin : sorted.entrySet()) {
            seen += bin.getValue();
            if (seen >= rank) {
                long bound = upperBound(bin.getKey());
                return max == null ? bound : Math.min(bound, max);
            }
        }
        return max;
    }
}
