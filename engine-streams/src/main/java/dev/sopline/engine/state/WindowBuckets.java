package dev.sopline.engine.state;

import dev.sopline.engine.api.view.WindowBucket;
import dev.sopline.schemas.instance.InstanceState;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Per-minute and per-hour {@link WindowBucket}s of each workspace, kept {@link #KEPT} (the longest window) and then
 * removed by a timer. Each event is counted in its minute and in its hour, so a window is read as whole hours plus the
 * minutes at its two ends: at most about 840 records for 30 days, however busy they were. Keys:
 * {@code <workspace>|m|<minute start millis>} and {@code <workspace>|h|<hour start millis>}.
 */
public final class WindowBuckets {

    /** The longest window asked for; buckets are removed after it (plus their own length). */
    public static final Duration KEPT = Duration.ofDays(30);

    private static final long MINUTE = Duration.ofMinutes(1).toMillis();
    private static final long HOUR = Duration.ofHours(1).toMillis();

    private final DecodedValues<WindowBucket> store;
    private final Consumer<Timer> timers;

    /** @param timers where the timer that removes a new bucket is set */
    public WindowBuckets(KeyValueStore<String, WindowBucket> store, Consumer<Timer> timers) {
        // Each workspace's current minute and hour are written by most decisions that start or end an instance.
        this.store = new DecodedValues<>(store, 1_024);
        this.timers = timers;
    }

    /** Counts what one decision changed: an instance started or ended, steps escalated. */
    public void record(Instance before, Instance after, Instant now) {
        if (after == null) {
            return;
        }
        boolean started = before == null;
        boolean ended = after.isTerminal() && (before == null || !before.isTerminal());
        long escalated = after.steps().stream().filter(StepRun::escalated)
                .filter(step -> before == null || before.step(step.id()).map(old -> !old.escalated()).orElse(true))
                .count();
        // Most decisions move a step and count nothing: they leave before building and comparing buckets.
        if (!started && !ended && escalated == 0) {
            return;
        }
        WindowBucket change = WindowBucket.empty();
        if (started) {
            change = change.plus(WindowBucket.startedOne());
        }
        if (ended) {
            change = change.plus(ended(after));
        }
        if (escalated > 0) {
            change = change.plus(WindowBucket.escalated(escalated));
        }
        add(after.workspace(), "m", floor(now.toEpochMilli(), MINUTE), MINUTE, change);
        add(after.workspace(), "h", floor(now.toEpochMilli(), HOUR), HOUR, change);
    }

    private static WindowBucket ended(Instance instance) {
        if (instance.state() == InstanceState.COMPLETED) {
            Instant end = instance.completedAt() != null ? instance.completedAt() : instance.startedAt();
            return WindowBucket.completedOne(Math.max(0, end.toEpochMilli() - instance.startedAt().toEpochMilli()));
        }
        return instance.state() == InstanceState.FAILED ? WindowBucket.failedOne() : WindowBucket.cancelledOne();
    }

    private void add(String workspace, String granularity, long start, long length, WindowBucket change) {
        String key = key(workspace, granularity, start);
        WindowBucket stored = store.get(key);
        if (stored == null) {
            timers.accept(new Timer(Instant.ofEpochMilli(start + length).plus(KEPT), Timer.Kind.FORGET_WINDOW_BUCKET, workspace, key, null, 0));
        }
        store.put(key, stored == null ? change : stored.plus(change));
    }

    /** Removes a bucket whose time is past every window ({@link Timer.Kind#FORGET_WINDOW_BUCKET}). */
    public void forget(String key) {
        store.delete(key);
    }

    /**
     * What happened in a workspace between two instants, both inclusive, at a minute's precision: every minute that
     * the window touches counts whole.
     */
    public static WindowBucket sum(ReadOnlyKeyValueStore<String, WindowBucket> store, String workspace, Instant from, Instant to) {
        long first = floor(from.toEpochMilli(), MINUTE);
        long last = floor(to.toEpochMilli(), MINUTE);
        long firstWholeHour = floor(first + HOUR - 1, HOUR);
        long lastHour = floor(last, HOUR);
        if (firstWholeHour < lastHour) {
            return range(store, workspace, "m", first, firstWholeHour - MINUTE)
                    .plus(range(store, workspace, "h", firstWholeHour, lastHour - HOUR))
                    .plus(range(store, workspace, "m", lastHour, last));
        }
        return range(store, workspace, "m", first, last);
    }

    /** The buckets of one granularity whose start lies between two starts, both inclusive, added up. */
    private static WindowBucket range(ReadOnlyKeyValueStore<String, WindowBucket> store, String workspace, String granularity,
                                      long fromStart, long toStart) {
        WindowBucket total = WindowBucket.empty();
        if (toStart < fromStart) {
            return total;
        }
        try (KeyValueIterator<String, WindowBucket> iterator = store.range(key(workspace, granularity, fromStart),
                key(workspace, granularity, toStart))) {
            while (iterator.hasNext()) {
                total = total.plus(iterator.next().value);
            }
        }
        return total;
    }

    static String key(String workspace, String granularity, long start) {
        return workspace + '|' + granularity + '|' + Keys.millis(start);
    }

    private static long floor(long millis, long unit) {
        return Math.floorDiv(millis, unit) * unit;
    }
}
