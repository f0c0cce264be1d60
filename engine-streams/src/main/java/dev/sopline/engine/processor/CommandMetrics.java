package dev.sopline.engine.processor;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the processor reports each command it decided, for the engine's metrics. Called on the stream thread, so an
 * implementation only counts.
 */
@FunctionalInterface
public interface CommandMetrics {

    /** Reports nothing: tests, and engines run without a meter registry. */
    CommandMetrics NONE = (type, outcome, nanos) -> { };

    /**
     * @param type the command's type as its sender knows it, e.g. {@code start_instance}
     * @param outcome {@code accepted} (answered 2xx, or nobody waits for an answer), {@code rejected} (4xx) or
     *     {@code failed} (5xx)
     * @param nanos how long deciding and applying it took
     */
    void decided(String type, String outcome, long nanos);

    /** {@code accepted} (2xx, or no answer expected), {@code rejected} (4xx) or {@code failed} (5xx). */
    static String outcome(Integer replyStatus) {
        if (replyStatus == null || replyStatus < 400) {
            return "accepted";
        }
        return replyStatus < 500 ? "rejected" : "failed";
    }

    /** {@code StartInstance} → {@code start_instance}, as the command topic names the types; worked out once per type. */
    static String typeName(String simpleClassName) {
        return TypeNames.NAMES.computeIfAbsent(simpleClassName,
                name -> name.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT));
    }

    /** Holds the names worked out so far; an interface cannot have a private static field. */
    final class TypeNames {
        private static final Map<String, String> NAMES = new ConcurrentHashMap<>();

        private TypeNames() {}
    }
}
