package dev.sopline.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.instance.InstanceState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
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
        return instance("01JAAAAAAAAAAAAAAAAAAAAAAA", state, 0L);
    }

    private static Instance instance(String id, InstanceState state, long dataBytes) {
        return new Instance(id, "default", "triage", "1.0", state, Map.of("title", "Q3"), Map.of(), null, null,
                Instant.parse("2026-03-02T08:00:00Z"), null, List.of(), dataBytes);
    }

    @Test
    void shouldKeepNoMoreThanItsBudgetOfDataDecoded() {
        InstanceStore instances = new InstanceStore(store);
        // 64 instances in flight, each holding 256 KiB of data: far fewer than the count kept, but 16 MiB of data.
        List<Instance> large = IntStream.range(0, 64)
                .mapToObj(n -> instance("01JAAAAAAAAAAAAAAAAAAAAA%02d".formatted(n), InstanceState.WAITING, 256 * 1024))
                .toList();
        large.forEach(instances::put);

        assertThat(instances.find("default", large.get(63).id())).as("the latest, kept").containsSame(large.get(63));
        assertThat(instances.find("default", large.get(0).id())).as("the first, read from the store again")
                .hasValueSatisfying(found -> assertThat(found).isEqualTo(large.get(0)).isNotSameAs(large.get(0)));
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
