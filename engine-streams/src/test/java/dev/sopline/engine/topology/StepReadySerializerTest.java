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
import java.util.stream.Stream;
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
        int run = 0;
        for (Instant time : TIMES) {
            for (String text : TEXTS) {
                StepReady ready = step(run++, time, text);
                RecordHeaders written = new RecordHeaders();
                RecordHeaders expected = new RecordHeaders();

                byte[] value = serializer.serialize(TOPIC, written, ready);
                byte[] sdkValue = sdk.serialize(TOPIC, expected, StepReadyEvents.of(ready, serializer.serialize(TOPIC, ready)));

                assertThat(text(written)).as("headers of a step at %s", time).isEqualTo(text(expected));
                assertThat(value).as("value of a step at %s", time).isEqualTo(sdkValue);
            }
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

    /**
     * Times at every precision a fraction can be written with (none, tenths, milliseconds, microseconds, nanoseconds,
     * trailing zeros dropped or not), from 1970 (an event id is a ULID, which counts milliseconds from then) to 9999.
     */
    private static final List<Instant> TIMES = Stream.of(0L, 1L, 86_399L, 951_782_400L, 1_795_000_000L, 253_402_300_799L)
            .flatMap(seconds -> Stream.of(0, 100_000_000, 120_000_000, 123_000_000, 123_400_000, 123_456_000, 123_456_700, 123_456_789, 1)
                    .map(nanos -> Instant.ofEpochSecond(seconds, nanos)))
            .toList();
    /** Names and inputs with what JSON must escape, and characters beyond ASCII. */
    private static final List<String> TEXTS = List.of("", "Classify", "a \"quoted\" \\ back/slash", "tab\tnew\nline\u0001",
            "é€😀", "<b>&'</b>");

    private static StepReady step(int run, Instant time, String text) {
        return new StepReady("ws-" + run % 7, "01JAAAAAAAAAAAAAAAAAAAAA" + (10 + run % 90), "process_" + run % 5, "1." + run % 3,
                "step-" + run, text, StepType.values()[run % StepType.values().length], "team.step-" + run % 4, 1 + run % 5,
                Map.of("note", text), List.of(), null, run % 3 == 0 ? "01JCALLBACK" + run : null, null, time);
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
