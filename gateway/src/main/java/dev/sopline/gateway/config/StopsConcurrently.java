package dev.sopline.gateway.config;

import org.springframework.context.SmartLifecycle;

/**
 * A lifecycle part that stops on a thread of its own. Spring stops the parts of one phase one after another unless
 * each hands back through the callback; the readers of a gateway each wait for their poll and their consumer's close,
 * so stopped together the gateway stops in the time of the slowest one instead of the sum. Spring still waits for
 * every callback of a phase (up to {@code spring.lifecycle.timeout-per-shutdown-phase}) before the next phase.
 */
public interface StopsConcurrently extends SmartLifecycle {

    @Override
    default void stop(Runnable callback) {
        Thread stopping = new Thread(() -> {
            try {
                stop();
            } finally {
                callback.run();
            }
        }, "stop-" + getClass().getSimpleName());
        stopping.setDaemon(true);
        stopping.start();
    }
}
