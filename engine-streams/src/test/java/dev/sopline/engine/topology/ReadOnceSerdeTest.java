package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.serde.RecordSerde;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Records read again are answered from the first read; changed records and the bound are respected. */
class ReadOnceSerdeTest {

    record Version(String name, Map<String, Object> definition) {}

    private static byte[] write(Version version) {
        return RecordSerde.write(version);
    }

    @Test
    void shouldAnswerTheSameBytesWithWhatItReadTheFirstTime() {
        ReadOnceSerde<Version> serde = new ReadOnceSerde<>(Version.class, 1024 * 1024);
        Version version = new Version("1.0", Map.of("steps", 3));

        Version first = serde.deserializer().deserialize("t", write(version));
        Version again = serde.deserializer().deserialize("t", write(version));

        assertThat(first).isEqualTo(version);
        assertThat(again).as("parsed once, from a fresh copy of the same bytes").isSameAs(first);
    }

    @Test
    void shouldReadOtherBytesAsTheirOwnValue() {
        ReadOnceSerde<Version> serde = new ReadOnceSerde<>(Version.class, 1024 * 1024);
        serde.deserializer().deserialize("t", write(new Version("1.0", Map.of("steps", 3))));

        assertThat(serde.deserializer().deserialize("t", write(new Version("1.0", Map.of("steps", 4)))))
                .isEqualTo(new Version("1.0", Map.of("steps", 4)));
        assertThat(serde.deserializer().deserialize("t", null)).isNull();
    }

    @Test
    void shouldStartOverOnceTheRecordsItRemembersFillItsBudget() {
        byte[] one = write(new Version("1.0", Map.of("steps", 1)));
        ReadOnceSerde<Version> serde = new ReadOnceSerde<>(Version.class, one.length * 8L + 10);

        for (int version = 0; version < 20; version++) {
            serde.deserializer().deserialize("t", write(new Version("1." + version, Map.of("steps", 1))));
            assertThat(serde.remembered()).isLessThanOrEqualTo(9);
        }
        Version kept = serde.deserializer().deserialize("t", write(new Version("1.19", Map.of("steps", 1))));
        assertThat(serde.deserializer().deserialize("t", write(new Version("1.19", Map.of("steps", 1))))).isSameAs(kept);
    }

    @Test
    void shouldParseARecordLargerThanAnEighthOfItsBudgetEachTime() {
        Version large = new Version("1.0", Map.of("source", "x".repeat(2_000)));
        ReadOnceSerde<Version> serde = new ReadOnceSerde<>(Version.class, 8_000);

        Version first = serde.deserializer().deserialize("t", write(large));

        assertThat(serde.deserializer().deserialize("t", write(large))).isEqualTo(first).isNotSameAs(first);
        assertThat(serde.remembered()).isZero();
    }
}
