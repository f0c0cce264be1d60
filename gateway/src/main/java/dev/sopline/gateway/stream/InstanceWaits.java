package dev.sopline.gateway.stream;

import dev.sopline.engine.api.DecisionListener;
import dev.sopline.engine.api.query.StateUnavailableException;
import dev.sopline.gateway.config.SopProperties;
import dev.sopline.gateway.config.StopsConcurrently;
import dev.sopline.gateway.engine.LocalDecisions;
import dev.sopline.gateway.store.TopicTail;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.topic.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Reads that wait for an instance to settle ({@code GET /sop/:name/:id?wait=}): held without a thread of their own
 * and answered when a change of their instance shows on {@code sop.events}, or when their wait runs out.
 *
 * <p>One reader of {@code sop.events} per gateway replica follows every partition as the engine writes it, before its
 * transaction commits: {@code GET} reads the engine's state, which holds a decision from the moment it is made, so a
 * waiting client learns of a change as soon as a plain {@code GET} could show it, not one commit later. The reader
 * looks each record's key (the instance id) up among the waiting instances and reads nothing more of records of other
 * instances; a change of a waited-for instance's own state (not of one of its steps, {@link #mayChangeInstanceState})
 * wakes its waiters, which read the instance again on a small pool of threads, never on the reader's. The engine
 * writes an instance before its events, so the read after a wake-up sees the change. A wake-up that is missed anyway
 * (the reader reconnecting, a replica serving reads a little behind) costs at most {@link #RECHECK}: every
 * waiter reads again that often.
 *
 * <p>An engine in the same JVM also tells of each instance change as it decides it ({@link #instanceChanged}), which
 * wakes the waiters of the instances it owns without the event's round trip through the broker; the reader of
 * {@code sop.events} still wakes them for changes decided elsewhere. While that engine decides every command, no change
 * is decided elsewhere and the reader idles ({@link TopicTail#idleWhile}); when it stops deciding them all, the reader
 * goes back over the changes of the last {@link #LOOK_BACK}, longer than any wait.
 *
 * <p>Bounds, so that one workspace's clients cannot hold every slot: at most {@link #PER_WORKSPACE} waiting reads per
 * workspace and {@link #TOTAL} in all. Past them a read with a wait is answered at once, as one without a wait is.
 */
@Component
public class InstanceWaits implements StopsConcurrently, DecisionListener {

    /** The longest wait a client may ask for. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(30);
    public static final int PER_WORKSPACE = 1_000;
    public static final int TOTAL = 10_000;
    static final Duration RECHECK = Duration.ofSeconds(1);
    private static final Duration CLOCK = Duration.ofMillis(100);
    /** After its wait: how long a waiter whose reads do not come back may take before it is answered 503. */
    public static final Duration GRACE = Duration.ofSeconds(10);
    private static final int READERS = 4;
    /** Longer than any wait: after idling, every change a waiter may still wait for is read. */
    static final Duration LOOK_BACK = MAX_WAIT.plus(GRACE).plusMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(InstanceWaits.class);

    private final String bootstrapServers;
    private final String topic;
    private final Duration recheck;
    private final int perWorkspaceLimit;
    private final int totalLimit;
    private final BooleanSupplier everyChangeToldHere;
    private final TopicTail tail = new TopicTail();
    private final Map<String, Set<Waiter<?, ?>>> byInstance = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> perWorkspace = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private final ThreadPoolExecutor readers;
    private ScheduledExecutorService clock;

    @org.springframework.beans.factory.annotation.Autowired
    public InstanceWaits(SopProperties properties, LocalDecisions localDecisions) {
        this(properties.kafka().bootstrapServers(), Topics.EVENTS, RECHECK, PER_WORKSPACE, TOTAL, localDecisions);
    }

    /**
     * @param topic the state changes' topic, keyed by instance id
     * @param everyChangeToldHere whether every instance change is told to {@link #instanceChanged} now, by an engine in
     *     this JVM
     */
    InstanceWaits(String bootstrapServers, String topic, Duration recheck, int perWorkspaceLimit, int totalLimit,
                  BooleanSupplier everyChangeToldHere) {
        this.bootstrapServers = bootstrapServers;
        this.everyChangeToldHere = everyChangeToldHere;
        this.topic = topic;
        this.recheck = recheck;
        this.perWorkspaceLimit = perWorkspaceLimit;
        this.totalLimit = totalLimit;
        CustomizableThreadFactory threads = new CustomizableThreadFactory("instance-wait-reader-");
        threads.setDaemon(true);
        // A full queue drops a wake-up, never a waiter: the clock reads it again within RECHECK.
        this.readers = new ThreadPoolExecutor(READERS, READERS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(totalLimit), threads);
        this.readers.allowCoreThreadTimeOut(true);
    }

    /**
     * Answers {@code result} with {@code respond} of what {@code read} gives once {@code settled} accepts it, or of the
     * last read when {@code wait} has passed; a read that throws answers with its error. The first read is made here,
     * on the caller's thread, once the waiter is registered: the caller need not read before, and a change made
     * meanwhile is not missed. Returns false, and holds nothing, when the bounds are full: the caller answers at once.
     */
    public <A, T> boolean await(String workspace, String instanceId, Duration wait, Supplier<A> read, Predicate<A> settled,
                                Function<A, T> respond, DeferredResult<T> result) {
        if (!take(workspace)) {
            return false;
        }
        Waiter<A, T> waiter = new Waiter<>(workspace, instanceId, System.nanoTime() + wait.toNanos(), read, settled, respond, result);
        // Added inside compute, atomically with forget() removing an emptied set: never into a set just dropped.
        byInstance.compute(instanceId, (id, waiters) -> {
            Set<Waiter<?, ?>> held = waiters == null ? ConcurrentHashMap.newKeySet() : waiters;
            held.add(waiter);
            return held;
        });
        result.onCompletion(() -> forget(waiter));
        result.onTimeout(() -> result.setErrorResult(new StateUnavailableException("The instance could not be read in time")));
        // Registered first, then read: a change from now on wakes the waiter, and one made before shows in this read.
        waiter.readAgain();
        return true;
    }

    private boolean take(String workspace) {
        AtomicInteger count = perWorkspace.computeIfAbsent(workspace, name -> new AtomicInteger());
        if (total.incrementAndGet() > totalLimit | count.incrementAndGet() > perWorkspaceLimit) {
            total.decrementAndGet();
            count.decrementAndGet();
            return false;
        }
        return true;
    }

    private void forget(Waiter<?, ?> waiter) {
        if (!waiter.forgotten.compareAndSet(false, true)) {
            return;
        }
        byInstance.computeIfPresent(waiter.instanceId, (id, waiters) -> {
            waiters.remove(waiter);
            return waiters.isEmpty() ? null : waiters;
        });
        total.decrementAndGet();
        // Counters stay once made, one per workspace that ever waited: removing them would race with take().
        perWorkspace.get(waiter.workspace).decrementAndGet();
    }

    /** False while the reader of the events idles, every change being told here. */
    public boolean readsEventsTopic() {
        return tail.isFetching();
    }

    /** How many reads wait now, in all. */
    int waiting() {
        return total.get();
    }

    @Override
    public void start() {
        tail.idleWhile(everyChangeToldHere, LOOK_BACK);
        tail.start(bootstrapServers, topic, TopicTail.Visibility.AS_WRITTEN, record -> {
            Set<Waiter<?, ?>> waiters = byInstance.get(record.key());
            if (waiters != null && mayChangeInstanceState(record.value())) {
                waiters.forEach(Waiter::wake);
            }
        });
        CustomizableThreadFactory threads = new CustomizableThreadFactory("instance-wait-clock-");
        threads.setDaemon(true);
        clock = Executors.newSingleThreadScheduledExecutor(threads);
        clock.scheduleWithFixedDelay(this::tick, CLOCK.toMillis(), CLOCK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A change decided by the engine in this JVM, on its stream thread: queues the reads of its waiters, if any. */
    @Override
    public void instanceChanged(String instanceId) {
        Set<Waiter<?, ?>> waiters = byInstance.get(instanceId);
        if (waiters != null) {
            waiters.forEach(Waiter::wake);
        }
    }

    /**
     * False only for a state change that is surely not the instance's own: a step's. Whether an instance settles shows
     * in its own state, and a step's change comes with an instance change whenever it moves the instance, so waking on
     * steps' changes would only read the instance again for nothing, about three times per step. Only the envelope's
     * {@code type} is looked at, with a streaming parser that stops there (it comes early); anything it cannot read
     * wakes, to be safe.
     */
    static boolean mayChangeInstanceState(byte[] event) {
        try (JsonParser parser = Json.mapper().createParser(event)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return true;
            }
            for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
                String name = parser.currentName();
                parser.nextToken();
                if (name.equals("type")) {
                    return !StateChangeEvents.STEP_STATE_CHANGED.equals(parser.getString());
                }
                parser.skipChildren();
            }
            return true;
        } catch (RuntimeException unreadable) {
            return true;
        }
    }

    /** Reads again every waiter whose wait ran out or that has not been read for {@link #RECHECK}. */
    private void tick() {
        long now = System.nanoTime();
        for (Set<Waiter<?, ?>> waiters : byInstance.values()) {
            for (Waiter<?, ?> waiter : waiters) {
                if (now - waiter.deadlineNanos >= GRACE.toNanos()) {
                    // Its reads never came back: answer rather than hold the client for ever.
                    waiter.result.setErrorResult(new StateUnavailableException("The instance could not be read in time"));
                    forget(waiter);
                } else if (now >= waiter.deadlineNanos || now - waiter.lastReadNanos >= recheck.toNanos()) {
                    waiter.wake();
                }
            }
        }
    }

    /** Answers every waiting read as the gateway begins to stop, so the web server's graceful shutdown need not wait. */
    @EventListener(ContextClosedEvent.class)
    public void answerAllOnShutdown() {
        for (Set<Waiter<?, ?>> waiters : byInstance.values()) {
            for (Waiter<?, ?> waiter : waiters) {
                waiter.deadlineNanos = System.nanoTime();
                waiter.wake();
            }
        }
    }

    @Override
    public void stop() {
        tail.stop();
        if (clock != null) {
            clock.shutdownNow();
        }
        readers.shutdownNow();
        for (Set<Waiter<?, ?>> waiters : byInstance.values()) {
            for (Waiter<?, ?> waiter : waiters) {
                waiter.result.setErrorResult(new StateUnavailableException("The gateway is stopping"));
                forget(waiter);
            }
        }
    }

    @Override
    public boolean isRunning() {
        return tail.isRunning();
    }

    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 3000;
    }

    private final class Waiter<A, T> {
        private final String workspace;
        private final String instanceId;
        private final Supplier<A> read;
        private final Predicate<A> settled;
        private final Function<A, T> respond;
        private final DeferredResult<T> result;
        /** A read is queued and not yet begun: further wake-ups until it begins are the same read. */
        private final AtomicBoolean queued = new AtomicBoolean();
        private final AtomicBoolean forgotten = new AtomicBoolean();
        private volatile long deadlineNanos;
        private volatile long lastReadNanos;

        private Waiter(String workspace, String instanceId, long deadlineNanos, Supplier<A> read, Predicate<A> settled,
                       Function<A, T> respond, DeferredResult<T> result) {
            this.workspace = workspace;
            this.instanceId = instanceId;
            this.deadlineNanos = deadlineNanos;
            this.lastReadNanos = System.nanoTime();
            this.read = read;
            this.settled = settled;
            this.respond = respond;
            this.result = result;
        }

        void wake() {
            if (forgotten.get() || !queued.compareAndSet(false, true)) {
                return;
            }
            try {
                readers.execute(this::readAgain);
            } catch (RejectedExecutionException e) {
                // Stopping, or every slot is queued: the clock reads this waiter again soon.
                queued.set(false);
            }
        }

        private void readAgain() {
            queued.set(false);
            if (forgotten.get() || result.isSetOrExpired()) {
                forget(this);
                return;
            }
            lastReadNanos = System.nanoTime();
            try {
                A answer = read.get();
                if (settled.test(answer) || System.nanoTime() >= deadlineNanos) {
                    result.setResult(respond.apply(answer));
                    forget(this);
                }
            } catch (RuntimeException e) {
                // The same error a read without a wait would have answered (404 if it was removed, 503, ...).
                LOG.debug("A waiting read of instance {} failed", instanceId, e);
                result.setErrorResult(e);
                forget(this);
            }
        }
    }
}
