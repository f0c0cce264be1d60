package dev.sopline.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.instance.InstanceState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The engine keeps the instances in flight decoded between their commands, and not the finished ones. */
class InstanceStoreTest {

    private KeyValueStore<String, Instance> store;

    @BeforeEach
    void openStore() {
        store = InMemoryStores.open("instances", Instance.class);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private static Instance instance(InstanceState state) {
        return new Instance("01JAAAAAAAAAAAAAAAAAAAAAAA", "default", "triage", "1.0", state, Map.of("title", "Q3"), Map.of(), null, null,
                Instant.parse("2026-03-02T08:00:00Z"), null, List.of(), 0L);
    }

    @Test
    void shouldAnswerAnInstanceInFlightWithWhatItWrote() {
        InstanceStore instances = new InstanceStore(store);
        Instance running = instance(InstanceState.RUNNING);

        instances.put(running);

        assertThat(instances.find("default", running.id())).containsSame(running);
        assertThat(store.get(dev.sopline.schemas.command.InstanceKeys.key("default", running.id()))).as("written through").isEqualTo(running);
    }

    @Test
    void shouldNotKeepAFinishedInstance() {
        InstanceStore instances = new InstanceStore(store);
        instances.put(instance(InstanceState.RUNNING));
        Instance completed = instance(InstanceState.COMPLETED);

        instances.put(completed);

        assertThat(instances.find("default", completed.id())).as("read back from the store")
                .hasValueSatisfying(found -> assertThat(found).isEqualTo(completed).isNotSameAs(completed));
    }
}
