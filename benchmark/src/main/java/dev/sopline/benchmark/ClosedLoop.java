package dev.sopline.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed loop of C clients over any engine: each starts an instance of a three-step no-op process through the
 * engine's API, waits until the API shows it completed, and starts the next. The engine's side is an
 * {@link InstanceClient}; its workers report each step they run with {@link #stepRan}, so the handoffs are timed the
 * same way for every engine. Measure between {@link Loop#beginMeasuring()} and {@link Loop#endMeasuring()}.
 */
final class ClosedLoop {

    static final Duration INSTANCE_LIMIT = Duration.ofSeconds(60);

    /** How the clients start an instance and read it back. */
    interface InstanceClient {

        /** Starts an instance and returns its id once the API answered; null when it refused (counted as an error). */
        String start() throws Exception;

        /**
         * Reads the instance back until the API shows it completed or the deadline ({@link System#nanoTime()}) passes;
         * returns how many reads it took and whether it completed.
         */
        ReadBack awaitCompleted(String id, long deadline) throws Exception;
    }

    record ReadBack(int reads, boolean completed) {}

    private final InstanceClient client;
    private final Map<String, Timeline> timelines = new ConcurrentHashMap<>();

    ClosedLoop(InstanceClient client) {
        this.client = client;
    }

    /** One instance as the client and the worker see it, in {@link System#nanoTime()}; 0 until it happens. */
    private static final class Timeline {
        volatile long sent;
        volatile long answered;
        final long[] stepAt = new long[3];
        volatile long completed;
    }

    /** Called by the worker as it runs step {@code step} (0, 1 or 2) of the instance. */
    void stepRan(String instanceId, int step) {
        // The step may reach the worker before the start's answer reaches its client: whichever comes first creates it.
        Timeline timeline = timelines.computeIfAbsent(instanceId, ignored -> new Timeline());
        synchronized (timeline.stepAt) {
            if (timeline.stepAt[step] == 0) {
                timeline.stepAt[step] = System.nanoTime();
            }
        }
    }

    /** Starts {@code concurrency} clients. */
    Loop start(int concurrency) {
        timelines.clear();
        return new Loop(concurrency);
    }

    final class Loop implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> clients = new ArrayList<>();
        private final List<Timeline> measured = java.util.Collections.synchronizedList(new ArrayList<>());
        private volatile long measuringFrom = Long.MAX_VALUE;
        private volatile long measuringUntil = Long.MAX_VALUE;
        private final AtomicInteger startErrors = new AtomicInteger();
        private final AtomicInteger unfinished = new AtomicInteger();
        private final AtomicLong readsOfMeasured = new AtomicLong();
        private final AtomicLong completedInWindow = new AtomicLong();

        private Loop(int concurrency) {
            for (int i = 0; i < concurrency; i++) {
                Thread thread = new Thread(this::runClient, "closed-loop-client-" + i);
                thread.start();
                clients.add(thread);
            }
        }

        void beginMeasuring() {
            measuringFrom = System.nanoTime();
        }

        void endMeasuring() {
            measuringUntil = System.nanoTime();
        }

        private void runClient() {
            while (running.get()) {
                try {
                    runOne();
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    startErrors.incrementAndGet();
                }
            }
        }

        private void runOne() throws Exception {
            long sent = System.nanoTime();
            String id = client.start();
            long answered = System.nanoTime();
            if (id == null) {
                startErrors.incrementAndGet();
                Thread.sleep(10); // do not spin on an engine that refuses
                return;
            }
            Timeline timeline = timelines.computeIfAbsent(id, ignored -> new Timeline());
            timeline.sent = sent;
            timeline.answered = answered;
            boolean inWindow = sent >= measuringFrom && sent < measuringUntil;
            ReadBack readBack = client.awaitCompleted(id, sent + INSTANCE_LIMIT.toNanos());
            if (readBack.completed()) {
                timeline.completed = System.nanoTime();
            }
            if (inWindow) {
                readsOfMeasured.addAndGet(readBack.reads());
            }
            long completed = timeline.completed;
            if (completed >= measuringFrom && completed < measuringUntil) {
                // Throughput counts every completion while measuring, whenever its instance started.
                completedInWindow.incrementAndGet();
            }
            if (inWindow) {
                measured.add(timeline);
                if (timeline.completed == 0) {
                    unfinished.incrementAndGet();
                }
            }
            timelines.remove(id);
        }

        /** Stops starting instances and waits for those in flight. */
        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread thread : clients) {
                thread.join(INSTANCE_LIMIT.toMillis() * 2);
            }
        }

        /** What the clients saw of the instances they started while measuring; call after {@link #close()}. */
        Result result() {
            List<Timeline> all;
            synchronized (measured) {
                all = new ArrayList<>(measured);
            }
            Latencies startCall = new Latencies();
            Latencies toFirstStep = new Latencies();
            Latencies handoff = new Latencies();
            Latencies toCompleted = new Latencies();
            for (Timeline timeline : all) {
                startCall.record(timeline.answered - timeline.sent);
                long[] steps;
                synchronized (timeline.stepAt) {
                    steps = timeline.stepAt.clone();
                }
                if (steps[0] > 0) {
                    toFirstStep.record(steps[0] - timeline.sent);
                }
                if (steps[0] > 0 && steps[1] > 0 && steps[2] > 0) {
                    handoff.record(steps[1] - steps[0]);
                    handoff.record(steps[2] - steps[1]);
                }
                if (timeline.completed > 0) {
                    toCompleted.record(timeline.completed - timeline.sent);
                }
            }
            double seconds = (measuringUntil - measuringFrom) / 1e9;
            return new Result(clients.size(), all.size(), completedInWindow.get(), completedInWindow.get() / seconds, startCall, toFirstStep,
                    handoff, toCompleted, startErrors.get(), unfinished.get(), all.isEmpty() ? 0 : readsOfMeasured.get() / (double) all.size());
        }
    }

    /**
     * @param started instances started while measuring
     * @param completedInWindow instances seen completed while measuring, whenever started: the throughput's numerator
     * @param readsPerInstance reads per instance started while measuring, until it showed completed
     */
    record Result(int concurrency, int started, long completedInWindow, double instancesPerSecond, Latencies startCall,
                  Latencies startToFirstStep, Latencies handoff, Latencies startToCompleted, int startErrors, int unfinished,
                  double readsPerInstance) {}
}
