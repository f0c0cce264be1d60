package dev.sopline.engine.api.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A metrics-window bucket: its duration bins kept as one sorted array, merged in one pass; format 1 still read. */
class WindowBucketTest {

    @Test
    void shouldCountEachDurationInItsBinAsAMapOfBinsWould() {
        Random random = new Random(23);
        TreeMap<Integer, Long> expected = new TreeMap<>();
        WindowBucket minute = WindowBucket.empty();
        WindowBucket hour = WindowBucket.empty();
        for (int instance = 0; instance < 5_000; instance++) {
            long durationMs = (long) Math.exp(random.nextDouble() * 12);
            expected.merge(DurationBins.binOf(durationMs), 1L, Long::sum);
            WindowBucket one = WindowBucket.completedOne(durationMs);
            minute = minute.plus(one);
            // Buckets are also added up out of order, as a window's sum does.
            hour = instance % 2 == 0 ? hour.plus(one) : one.plus(hour);
        }

        assertThat(minute.durationBins()).containsExactlyEntriesOf(expected);
        assertThat(hour).isEqualTo(minute);
        assertThat(minute.completed()).isEqualTo(5_000);
        assertThat(DurationBins.percentile(minute.durationBins(), 50, minute.maxDurationMs()))
                .isEqualTo(DurationBins.percentile(expected, 50, minute.maxDurationMs()));
    }

    @Test
    void shouldReadABucketOfTheFirstFormatAndWriteItInTheSecond() {
        String first = "{\"started\":3,\"completed\":2,\"failed\":0,\"cancelled\":1,\"escalations\":1,"
                + "\"duration_bins\":{\"350\":1,\"37\":1},\"max_duration_ms\":1000,\"format\":1}";
        RecordSerde<WindowBucket> serde = new RecordSerde<>(WindowBucket.class);

        WindowBucket read = serde.deserializer().deserialize("t", first.getBytes(StandardCharsets.UTF_8));

        assertThat(read.durationBins()).containsExactly(Map.entry(37, 1L), Map.entry(350, 1L));
        assertThat(read.started()).isEqualTo(3);
        assertThat(read.maxDurationMs()).isEqualTo(1000);
        WindowBucket next = read.plus(WindowBucket.completedOne(5));
        assertThat(next.format()).isEqualTo(WindowBucket.FORMAT);
        String json = Json.mapper().writeValueAsString(next);
        assertThat(DurationBins.binOf(5)).isEqualTo(91);
        assertThat(json).contains("\"bins\":[37,1,91,1,350,1]").doesNotContain("duration_bins");
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", next))).isEqualTo(next);
    }
}
