package dev.sopline.engine.topology;

import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepReadyEvents;
import dev.sopline.schemas.json.IsoInstants;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a step-ready record in the CloudEvents Kafka binding's binary mode: the value is the {@link StepReady} JSON
 * that workers have always read, and the event's attributes go in {@code ce_*} headers (the content type in
 * {@code content-type}).
 *
 * <p>The headers are written here, in the order and with the text the CloudEvents SDK's {@code CloudEventSerializer}
 * writes for {@link StepReadyEvents#of} ({@code StepReadySerializerTest} compares them for every precision of the time
 * and for text JSON must escape), rather than by the SDK: its path (an event builder, the {@code source} parsed as a
 * {@code URI}, the time through {@code DateTimeFormatter}) was three fifths of writing a step handoff on the engine's
 * stream thread.
 */
public final class StepReadySerializer implements Serializer<StepReady> {

    private static final String SPEC_VERSION = "1.0";
    private static final String JSON = "application/json";

    private final Serializer<StepReady> json = new JsonSerde<>(StepReady.class).serializer();

    @Override
    public byte[] serialize(String topic, StepReady ready) {
        return json.serialize(topic, ready);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, StepReady ready) {
        if (ready == null) {
            return null;
        }
        add(headers, "ce_specversion", SPEC_VERSION);
        add(headers, "ce_id", StepReadyEvents.idOf(ready));
        add(headers, "ce_source", StateChangeEvents.sourceText(ready.workspace(), ready.process()));
        add(headers, "ce_type", StepReadyEvents.STEP_READY);
        add(headers, "content-type", JSON);
        add(headers, "ce_subject", ready.instanceId());
        add(headers, "ce_time", IsoInstants.formatAsOffsetDateTime(ready.createdAt()));
        return json.serialize(topic, ready);
    }

    private static void add(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
