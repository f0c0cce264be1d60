package dev.sopline.engine.api.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import tools.jackson.core.util.BufferRecycler;

class RecordSerdeTest {

    @Test
    void shouldWriteHalfASurrogatePairAsTheReplacementCharacterInsteadOfRefusingTheRecord() {
        // What a JSON parser gives for the valid JSON string "a\ud800b": not Unicode text, which Smile refuses by default.
        Map<String, Object> outputs = Map.of("text", "a" + (char) 0xD800 + "b", "kept", "ok");

        byte[] written = RecordSerde.write(outputs);

        @SuppressWarnings("unchecked")
        Map<String, Object> read = RecordSerde.read(written, Map.class);
        assertThat(read).containsEntry("text", "a\uFFFDb").containsEntry("kept", "ok");
    }

    @Test
    void shouldKeepTheBuffersItWritesWithPerThread() throws Exception {
        BufferRecycler first = RecordSerde.streamFactory()._getBufferRecycler();

        // A pool shared by every thread hands out a new recycler for each one taken and not given back.
        assertThat(RecordSerde.streamFactory()._getBufferRecycler()).isSameAs(first);
        assertThat(CompletableFuture.supplyAsync(() -> RecordSerde.streamFactory()._getBufferRecycler()).get())
                .isNotSameAs(first);
    }

    @Test
    void shouldStillReadRecordsWrittenAsJson() {
        @SuppressWarnings("unchecked")
        Map<String, Object> read = RecordSerde.read("{\"kept\":\"ok\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8), Map.class);
        assertThat(read).containsEntry("kept", "ok");
    }

    @Test
    void shouldWriteTheBytesJustMeasuredForTheSameValueWithoutEncodingItAgain() {
        Counted value = new Counted("ok");
        RecordSerde<Counted> serde = new RecordSerde<>(Counted.class);

        int size = RecordSerde.encodedSize(value);
        byte[] written = serde.serializer().serialize("topic", value);

        assertThat(written).hasSize(size);
        assertThat(Counted.ENCODED.get()).as("encoded once for the measure and the write").isEqualTo(1);
        serde.serializer().serialize("topic", value);
        assertThat(Counted.ENCODED.get()).as("the measure's bytes are handed over once").isEqualTo(2);
    }

    /** Counts how often it is encoded: Jackson reads the component through its accessor each time. */
    record Counted(String kept) {
        static final java.util.concurrent.atomic.AtomicInteger ENCODED = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public String kept() {
            ENCODED.incrementAndGet();
            return kept;
        }
    }
}
