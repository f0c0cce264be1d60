package dev.sopline.engine.api;

import dev.sopline.engine.api.query.EngineReader;

/**
 * An engine replica running in the caller's JVM, seen through what the caller needs of it: its reads, whether it can
 * answer and make progress, and stopping it. Started with {@link EmbeddedEngines#start}.
 */
public interface EmbeddedEngine extends AutoCloseable {

    /**
     * Whether the engine can make progress: its stream threads and the relay of worker results are running, and the
     * threads are not dying again and again on the same input.
     */
    boolean isHealthy();

    /**
     * Whether this replica's stores can answer: restored once, and the replica still running. Before that a read
     * could answer "absent" for an instance that exists.
     */
    boolean canServe();

    /**
     * Whether this replica alone decides every command now: running, not rebalancing, with every partition of the
     * command topic. While it does, the {@link DecisionListener} it was started with hears every reply and every
     * instance change before any other JVM could read them from the engine's topics.
     */
    default boolean decidesEveryCommand() {
        return false;
    }

    /** Every replica's state: each query goes to the owners of its data. */
    EngineReader reader();

    /** Commits, leaves the group so the other replicas take over its partitions at once, and stops. */
    @Override
    void close();
}
