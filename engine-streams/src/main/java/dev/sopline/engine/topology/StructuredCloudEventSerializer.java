package dev.sopline.engine.topology;

import io.cloudevents.jackson.JsonFormat;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a CloudEvent that is already a structured JSON envelope (the value of {@code sop.events} since its first
 * release) in the CloudEvents Kafka binding's structured mode: the value unchanged, plus the {@code content-type:
 * application/cloudevents+json} header by which the CloudEvents SDKs' Kafka deserializers recognise it. Readers that
 * ignore headers, and the records written before the header existed, read the same bytes as before.
 *
 * <p>The envelope is not parsed again to let the SDK's serializer write it: the value would be the same, and the
 * header is the only thing the binding adds in this mode.
 */
public final class StructuredCloudEventSerializer implements Serializer<byte[]> {

    /** The binding's header name (CloudEvents Kafka protocol binding 1.0, section 3.2). */
    public static final String CONTENT_TYPE_HEADER = "content-type";
    private static final byte[] STRUCTURED_JSON = JsonFormat.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8);

    @Override
    public byte[] serialize(String topic, byte[] envelope) {
        return envelope;
    }

    @Override
    public byte[] serialize(String topic, Headers headers, byte[] envelope) {
        if (envelope != null) {
            headers.remove(CONTENT_TYPE_HEADER);
            headers.add(CONTENT_TYPE_HEADER, STRUCTURED_JSON);
        }
        return envelope;
    }
}
