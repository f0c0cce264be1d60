package dev.sopline.standalone;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of the platform started so far, stopped in reverse order: the judgment worker and the engine commit and
 * leave before the broker goes. Parts that do not depend on each other can stop together ({@link #addAlongside}): each
 * may wait up to its close timeout on a group that is still rebalancing (right after a restart), and those waits should
 * not add up. Used by the shutdown hook and when a start fails half-way, so a failed start leaves no broker thread
 * keeping the JVM alive. Closing twice is harmless.
 */
final class ShutdownSequence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSequence.class);

    private record Part(String name, AutoCloseable closeable) {}

    /** Stages, the last started first; the parts of one stage stop together. */
    private final Deque<List<Part>> stages = new ArrayDeque<>();

    /** A part stopped after every part added later, and before every part added earlier. */
    synchronized void add(String name, AutoCloseable part) {
        stages.push(new ArrayList<>(List.of(new Part(name, part))));
    }

    /** A part stopped together with the part added just before it, as neither needs the other while stopping. */
    synchronized void addAlongside(String name, AutoCloseable part) {
        if (stages.isEmpty()) {
            add(name, part);
        } else {
            stages.peek().add(new Part(name, part));
        }
    }

    @Override
    public synchronized void close() {
        while (!stages.isEmpty()) {
            List<Part> stage = stages.pop();
            if (stage.size() == 1) {
                stop(stage.get(0));
            } else {
                CompletableFuture.allOf(stage.stream()
                        .map(part -> CompletableFuture.runAsync(() -> stop(part), runnable -> {
                            Thread thread = new Thread(runnable, "sopline-stop-" + part.name().replace(' ', '-'));
                            thread.start();
                        }))
                        .toArray(CompletableFuture[]::new)).join();
            }
        }
    }

    private static void stop(Part part) {
        long started = System.nanoTime();
        try {
            part.closeable().close();
            LOG.info("Stopped the {} in {} ms", part.name(), (System.nanoTime() - started) / 1_000_000);
        } catch (Exception e) {
            LOG.warn("Could not stop the {} cleanly: {}", part.name(), e.toString());
        }
    }
}
