package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepReadyEvents;
import io.cloudevents.CloudEvent;
import io.cloudevents.kafka.CloudEventDeserializer;
import io.cloudevents.kafka.CloudEventSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * Step handoffs are written without the CloudEvents SDK's serializer; workers see the headers and value the SDK
 * writes for the same event, and the SDK reads them back as that event.
 */
class StepReadySerializerTest {

    private static final String TOPIC = "sop.steps.automated";

    private final StepReadySerializer serializer = new StepReadySerializer();
    private final CloudEventSerializer sdk = new CloudEventSerializer();

    @Test
    void shouldWriteTheSameHeadersAndValueAsTheCloudEventsSdkForAnyStep() {
        Random random = new Random(20261127);
        for (int run = 0; run < 3_000; run++) {
            StepReady ready = randomStep(random, run);
            RecordHeaders written = new RecordHeaders();
            RecordHeaders expected = new RecordHeaders();

            byte[] value = serializer.serialize(TOPIC, written, ready);
            byte[] sdkValue = sdk.serialize(TOPIC, expected, StepReadyEvents.of(ready, serializer.serialize(TOPIC, ready)));

            assertThat(text(written)).as("headers of step %s", run).isEqualTo(text(expected));
            assertThat(value).as("value of step %s", run).isEqualTo(sdkValue);
        }
    }

    @Test
    void shouldBeReadBackByTheSdkAsTheStepsEvent() {
        StepReady ready = new StepReady("default", "01JAAAAAAAAAAAAAAAAAAAAAAA", "triage", "1.2", "classify", "Classify", StepType.AUTOMATED,
                "team.classify", 2, Map.of("title", "Q3 plan"), List.of(), null, null, null, Instant.parse("2026-03-02T08:00:00.120Z"));
        RecordHeaders headers = new RecordHeaders();
        byte[] value = serializer.serialize(TOPIC, headers, ready);

        CloudEvent event = new CloudEventDeserializer().deserialize(TOPIC, headers, value);

        assertThat(event.getId()).isEqualTo(StepReadyEvents.idOf(ready));
        assertThat(event.getType()).isEqualTo(StepReadyEvents.STEP_READY);
        assertThat(event.getSource()).hasToString("/workspaces/default/processes/triage");
        assertThat(event.getSubject()).isEqualTo(ready.instanceId());
        assertThat(event.getTime()).isEqualTo(ready.createdAt().atOffset(ZoneOffset.UTC));
        assertThat(event.getDataContentType()).isEqualTo("application/json");
        assertThat(new JsonSerde<>(StepReady.class).deserializer().deserialize(TOPIC, event.getData().toBytes())).isEqualTo(ready);
    }

    private static StepReady randomStep(Random random, int run) {
        String text = randomText(random);
        return new StepReady("ws-" + run % 7, "01JAAAAAAAAAAAAAAAAAAAAA" + (10 + run % 90), "process_" + run % 5, "1." + run % 3,
                "step-" + run, text, StepType.values()[run % StepType.values().length], "team.step-" + run % 4, 1 + random.nextInt(5),
                Map.of("note", text), List.of(), null, run % 3 == 0 ? "01JCALLBACK" + run : null, null, randomTime(random));
    }

    /**
     * Times as records carry them (whole milliseconds) and finer ones, at whole seconds too, years 1970 to 9999 (an
     * event id is a ULID, which counts milliseconds from 1970).
     */
    private static Instant randomTime(Random random) {
        long seconds = Math.floorMod(random.nextLong(), 253_402_300_800L);
        int nanos = switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1_000) * 1_000_000;
            case 2 -> random.nextInt(10) * 100_000_000;
            case 3 -> random.nextInt(1_000_000) * 1_000;
            default -> random.nextInt(1_000_000_000);
        };
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** Text with what JSON must escape, and characters beyond ASCII. */
    private static String randomText(Random random) {
        int[] alphabet = "ab \"\\/\n\t\u0001é€😀<>&'".codePoints().toArray();
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(12);
        for (int index = 0; index < length; index++) {
            text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
        }
        return text.toString();
    }

    /** Every header in order, as {@code name=value} lines. */
    private static String text(RecordHeaders headers) {
        StringBuilder text = new StringBuilder();
        for (Header header : headers) {
            text.append(header.key()).append('=').append(new String(header.value(), StandardCharsets.UTF_8)).append('\n');
        }
        return text.toString();
    }
}
