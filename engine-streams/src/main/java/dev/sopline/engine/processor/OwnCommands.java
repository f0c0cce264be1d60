package dev.sopline.engine.processor;

import dev.sopline.schemas.command.Command;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commands punctuation has written through the {@link CommandLog} and the engine has not read back yet, each named
 * by a claim: the store key of what it acts on. What is due stays in its store until its command is read, so without
 * this every punctuation would write the command again; a claim is let go when its command is read, or when writing
 * it failed, and the next punctuation writes it again.
 *
 * <p>The claims live in memory only. After a crash or when the partition moves, punctuation writes again what is
 * still due, and the command read second finds nothing left to act on. Their number is bounded: while the engine is
 * behind on its log (after downtime, with many timers due at once), punctuation writes no more than that ahead of what
 * it has read, instead of holding a claim for every due timer.
 */
final class OwnCommands {

    private static final Logger LOG = LoggerFactory.getLogger(OwnCommands.class);
    /** A broker out of reach fails every write of every punctuation: one warning this often says so. */
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final CommandLog log;
    private final int maxInFlight;
    /** Written to by the producer's thread when a write fails, so a concurrent set. */
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastWarned = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
    private final AtomicInteger failedSinceWarned = new AtomicInteger();

    /** @param maxInFlight how many commands may be written and not yet read back */
    OwnCommands(CommandLog log, int maxInFlight) {
        this.log = log;
        this.maxInFlight = maxInFlight;
    }

    /** Whether the command of this claim is written and not read back yet. */
    boolean isInFlight(String claim) {
        return inFlight.contains(claim);
    }

    /**
     * Writes the command unless its claim is already in flight.
     *
     * @return false if as many commands as allowed are unread, or if the log refused this one at once (a broker out of
     *     reach makes the producer wait for it first): the punctuation writes nothing more, and leaves the rest to a
     *     later one
     */
    boolean write(String claim, Command command, Instant now) {
        if (inFlight.size() >= maxInFlight) {
            return false;
        }
        if (!inFlight.add(claim)) {
            return true;
        }
        try {
            log.append(command, now, error -> failed(claim, command, error));
            return true;
        } catch (RuntimeException e) {
            failed(claim, command, e);
            return false;
        }
    }

    /** The command of this claim was read (a first time or again): it is no longer in flight. */
    void read(String claim) {
        inFlight.remove(claim);
    }

    private void failed(String claim, Command command, Exception error) {
        inFlight.remove(claim);
        int failed = failedSinceWarned.incrementAndGet();
        long last = lastWarned.get();
        long now = System.nanoTime();
        if (now - last >= WARN_EVERY_NANOS && lastWarned.compareAndSet(last, now)) {
            failedSinceWarned.addAndGet(-failed);
            LOG.warn("Could not write {} command(s) to the command topic, the last a {}; each is written again at the next punctuation: {}",
                    failed, command.getClass().getSimpleName(), error.toString());
        }
    }
}
