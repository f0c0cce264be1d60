package dev.sopline.engine.processor;

import dev.sopline.schemas.command.Command;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Where the engine's punctuation writes the commands it creates (timer fires, expiries, released starts): the command
 * topic, outside the engine's transaction.
 *
 * <p>A record the engine's transaction writes to the command topic holds back every read-committed reader of that
 * partition, the engine itself included, until the transaction commits: the last stable offset cannot pass it. A
 * start arriving just after a timer fired would wait up to a commit interval. Written outside the transaction, the
 * commands hold back nothing; the price is that a crash may write one twice, so each names what it acts on (a stored
 * timer, a finished instance, a held start) and only the first one read finds it still there.
 */
@FunctionalInterface
public interface CommandLog {

    /**
     * Appends the command, keyed by {@link Command#key()}, with {@code at} as its timestamp. Returns at once; if the
     * command could not be written, {@code failed} is called, on whichever thread learned it.
     */
    void append(Command command, Instant at, Consumer<Exception> failed);
}
