package dev.sopline.engine.state;

import dev.sopline.engine.api.serde.RecordSerde;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** An in-memory store with the engine's serde for its values, opened outside any topology, for tests of one store. */
final class InMemoryStores {

    private InMemoryStores() {}

    static <V> KeyValueStore<String, V> open(String name, Class<V> values) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, name);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(),
                new RecordSerde<>(values)).withLoggingDisabled().build();
        store.init(new MockProcessorContext<>(props).getStateStoreContext(), store);
        return store;
    }
}
