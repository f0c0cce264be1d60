package dev.sopline.gateway.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateBucketsTest {

    @Test
    void shouldKeepEachKeysBudgetApart() {
        RateBuckets buckets = new RateBuckets(1, 1, 10);

        assertThat(buckets.take("a").isConsumed()).isTrue();
        assertThat(buckets.take("a").isConsumed()).isFalse();
        assertThat(buckets.take("b").isConsumed()).isTrue();
    }

    @Test
    void shouldDropTheLeastRecentlyUsedKeyPastTheBound() {
        RateBuckets buckets = new RateBuckets(1, 1, 2);
        assertThat(buckets.take("a").isConsumed()).isTrue();
        buckets.take("b");
        buckets.take("c");

        // "a" was dropped with its spent bucket, so it starts again full: the table never holds more than 2 keys.
        assertThat(buckets.take("a").isConsumed()).isTrue();
        assertThat(buckets.take("c").isConsumed()).as("a recent key keeps its spent bucket").isFalse();
    }

    @Test
    void shouldRoundTheWaitUpToWholeSeconds() {
        RateBuckets buckets = new RateBuckets(1, 1, 10);
        buckets.take("a");

        assertThat(RateBuckets.retryAfterSeconds(buckets.take("a"))).isEqualTo(1);
    }
}
