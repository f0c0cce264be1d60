package dev.sopline.engine.api.serde;

import dev.sopline.schemas.json.Json;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.dataformat.smile.SmileFactory;
import tools.jackson.dataformat.smile.SmileMapper;
import tools.jackson.dataformat.smile.SmileWriteFeature;

/**
 * The serde of the engine's internal records: commands, replies, published definitions, callback owners and every
 * store. They are written in Smile, Jackson's binary form of JSON, with the project's one mapping ({@link Json}), so
 * they hold the same fields and values as before, in about two thirds of the bytes and at a fraction of the parsing
 * (no text to scan for numbers and escapes, field names written once per record). Records written as JSON by an
 * earlier version, or by a client that writes commands itself, are still read: a Smile record begins with its
 * header {@code :)\n}, which no JSON value does. Public topics keep CloudEvents JSON ({@link JsonSerde}).
 */
public final class RecordSerde<T> implements Serde<T> {

    /**
     * Lenient about text: a string holding half of a surrogate pair (valid JSON, as {@code "\\ud800"}, but no Unicode
     * text) is written with the replacement character in its place, as UTF-8 encoders do, where Smile would refuse the
     * whole record. Such a value can arrive in any input, output or payload; refused, it stopped the relay on one
     * worker's result, and failed the request that brought it.
     */
    private static final SmileMapper SMILE = Json.configure(SmileMapper.builder(SmileFactory.builder().recyclerPool(Json.BUFFERS).build()))
            .enable(SmileWriteFeature.LENIENT_UTF_ENCODING)
            .build();

    /**
     * The largest record the engine writes: the broker's default limit for one, 1 MiB, less room for the key and the
     * record's own fields.
     */
    public static final int MAX_RECORD_BYTES = 1_000_000;

    /** The last value this thread measured, with its bytes, for the write that follows the measure. */
    private static final ThreadLocal<Encoded> MEASURED = new ThreadLocal<>();

    private record Encoded(Object value, byte[] bytes) {
    }

    private final Class<T> type;

    public RecordSerde(Class<T> type) {
        this.type = type;
    }

    /** The buffers the records are written and read with (a test checks they are kept per thread). */
    static TokenStreamFactory streamFactory() {
        return SMILE.tokenStreamFactory();
    }

    /** A record's bytes as this version writes them. */
    public static byte[] write(Object value) {
        return SMILE.writeValueAsBytes(value);
    }

    /**
     * How many bytes {@code value} takes as this version writes it. The bytes are kept for the thread's next write of
     * the same object (the values are not changed in place), so measuring what is about to be stored costs one
     * encoding, not two.
     */
    public static int encodedSize(Object value) {
        byte[] bytes = write(value);
        MEASURED.set(new Encoded(value, bytes));
        return bytes.length;
    }

    /** Forgets what this thread measured last: a value measured and then not written. */
    public static void forgetMeasured() {
        MEASURED.remove();
    }

    private static byte[] measuredOrWrite(Object value) {
        Encoded measured = MEASURED.get();
        if (measured != null && measured.value() == value) {
            MEASURED.remove();
            return measured.bytes();
        }
        return write(value);
    }

    /** A record in either form: Smile, or the JSON of an earlier version. */
    public static <T> T read(byte[] bytes, Class<T> type) {
        return isSmile(bytes) ? SMILE.readValue(bytes, type) : Json.mapper().readValue(bytes, type);
    }

    /** Whether the bytes begin with Smile's header, {@code :)} and a line feed. */
    public static boolean isSmile(byte[] bytes) {
        return bytes.length >= 3 && bytes[0] == ':' && bytes[1] == ')' && bytes[2] == '\n';
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> value == null ? null : measuredOrWrite(value);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return read(bytes, type);
            } catch (JacksonException e) {
                throw new SerializationException("Expected a " + type.getSimpleName() + " record on " + topic + ", but " + e.getOriginalMessage(), e);
            }
        };
    }
}
