package dev.sopline.gateway.engine;

import dev.sopline.engine.api.query.EngineQueryKey;
import dev.sopline.engine.api.query.StateUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A key derived from the engines' secret, as the gateway learns it: the query key of a gateway without an engine
 * ({@link EngineQueryKey}), the signature of every gateway's commands ({@code CommandSignature}). Learnt at its first
 * use, not at start, so a gateway started before the engines kept their secret waits for them as for any read (503
 * meanwhile).
 * Reading the secret can take its read limit (30 s) while Kafka does not answer: one thread reads it at a time, and
 * after a failure every read fails at once for {@link #RETRY_AFTER}, so that the reads of every client do not each
 * hold a request thread for that long.
 */
public final class EnginesKey<K> implements Supplier<K> {

    static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private final Supplier<byte[]> secret;
    private final Function<byte[], K> derive;
    private final Clock clock;
    private final ReentrantLock reading = new ReentrantLock();
    private volatile K known;
    private volatile Instant failedAt = Instant.MIN;

    /** @param derive the key from the secret */
    public EnginesKey(Supplier<byte[]> secret, Function<byte[], K> derive, Clock clock) {
        this.secret = secret;
        this.derive = derive;
        this.clock = clock;
    }

    @Override
    public K get() {
        K key = known;
        if (key != null) {
            return key;
        }
        if (clock.instant().isBefore(failedAt.plus(RETRY_AFTER)) || !reading.tryLock()) {
            throw new StateUnavailableException("Expected to have read the engines' secret, but it is being read or could not be read just now");
        }
        try {
            if (known == null) {
                known = derive.apply(secret.get());
            }
            return known;
        } catch (RuntimeException e) {
            failedAt = clock.instant();
            throw new StateUnavailableException("Expected to read the engines' secret, but " + e.getMessage());
        } finally {
            reading.unlock();
        }
    }
}
