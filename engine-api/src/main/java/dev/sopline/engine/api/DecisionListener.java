package dev.sopline.engine.api;

import dev.sopline.schemas.command.CommandReply;
import java.util.List;

/**
 * What an engine replica tells the code in its own JVM as it decides: the gateway beside it answers a waiting request
 * from here instead of waiting for the reply's round trip through the broker. Everything told here is also written to
 * the engine's topics, where other JVMs read it.
 *
 * <p>Called on the engine's stream thread, after the decision's state is in the replica's stores: an implementation
 * only hands off (completes a future, wakes a waiter) and never blocks. What it throws is logged and ignored.
 */
public interface DecisionListener {

    /** Hears nothing: an engine with no gateway beside it. */
    DecisionListener NONE = new DecisionListener() { };

    /** The reply to a command, as the engine also writes it to the replies topic. */
    default void replied(CommandReply reply) { }

    /** An instance's own state changed (not only one of its steps'), as its event on {@code sop.events} also says. */
    default void instanceChanged(String instanceId) { }

    /** Tells each of {@code listeners} in turn. */
    static DecisionListener all(List<? extends DecisionListener> listeners) {
        List<DecisionListener> each = List.copyOf(listeners);
        return new DecisionListener() {
            @Override
            public void replied(CommandReply reply) {
                each.forEach(listener -> listener.replied(reply));
            }

            @Override
            public void instanceChanged(String instanceId) {
                each.forEach(listener -> listener.instanceChanged(instanceId));
            }
        };
    }
}
