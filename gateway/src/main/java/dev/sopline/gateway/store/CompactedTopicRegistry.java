package dev.sopline.gateway.store;

import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.config.StopsConcurrently;

/**
 * A registry the gateway serves from a {@link CompactedTopicView}: read whole before the web server starts, stopped
 * after it drains.
 *
 * @param <V> the stored value
 */
public abstract class CompactedTopicRegistry<V> implements StopsConcurrently {

    private final SopProperties properties;
    protected final CompactedTopicView<V> view;
    private volatile boolean running;

    protected CompactedTopicRegistry(SopProperties properties, String topic, Class<V> type) {
        this.properties = properties;
        // Called from the reading thread, which starts in start(), after the subclass is fully built.
        this.view = new CompactedTopicView<>(topic, type, this::changed);
    }

    /** Told of each change as (previous, current), either null, on the reading thread; for indexes of subclasses. */
    protected void changed(V previous, V current) {
    }

    /** Whether the table is still being read: its reader runs and polled recently. For a health indicator. */
    public boolean isHealthy() {
        return view.isHealthy();
    }

    @Override
    public void start() {
        view.start(properties.kafka().bootstrapServers());
        running = true;
    }

    @Override
    public void stop() {
        view.stop();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the engine, which creates the topics; before the web server. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 2000;
    }
}
