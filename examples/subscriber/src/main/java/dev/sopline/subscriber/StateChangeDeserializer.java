package dev.sopline.subscriber;

import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import io.cloudevents.kafka.CloudEventDeserializer;
import org.apache.kafka.common.header.Headers;

/**
 * The CloudEvents SDK's Kafka deserializer, which reads every record written in the CloudEvents Kafka binding. Records
 * written by engines older than that carry the same structured JSON without the binding's {@code content-type}
 * header, which the SDK needs to recognise them; those are read as structured JSON.
 */
final class StateChangeDeserializer extends CloudEventDeserializer {

    private final JsonFormat json = new JsonFormat();

    @Override
    public CloudEvent deserialize(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return null;
        }
        if (headers.lastHeader("content-type") == null && headers.lastHeader("ce_specversion") == null) {
            return json.deserialize(data);
        }
        return super.deserialize(topic, headers, data);
    }
}
