package dev.sopline.worker;

import dev.sopline.schemas.definition.Durations;
import dev.sopline.schemas.event.StepReady;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.TopicPartition;

/**
 * One step this worker took from a partition: waiting for a free slot, then running its handler. Settled exactly once,
 * by its handler reporting or by the worker giving up on it, whichever comes first.
 */
final class RunningStep {

    /** Past the engine's deadline, a step is given up on this much later, so clocks a little apart do not cut it short. */
    static final Duration GRACE = Duration.ofSeconds(1);
    /**
     * How long a heartbeat keeps a step from being given up on, at least, when its step-ready event does not say the
     * step's {@code heartbeat_timeout} (events of engines before the field was added): this floor, or the step's own
     * timeout if longer, keeps a handler that sends heartbeats from being cut short while the engine still waits for it.
     */
    static final Duration HEARTBEAT_FLOOR = Duration.ofMinutes(1);

    private final TopicPartition partition;
    private final long offset;
    private final StepReady ready;
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile Instant giveUpAt;
    private volatile Future<?> handler;
    private volatile boolean published;
    private volatile boolean sending;

    RunningStep(TopicPartition partition, long offset, StepReady ready) {
        this.partition = partition;
        this.offset = offset;
        this.ready = ready;
        this.giveUpAt = ready.deadline() == null ? null : ready.deadline().plus(GRACE);
    }

    TopicPartition partition() {
        return partition;
    }

    long offset() {
        return offset;
    }

    StepReady ready() {
        return ready;
    }

    /** A key that names the attempt, for heartbeats to find it. */
    String attemptKey() {
        return key(ready.instanceId(), ready.stepId(), ready.attempt());
    }

    static String key(String instanceId, String stepId, int attempt) {
        return instanceId + "/" + stepId + "/" + attempt;
    }

    void running(Future<?> handler) {
        this.handler = handler;
    }

    /** The engine has moved its deadline: this worker waits as long, or longer. */
    void heartbeat(Instant now) {
        Instant deadline = ready.deadline();
        if (deadline == null) {
            return;
        }
        Instant extended = now.plus(heartbeatWindow(deadline)).plus(GRACE);
        if (giveUpAt.isBefore(extended)) {
            giveUpAt = extended;
        }
    }

    /** How far a heartbeat moves the deadline: exactly as the engine does when the event says, else generously. */
    private Duration heartbeatWindow(Instant deadline) {
        Optional<Duration> declared = ready.heartbeatTimeout() == null ? Optional.empty() : Durations.parse(ready.heartbeatTimeout());
        if (declared.isPresent()) {
            return declared.get();
        }
        Duration window = ready.createdAt() == null ? Duration.ZERO : Duration.between(ready.createdAt(), deadline);
        return window.compareTo(HEARTBEAT_FLOOR) > 0 ? window : HEARTBEAT_FLOOR;
    }

    /** Whether the engine has certainly timed this attempt out by {@code now}. */
    boolean expired(Instant now) {
        Instant at = giveUpAt;
        return at != null && now.isAfter(at);
    }

    /** True for the first caller only: the handler reporting and the worker giving up race for it. */
    boolean settle() {
        return settled.compareAndSet(false, true);
    }

    boolean isSettled() {
        return settled.get();
    }

    /** Gives up on the handler: interrupts it; whatever it returns later is not published. */
    void cancel() {
        Future<?> running = handler;
        if (running != null) {
            running.cancel(true);
        }
    }

    void published(boolean published) {
        this.published = published;
    }

    /** Notes that its handler has returned and its result is being sent, or no longer is. */
    void sending(boolean sending) {
        this.sending = sending;
    }

    /** Whether its handler has returned and the result is on its way to the broker. */
    boolean sending() {
        return sending;
    }

    /** Whether its result reached the broker; false leaves the step to be run again. */
    boolean published() {
        return published;
    }
}
