package dev.sopline.engine.api.view;

import java.util.HashMap;
import java.util.Map;

/**
 * What happened in one workspace during one minute or one hour, for {@code /sop/metrics?window=}.
 *
 * @param started instances started
 * @param completed instances completed
 * @param failed instances failed
 * @param cancelled instances cancelled
 * @param escalations steps an agent escalated to a person
 * @param durationBins durations ({@code completed_at - started_at}) of the instances completed, in
 *     {@link DurationBins}
 * @param maxDurationMs the longest of those durations, exactly; null when none completed
 * @param format the stored record's format
 */
public record WindowBucket(long started, long completed, long failed, long cancelled, long escalations,
                           Map<Integer, Long> durationBins, Long maxDurationMs, Integer format) {

    public static final int FORMAT = 1;

    public WindowBucket {
        durationBins = durationBins == null ? Map.of() : Map.copyOf(durationBins);
        format = format == null ? FORMAT : format;
    }

    public static WindowBucket empty() {
        return new WindowBucket(0, 0, 0, 0, 0, Map.of(), null, FORMAT);
    }

    public WindowBucket plus(WindowBucket other) {
        Map<Integer, Long> bins = new HashMap<>(durationBins);
        other.durationBins.forEach((bin, count) -> bins.merge(bin, count, Long::sum));
        Long max = maxDurationMs;
        if (max == null || (other.maxDurationMs != null && other.maxDurationMs > max)) {
            max = other.maxDurationMs;
        }
        return new WindowBucket(started + other.started, completed + other.completed, failed + other.failed,
                cancelled + other.cancelled, escalations + other.escalations, bins, max, FORMAT);
    }

    public static WindowBucket startedOne() {
        return new WindowBucket(1, 0, 0, 0, 0, Map.of(), null, FORMAT);
    }

    public static WindowBucket completedOne(long durationMs) {
        return new WindowBucket(0, 1, 0, 0, 0, Map.of(DurationBins.binOf(durationMs), 1L), durationMs, FORMAT);
    }

    public static WindowBucket failedOne() {
        return new WindowBucket(0, 0, 1, 0, 0, Map.of(), null, FORMAT);
    }

    public static WindowBucket cancelledOne() {
        return new WindowBucket(0, 0, 0, 1, 0, Map.of(), null, FORMAT);
    }

    public static WindowBucket escalated(long count) {
        return new WindowBucket(0, 0, 0, 0, count, Map.of(), null, FORMAT);
    }
}
