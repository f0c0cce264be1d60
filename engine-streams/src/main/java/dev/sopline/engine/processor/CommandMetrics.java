package dev.sopline.engine.processor;

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
}
