package dev.sopline.engine.api.view;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What happened in one workspace during one minute or one hour, for {@code /sop/metrics?window=}.
 *
 * <p>The engine reads and writes the current minute's and hour's buckets at every start and every end of an
 * instance, so the duration bins are kept as one array of numbers, {@code [bin, count, bin, count, ...]} by
 * ascending bin: read and written without a map, a boxed number or a text key per bin, and merged in one pass.
 * Format 1 kept them as a map from bin to count; it is still read.
 *
 * @param started instances started
 * @param completed instances completed
 * @param failed instances failed
 * @param cancelled instances cancelled
 * @param escalations steps an agent escalated to a person
 * @param bins durations ({@code completed_at - started_at}) of the instances completed, in {@link DurationBins}, as
 *     {@code [bin, count, ...]} by ascending bin
 * @param maxDurationMs the longest of those durations, exactly; null when none completed
 * @param format the stored record's format
 */
public record WindowBucket(long started, long completed, long failed, long cancelled, long escalations,
                           long[] bins, Long maxDurationMs, Integer format) {

    public static final int FORMAT = 2;
    private static final long[] NONE = new long[0];

    public WindowBucket {
        bins = bins == null ? NONE : bins;
        format = format == null ? FORMAT : format;
    }

    /** Reads both formats: {@code bins} (2), or the map {@code duration_bins} (1). */
    @JsonCreator
    static WindowBucket read(@JsonProperty("started") long started, @JsonProperty("completed") long completed,
                             @JsonProperty("failed") long failed, @JsonProperty("cancelled") long cancelled,
                             @JsonProperty("escalations") long escalations, @JsonProperty("bins") long[] bins,
                             @JsonProperty("duration_bins") Map<Integer, Long> durationBins,
                             @JsonProperty("max_duration_ms") Long maxDurationMs, @JsonProperty("format") Integer format) {
        if (bins == null && durationBins != null) {
            bins = pairs(new TreeMap<>(durationBins));
        }
        return new WindowBucket(started, completed, failed, cancelled, escalations, bins, maxDurationMs, format);
    }

    public static WindowBucket empty() {
        return new WindowBucket(0, 0, 0, 0, 0, NONE, null, FORMAT);
    }

    /** The durations' bins as a map from bin to count, by ascending bin. */
    @JsonIgnore
    public Map<Integer, Long> durationBins() {
        Map<Integer, Long> map = new LinkedHashMap<>();
        for (int index = 0; index < bins.length; index += 2) {
            map.put((int) bins[index], bins[index + 1]);
        }
        return map;
    }

    public WindowBucket plus(WindowBucket other) {
        Long max = maxDurationMs;
        if (max == null || (other.maxDurationMs != null && other.maxDurationMs > max)) {
            max = other.maxDurationMs;
        }
        return new WindowBucket(started + other.started, completed + other.completed, failed + other.failed,
                cancelled + other.cancelled, escalations + other.escalations, merge(bins, other.bins), max, FORMAT);
    }

    /** Two sorted {@code [bin, count, ...]} arrays as one, the counts of a bin in both added. */
    private static long[] merge(long[] left, long[] right) {
        if (right.length == 0) {
            return left;
        }
        if (left.length == 0) {
            return right;
        }
        long[] merged = new long[left.length + right.length];
        int l = 0;
        int r = 0;
        int m = 0;
        while (l < left.length || r < right.length) {
            if (r >= right.length || (l < left.length && left[l] < right[r])) {
                merged[m++] = left[l++];
                merged[m++] = left[l++];
            } else if (l >= left.length || right[r] < left[l]) {
                merged[m++] = right[r++];
                merged[m++] = right[r++];
            } else {
                merged[m++] = left[l];
                merged[m++] = left[l + 1] + right[r + 1];
                l += 2;
                r += 2;
            }
        }
        return m == merged.length ? merged : Arrays.copyOf(merged, m);
    }

    private static long[] pairs(TreeMap<Integer, Long> sorted) {
        long[] pairs = new long[sorted.size() * 2];
        int index = 0;
        for (Map.Entry<Integer, Long> bin : sorted.entrySet()) {
            pairs[index++] = bin.getKey();
            pairs[index++] = bin.getValue();
        }
        return pairs;
    }

    public static WindowBucket startedOne() {
        return new WindowBucket(1, 0, 0, 0, 0, NONE, null, FORMAT);
    }

    public static WindowBucket completedOne(long durationMs) {
        return new WindowBucket(0, 1, 0, 0, 0, new long[] {DurationBins.binOf(durationMs), 1}, durationMs, FORMAT);
    }

    public static WindowBucket failedOne() {
        return new WindowBucket(0, 0, 1, 0, 0, NONE, null, FORMAT);
    }

    public static WindowBucket cancelledOne() {
        return new WindowBucket(0, 0, 0, 1, 0, NONE, null, FORMAT);
    }

    public static WindowBucket escalated(long count) {
        return new WindowBucket(0, 0, 0, 0, count, NONE, null, FORMAT);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WindowBucket bucket && started == bucket.started && completed == bucket.completed
                && failed == bucket.failed && cancelled == bucket.cancelled && escalations == bucket.escalations
                && Arrays.equals(bins, bucket.bins) && java.util.Objects.equals(maxDurationMs, bucket.maxDurationMs)
                && java.util.Objects.equals(format, bucket.format);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(started, completed, failed, cancelled, escalations, Arrays.hashCode(bins), maxDurationMs, format);
    }

    @Override
    public String toString() {
        return "WindowBucket[started=%d, completed=%d, failed=%d, cancelled=%d, escalations=%d, bins=%s, maxDurationMs=%s, format=%s]"
                .formatted(started, completed, failed, cancelled, escalations, Arrays.toString(bins), maxDurationMs, format);
    }
}
