package dev.sopline.engine.api.serde;

import dev.sopline.schemas.json.Json;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import tools.jackson.core.JacksonException;

/** JSON serde over the project's one mapping, for topic values and store values alike. */
public final class JsonSerde<T> implements Serde<T> {

    private final Class<T> type;

    public JsonSerde(Class<T> type) {
        this.type = type;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> value == null ? null : Json.mapper().writeValueAsBytes(value);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return Json.mapper().readValue(bytes, type);
            } catch (JacksonException e) {
                throw new SerializationException("Expected a JSON " + type.getSimpleName() + " on " + topic + ", but " + e.getOriginalMessage(), e);
            }
        };
    }
}
