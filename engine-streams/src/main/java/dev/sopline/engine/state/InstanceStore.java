package dev.sopline.engine.state;

import dev.sopline.schemas.command.InstanceKeys;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;

/** The instances store: the only code that knows its key format, {@code <workspace>/<instance id>}. */
public final class InstanceStore {

    /** Instances in flight whose records are kept decoded: a few thousand at a time is a busy engine's share. */
    static final int DECODED = 4_096;

    private final DecodedValues<Instance> store;

    public InstanceStore(KeyValueStore<String, Instance> store) {
        this.store = new DecodedValues<>(store, DECODED);
    }

    public Optional<Instance> find(String workspace, String instanceId) {
        return Optional.ofNullable(store.get(InstanceKeys.key(workspace, instanceId)));
    }

    public void put(Instance instance) {
        store.put(InstanceKeys.key(instance.workspace(), instance.id()), instance);
    }

    public void delete(Instance instance) {
        store.delete(InstanceKeys.key(instance.workspace(), instance.id()));
    }
}
