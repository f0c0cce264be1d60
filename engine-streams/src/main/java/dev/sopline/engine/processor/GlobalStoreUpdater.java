package dev.sopline.engine.processor;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Keeps a global store equal to its compacted topic: a value is put, a tombstone deletes. */
public final class GlobalStoreUpdater<V> implements Processor<String, V, Void, Void> {

    private final String storeName;
    private KeyValueStore<String, V> store;

    public GlobalStoreUpdater(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, V> record) {
        if (record.value() == null) {
            store.delete(record.key());
        } else {
            store.put(record.key(), record.value());
        }
    }
}
