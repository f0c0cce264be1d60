package dev.sopline.gateway.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.engine.api.query.EngineQueryKey;
import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.testing.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A gateway without an engine learns the engines' key once, and never holds every read on a secret it cannot read. */
class EnginesKeyTest {

    private static final byte[] SECRET = "a secret of the engines".getBytes(StandardCharsets.UTF_8);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T10:00:00Z"));

    @Test
    void shouldReadTheSecretOnceAndKeepTheKey() {
        AtomicInteger reads = new AtomicInteger();
        EnginesKey<EngineQueryKey> key = new EnginesKey<>(() -> {
            reads.incrementAndGet();
            return SECRET;
        }, EngineQueryKey::of, clock);

        assertThat(key.get().value()).isEqualTo(EngineQueryKey.of(SECRET).value());
        assertThat(key.get().value()).isEqualTo(EngineQueryKey.of(SECRET).value());
        assertThat(reads).hasValue(1);
    }

    @Test
    void shouldFailAtOnceForAWhileAfterTheSecretCouldNotBeRead() {
        AtomicInteger reads = new AtomicInteger();
        EnginesKey<EngineQueryKey> key = new EnginesKey<>(() -> {
            if (reads.incrementAndGet() == 1) {
                throw new IllegalStateException("Kafka does not answer");
            }
            return SECRET;
        }, EngineQueryKey::of, clock);

        assertThatThrownBy(key::get).isInstanceOf(StateUnavailableException.class).hasMessageContaining("Kafka does not answer");
        assertThatThrownBy(key::get).as("within the pause: not read again").isInstanceOf(StateUnavailableException.class);
        assertThat(reads).hasValue(1);

        clock.advance(EnginesKey.RETRY_AFTER);
        assertThat(key.get().value()).isEqualTo(EngineQueryKey.of(SECRET).value());
        assertThat(reads).hasValue(2);
    }

    @Test
    void shouldLetOneThreadReadTheSecretWhileOthersFailAtOnce() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        EnginesKey<EngineQueryKey> key = new EnginesKey<>(() -> {
            reading.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return SECRET;
        }, EngineQueryKey::of, clock);

        CompletableFuture<EngineQueryKey> first = CompletableFuture.supplyAsync(key);
        assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(key::get).as("another read meanwhile").isInstanceOf(StateUnavailableException.class);
        release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS).value()).isEqualTo(EngineQueryKey.of(SECRET).value());
    }
}
