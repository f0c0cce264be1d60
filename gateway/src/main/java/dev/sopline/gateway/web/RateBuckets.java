package dev.sopline.gateway.web;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Bucket4j token buckets by key (a token id, a client address), at most {@code maxKeys} of them: the least recently
 * used is dropped first, so a client cycling through many addresses cannot grow the map without bound. A dropped
 * key starts again with a full bucket, which only ever errs towards letting a request through.
 */
public final class RateBuckets {

    private final int perSecond;
    private final int burst;
    private final Map<String, Bucket> buckets;

    public RateBuckets(int perSecond, int burst, int maxKeys) {
        this.perSecond = perSecond;
        this.burst = burst;
        this.buckets = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
                return size() > maxKeys;
            }
        };
    }

    /** Takes one request from the key's bucket; an empty optional wait means it was allowed. */
    public ConsumptionProbe take(String key) {
        Bucket bucket;
        synchronized (buckets) {
            bucket = buckets.computeIfAbsent(key, ignored -> newBucket());
        }
        return bucket.tryConsumeAndReturnRemaining(1);
    }

    /** Whole seconds, rounded up, before the key's bucket has a request again, at least 1: for {@code Retry-After}. */
    public static long retryAfterSeconds(ConsumptionProbe probe) {
        long nanos = probe.getNanosToWaitForRefill();
        return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
    }

    private Bucket newBucket() {
        return Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(burst).refillGreedy(perSecond, Duration.ofSeconds(1)).build())
                .build();
    }
}
