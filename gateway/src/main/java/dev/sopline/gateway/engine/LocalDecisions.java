package dev.sopline.gateway.engine;

import dev.sopline.engine.api.EmbeddedEngine;
import java.util.function.BooleanSupplier;
import org.springframework.stereotype.Component;

/**
 * Whether the engine replica in this JVM decides every command now ({@link EmbeddedEngine#decidesEveryCommand}). While
 * it does, it tells the gateway of every reply and every instance change itself, so the gateway's readers of the
 * replies and of the events as written have nothing to learn from the broker and can stop fetching. A bean of its own,
 * set by {@link EngineAccess} and asked by those readers, for the reason {@link EngineListeners} is one.
 */
@Component
public class LocalDecisions implements BooleanSupplier {

    private volatile EmbeddedEngine engine;

    void engineStarted(EmbeddedEngine started) {
        engine = started;
    }

    void engineStopped() {
        engine = null;
    }

    /** True only while an engine runs in this JVM and decides every command. */
    @Override
    public boolean getAsBoolean() {
        EmbeddedEngine running = engine;
        return running != null && running.decidesEveryCommand();
    }
}
