package dev.sopline.engine.topology;

import dev.sopline.engine.api.serde.JsonSerde;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.event.StepReadyEvents;
import io.cloudevents.kafka.CloudEventSerializer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a step-ready record in the CloudEvents Kafka binding's binary mode: the value is the {@link StepReady} JSON
 * that workers have always read, and the event's attributes ({@code ce_id}, {@code ce_type}, {@code ce_source},
 * ...) go in headers, written by the CloudEvents SDK's own serializer so that they follow the binding exactly.
 */
public final class StepReadySerializer implements Serializer<StepReady> {

    private final Serializer<StepReady> json = new JsonSerde<>(StepReady.class).serializer();
    /** Binary mode is the SDK serializer's default encoding. */
    private final CloudEventSerializer binary = new CloudEventSerializer();

    @Override
    public byte[] serialize(String topic, StepReady ready) {
        return json.serialize(topic, ready);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, StepReady ready) {
        if (ready == null) {
            return null;
        }
        return binary.serialize(topic, headers, StepReadyEvents.of(ready, json.serialize(topic, ready)));
    }
}
