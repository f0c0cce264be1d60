package dev.sopline.engine.decision;

import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.state.Instance;

/**
 * How much data one instance may hold (CONTRACT section 8, {@code SOP_INSTANCE_MAX_BYTES}).
 *
 * <p>The budget counts what enters the instance, as UTF-8 JSON: its inputs and trigger payload, every step's stored
 * outputs, an agent's proposal and every callback payload. The running total is kept on the instance
 * ({@link Instance#dataBytes()}), so a command measures only the data it brings, never the whole instance.
 *
 * <p>The engine also writes copies derived from that data: the active step's resolved inputs (in the instance and in
 * its {@code StepReady}) and the instance's outputs. A definition can repeat a reference, so these are checked too:
 * the counted data plus the copy must stay under {@link #RECORD_MAX_BYTES}, which leaves room under the broker's
 * 1 MiB {@code max.message.bytes} for ids, step records and the event envelope. Since the counted data is at most
 * half of it, the instance record, its events and its step-ready records stay well under the broker's limit.
 */
public final class InstanceBudget {

    public static final long DEFAULT_MAX_BYTES = 256 * 1024;
    public static final long RECORD_MAX_BYTES = 768 * 1024;

    private final long maxBytes;

    public InstanceBudget(long maxBytes) {
        if (maxBytes <= 0 || maxBytes > RECORD_MAX_BYTES / 2) {
            throw new IllegalArgumentException("Expected SOP_INSTANCE_MAX_BYTES between 1 and %d, but it is %d"
                    .formatted(RECORD_MAX_BYTES / 2, maxBytes));
        }
        this.maxBytes = maxBytes;
    }

    public static InstanceBudget defaults() {
        return new InstanceBudget(DEFAULT_MAX_BYTES);
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Counts {@code data} into the transition's instance, or refuses it when the budget would be passed. */
    public void charge(Transition transition, Object data, String what) {
        long size = JsonSize.of(data);
        long total = transition.instance().dataBytes() + size;
        if (total > maxBytes) {
            throw new InstanceTooLarge("Expected an instance's data to stay within %d bytes, but %s (%d bytes) would make it %d"
                    .formatted(maxBytes, what, size, total));
        }
        transition.countData(size);
    }

    /**
     * Takes {@code data} the instance drops out of its running total, so that what it no longer holds does not fill its
     * budget. Never below 0: instances stored before the budget counted from 0.
     */
    public void release(Transition transition, Object data) {
        transition.countData(-Math.min(JsonSize.of(data), transition.instance().dataBytes()));
    }

    /** Checks a copy the engine derives from the instance's data (see the class comment); it is not counted. */
    public void checkCopy(Instance instance, Object copy, String what) {
        long size = JsonSize.of(copy);
        if (instance.dataBytes() + size > RECORD_MAX_BYTES) {
            throw new InstanceTooLarge("Expected %s of instance '%s' to stay within %d bytes with its data, but it is %d bytes"
                    .formatted(what, instance.id(), RECORD_MAX_BYTES - instance.dataBytes(), size));
        }
    }

    /**
     * Checks that the instance, as the engine writes it, fits one record. The budgets above count JSON, as CONTRACT
     * section 8 has it, and the engine writes Smile, which is smaller for most data but not for all: a number such as
     * {@code 1.5} takes 4 bytes in JSON and 11 in Smile. An instance within its budget could therefore make a record
     * the broker refuses, and the engine would fail on it at every retry; here such a decision is refused as one over
     * the budget is. The bytes measured are the ones the store then writes ({@link RecordSerde#encodedSize}).
     */
    public void checkRecord(Instance after) {
        int size = RecordSerde.encodedSize(after);
        if (size > RecordSerde.MAX_RECORD_BYTES) {
            RecordSerde.forgetMeasured();
            throw new InstanceTooLarge("Expected instance '%s' to fit one record of %d bytes as the engine writes it, but it would take %d"
                    .formatted(after.id(), RecordSerde.MAX_RECORD_BYTES, size));
        }
    }

    /** Whether data brought by a command alone, before anything is decided, already passes the budget. */
    public boolean exceededBy(long size) {
        return size > maxBytes;
    }
}
