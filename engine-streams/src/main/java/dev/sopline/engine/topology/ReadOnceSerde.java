package dev.sopline.engine.topology;

import dev.sopline.engine.api.serde.RecordSerde;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A {@link RecordSerde} that parses each distinct record once: a record whose bytes it has read before is answered
 * with the value it read then. For records read far more often than written, whose values nobody changes: published
 * process versions, which every start reads (the gateway, for the latest version it names, and the engine, to pick
 * the version), each version's definition parsed again every time until then.
 *
 * <p>Keyed by the bytes themselves, not by the record's key, so a new version or a retirement is never answered from
 * what was read before: it has other bytes. Bounded by the records' size: once those remembered add up to
 * {@code budgetBytes} the memory starts over, which costs one parse per record, and a record larger than an eighth of
 * the budget is parsed each time.
 */
final class ReadOnceSerde<T> implements Serde<T> {

    private final RecordSerde<T> records;
    private final long budgetBytes;
    private final Map<ByteBuffer, T> read = new ConcurrentHashMap<>();
    private final AtomicLong rememberedBytes = new AtomicLong();

    ReadOnceSerde(Class<T> type, long budgetBytes) {
        this.records = new RecordSerde<>(type);
        this.budgetBytes = budgetBytes;
    }

    @Override
    public Serializer<T> serializer() {
        return records.serializer();
    }

    @Override
    public Deserializer<T> deserializer() {
        Deserializer<T> parse = records.deserializer();
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            // Equal and hashed by content; the store hands out a fresh array per read, which nobody writes to after.
            ByteBuffer content = ByteBuffer.wrap(bytes);
            T known = read.get(content);
            if (known != null) {
                return known;
            }
            T value = parse.deserialize(topic, bytes);
            if (bytes.length <= budgetBytes / 8) {
                if (rememberedBytes.addAndGet(bytes.length) > budgetBytes) {
                    read.clear();
                    rememberedBytes.set(bytes.length);
                }
                read.put(content, value);
            }
            return value;
        };
    }

    /** How many records are remembered now. */
    int remembered() {
        return read.size();
    }
}
