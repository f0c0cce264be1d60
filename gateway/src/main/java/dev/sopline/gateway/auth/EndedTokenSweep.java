package dev.sopline.gateway.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * A minute after start and then once an hour, forgets the tokens that stopped working more than a day ago ({@link TokenRegistry#forgetEndedBefore}).
 * Every replica sweeps; deleting a record twice is harmless.
 */
@Component
public class EndedTokenSweep implements SmartLifecycle {

    static final Duration KEPT_AFTER_ENDING = Duration.ofDays(1);
    static final Duration EVERY = Duration.ofHours(1);
    /** Soon after start, so that a replica restarted more often than hourly still sweeps. */
    static final Duration FIRST_AFTER = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(EndedTokenSweep.class);

    /** What one sweep does: forget the tokens that ended before the cutoff, as of now; how many were forgotten. */
    @FunctionalInterface
    interface Forgetting {
        int forgetEndedBefore(Instant cutoff, Instant now);
    }

    private final Forgetting tokens;
    private final Duration firstAfter;
    private final Duration every;
    private volatile ScheduledExecutorService scheduler;

    @Autowired
    public EndedTokenSweep(TokenRegistry tokens) {
        this(tokens::forgetEndedBefore, FIRST_AFTER, EVERY);
    }

    EndedTokenSweep(Forgetting tokens, Duration firstAfter, Duration every) {
        this.tokens = tokens;
        this.firstAfter = firstAfter;
        this.every = every;
    }

    /** @return how many token records were deleted */
    public int sweep(Instant now) {
        return tokens.forgetEndedBefore(now.minus(KEPT_AFTER_ENDING), now);
    }

    @Override
    public void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ended-token-sweep");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                int forgotten = sweep(Instant.now());
                if (forgotten > 0) {
                    LOG.info("Forgot {} tokens revoked or expired more than {} ago", forgotten, KEPT_AFTER_ENDING);
                }
            } catch (RuntimeException e) {
                // The next sweep tries again; a broker away for an hour is reported by health, not here.
                LOG.warn("Sweeping ended tokens failed: {}", e.toString());
            }
        }, firstAfter.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        ScheduledExecutorService running = scheduler;
        if (running != null) {
            running.shutdownNow();
        }
        scheduler = null;
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    /** After the token registry, which it writes to; stopped before it. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 3000;
    }
}
