package dev.sopline.engine.state;

import dev.sopline.schemas.command.InstanceKeys;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;

/** The instances store: the only code that knows its key format, {@code <workspace>/<instance id>}. */
public final class InstanceStore {

    /**
     * Instances kept decoded, per task: those in flight, whose next command comes soon. A finished instance is not kept,
     * so memory goes to the instances that will be read again; at 64 in flight over six tasks about a dozen each.
     */
    static final int DECODED = 256;
    /**
     * And at most this much of their data, per task: an instance holds up to its data budget (256 KiB by default) and
     * takes a few times that decoded, so 256 large instances waiting on people would fill the heap the standalone
     * shares with its broker and gateway. Instances of a few KiB, the usual, are bounded by the count.
     */
    static final long DECODED_DATA_BYTES = 8L * 1024 * 1024;
    /** What an instance weighs beside its data: its fields, its steps and their attempts. */
    private static final long FIELDS_BYTES = 1_024;

    private final DecodedValues<Instance> store;

    public InstanceStore(KeyValueStore<String, Instance> store) {
        this.store = new DecodedValues<>(store, DECODED, instance -> FIELDS_BYTES + instance.dataBytes(), DECODED_DATA_BYTES);
    }

    public Optional<Instance> find(String workspace, String instanceId) {
        return Optional.ofNullable(store.get(InstanceKeys.key(workspace, instanceId)));
    }

    public void put(Instance instance) {
        String key = InstanceKeys.key(instance.workspace(), instance.id());
        if (instance.isTerminal()) {
            store.putForgetting(key, instance);
        } else {
            store.put(key, instance);
        }
    }

    public void delete(Instance instance) {
        store.delete(InstanceKeys.key(instance.workspace(), instance.id()));
    }
}
