package dev.sopline.worker;

import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads that run handlers. The worker starts at most {@code concurrency} steps at once; this pool has that many
 * threads, and grows by up to {@code 2 × concurrency} more for handlers that were given up on and ignore their
 * interrupt, so that a hung handler does not take a slot from the steps after it. Past that bound no new step starts
 * until a hung handler returns.
 */
final class HandlerPool {

    private static final Logger LOG = LoggerFactory.getLogger(HandlerPool.class);

    private final ThreadPoolExecutor executor;
    private final AtomicInteger abandonedAlive = new AtomicInteger();
    private final String workerId;
    private volatile boolean reportedFull;

    HandlerPool(int concurrency, String workerId) {
        this.workerId = workerId;
        // A hand-off queue: a step runs at once on an idle thread or a new one, never waits behind a hung handler.
        this.executor = new ThreadPoolExecutor(concurrency, concurrency * 3, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, workerId + "-step");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Runs a handler, or returns null when every thread is taken, most by hung handlers: try again later. */
    Future<?> submit(Runnable handler) {
        try {
            Future<?> future = executor.submit(handler);
            reportedFull = false;
            return future;
        } catch (RejectedExecutionException full) {
            if (!reportedFull && abandonedAlive.get() > 0) {
                reportedFull = true;
                LOG.error("Worker {} cannot start more steps: {} of its {} handler threads are held by handlers it gave up on, "
                        + "which ignore their interrupt. Steps wait until one returns; fix the handlers that hang",
                        workerId, abandonedAlive.get(), executor.getMaximumPoolSize());
            }
            return null;
        }
    }

    /** A handler given up on still holds its thread until it returns. */
    void abandoned() {
        abandonedAlive.incrementAndGet();
    }

    /** A handler given up on has returned at last. */
    void abandonedReturned() {
        abandonedAlive.decrementAndGet();
    }

    void shutdownNow() {
        executor.shutdownNow();
    }
}
