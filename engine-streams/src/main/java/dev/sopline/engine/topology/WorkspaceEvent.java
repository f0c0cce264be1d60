package dev.sopline.engine.topology;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.TopicNameExtractor;

/**
 * A state change on its way to its workspace's own events topic: the topic travels with the envelope, so the sink
 * that writes every workspace's copies names the topic without reading the event again.
 *
 * @param topic {@code sop.events.<workspace>}
 * @param envelope the CloudEvent JSON, as written to {@code sop.events}
 */
public record WorkspaceEvent(String topic, byte[] envelope) {

    static TopicNameExtractor<String, WorkspaceEvent> topicName() {
        return (key, event, recordContext) -> event.topic();
    }

    /** The envelope in structured mode, as on {@code sop.events}. */
    static Serializer<WorkspaceEvent> serializer() {
        StructuredCloudEventSerializer structured = new StructuredCloudEventSerializer();
        return new Serializer<>() {
            @Override
            public byte[] serialize(String topic, WorkspaceEvent event) {
                return event == null ? null : event.envelope();
            }

            @Override
            public byte[] serialize(String topic, Headers headers, WorkspaceEvent event) {
                return event == null ? null : structured.serialize(topic, headers, event.envelope());
            }
        };
    }
}
