package dev.sopline.standalone;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of the platform started so far, stopped in reverse order: the judgment worker and the engine commit and
 * leave before the broker goes. Used by the shutdown hook and when a start fails half-way, so a failed start leaves no
 * broker thread keeping the JVM alive. Closing twice is harmless.
 */
final class ShutdownSequence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSequence.class);

    private record Part(String name, AutoCloseable closeable) {}

    private final Deque<Part> parts = new ArrayDeque<>();

    synchronized void add(String name, AutoCloseable part) {
        parts.push(new Part(name, part));
    }

    @Override
    public synchronized void close() {
        while (!parts.isEmpty()) {
            Part part = parts.pop();
            long started = System.nanoTime();
            try {
                part.closeable().close();
                LOG.info("Stopped the {} in {} ms", part.name(), (System.nanoTime() - started) / 1_000_000);
            } catch (Exception e) {
                LOG.warn("Could not stop the {} cleanly: {}", part.name(), e.toString());
            }
        }
    }
}
