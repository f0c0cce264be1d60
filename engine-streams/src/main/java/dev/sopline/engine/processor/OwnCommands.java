package dev.sopline.engine.processor;

import dev.sopline.schemas.command.Command;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commands punctuation has written through the {@link CommandLog} and the engine has not read back yet, each named
 * by a claim: the store key of what it acts on. What is due stays in its store until its command is read, so without
 * this every punctuation would write the command again; a claim is let go when its command is read, or when writing
 * it failed, and the next punctuation writes it again.
 *
 * <p>The claims live in memory only. After a crash or when the partition moves, punctuation writes again what is
 * still due, and the command read second finds nothing left to act on.
 */
final class OwnCommands {

    private static final Logger LOG = LoggerFactory.getLogger(OwnCommands.class);

    private final CommandLog log;
    /** Written to by the producer's thread when a write fails, so a concurrent set. */
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    OwnCommands(CommandLog log) {
        this.log = log;
    }

    /** Whether the command of this claim is written and not read back yet. */
    boolean isInFlight(String claim) {
        return inFlight.contains(claim);
    }

    /** Writes the command unless its claim is already in flight. */
    void write(String claim, Command command, Instant now) {
        if (!inFlight.add(claim)) {
            return;
        }
        try {
            log.append(command, now, error -> failed(claim, command, error));
        } catch (RuntimeException e) {
            failed(claim, command, e);
        }
    }

    /** The command of this claim was read (a first time or again): it is no longer in flight. */
    void read(String claim) {
        inFlight.remove(claim);
    }

    int inFlight() {
        return inFlight.size();
    }

    private void failed(String claim, Command command, Exception error) {
        inFlight.remove(claim);
        LOG.warn("Could not write {} to the command topic; writing it again at the next punctuation: {}",
                command.getClass().getSimpleName(), error.toString());
    }
}
