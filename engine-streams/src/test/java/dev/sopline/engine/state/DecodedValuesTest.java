package dev.sopline.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Values read or written once are answered without decoding them again; deletes and the bound are respected. */
class DecodedValuesTest {

    record Counter(String name, List<Long> counts) {}

    private KeyValueStore<String, Counter> store;

    @BeforeEach
    void openStore() {
        store = InMemoryStores.open("counters", Counter.class);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void shouldDecodeAStoredValueOnceAndWriteThroughToTheStore() {
        store.put("a", new Counter("a", List.of(1L)));
        DecodedValues<Counter> values = new DecodedValues<>(store, 10);

        Counter first = values.get("a");
        assertThat(values.get("a")).isEqualTo(new Counter("a", List.of(1L))).isSameAs(first);

        values.put("a", new Counter("a", List.of(2L)));
        assertThat(store.get("a")).as("the store itself").isEqualTo(new Counter("a", List.of(2L)));
        assertThat(values.get("a")).isEqualTo(new Counter("a", List.of(2L)));
    }

    @Test
    void shouldForgetADeletedKeyInTheStoreAndHere() {
        DecodedValues<Counter> values = new DecodedValues<>(store, 10);
        values.put("a", new Counter("a", List.of(1L)));
        values.put("b", new Counter("b", List.of(1L)));

        values.put("a", null);
        values.delete("b");

        assertThat(values.get("a")).isNull();
        assertThat(values.get("b")).isNull();
        assertThat(store.get("a")).isNull();
        assertThat(store.get("b")).isNull();
    }

    @Test
    void shouldWriteWithoutKeepingWhatIsNotReadAgainSoon() {
        DecodedValues<Counter> values = new DecodedValues<>(store, 10);
        Counter kept = new Counter("a", List.of(1L));
        values.put("a", kept);

        values.putForgetting("a", new Counter("a", List.of(2L)));

        assertThat(store.get("a")).isEqualTo(new Counter("a", List.of(2L)));
        Counter read = values.get("a");
        assertThat(read).isEqualTo(new Counter("a", List.of(2L)));
        assertThat(values.get("a")).as("kept once read").isSameAs(read);
    }

    @Test
    void shouldKeepNoMoreThanItsWeightLeastRecentlyUsedOutAndNeverOneHeavierThanAll() {
        // A counter weighs as many as it has counts; at most 10 of them remembered.
        DecodedValues<Counter> values = new DecodedValues<>(store, 100, counter -> counter.counts().size(), 10);
        Counter four = new Counter("a", List.of(1L, 2L, 3L, 4L));
        Counter five = new Counter("b", List.of(1L, 2L, 3L, 4L, 5L));
        Counter three = new Counter("c", List.of(1L, 2L, 3L));
        values.put("a", four);
        values.put("b", five);
        values.put("c", three);

        assertThat(values.rememberedWeight()).as("a went out, the least recently used").isEqualTo(8);
        assertThat(values.get("c")).isSameAs(three);
        assertThat(values.get("b")).isSameAs(five);
        assertThat(values.get("a")).as("decoded again").isEqualTo(four).isNotSameAs(four);

        Counter eleven = new Counter("d", List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L));
        values.put("d", eleven);
        assertThat(values.get("d")).as("heavier than all: read from the store each time").isEqualTo(eleven).isNotSameAs(eleven);
        values.delete("a");
        values.put("c", null);
        assertThat(values.rememberedWeight()).as("b alone").isEqualTo(5);
    }

    @Test
    void shouldCountOutTheWeightOfAValueLeftOutByTheCount() {
        DecodedValues<Counter> values = new DecodedValues<>(store, 2, counter -> counter.counts().size(), 100);
        values.put("a", new Counter("a", List.of(1L, 2L, 3L)));
        values.put("b", new Counter("b", List.of(1L)));
        values.put("c", new Counter("c", List.of(1L, 2L)));

        assertThat(values.rememberedWeight()).as("a went out for the count").isEqualTo(3);
    }

    @Test
    void shouldKeepOnlyTheMostRecentlyUsedKeys() {
        DecodedValues<Counter> values = new DecodedValues<>(store, 2);
        values.put("a", new Counter("a", List.of(1L)));
        values.put("b", new Counter("b", List.of(1L)));
        Counter a = values.get("a");
        values.put("c", new Counter("c", List.of(1L)));

        assertThat(values.get("a")).as("used last but one").isSameAs(a);
        Counter b = values.get("b");
        assertThat(b).as("read from the store again").isEqualTo(new Counter("b", List.of(1L)));
        assertThat(values.get("b")).isSameAs(b);
    }
}
