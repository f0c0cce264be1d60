package dev.sopline.engine.state;

import dev.sopline.schemas.instance.HistoryEntry;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.schemas.json.Json;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One record of the history store: the entries one decision added to an instance's history, numbered, in order.
 *
 * @param format the stored record's format: 2 since a record holds a decision's entries; the previous version wrote one
 *     bare {@link HistoryEntry} per record, without a format, which {@link #serde} reads as a record of that one entry
 *     (format 1)
 * @param entries the entries, oldest first, their {@code seq} following on from the previous record's
 */
public record HistoryRecord(Integer format, List<HistoryEntry> entries) {

    public static final int FORMAT = 2;
    static final int ONE_ENTRY_FORMAT = 1;

    public HistoryRecord {
        format = format == null ? ONE_ENTRY_FORMAT : format;
        entries = List.copyOf(entries);
    }

    public HistoryRecord(List<HistoryEntry> entries) {
        this(FORMAT, entries);
    }

    /**
     * Written as every internal record is ({@link RecordSerde}); read in that form or as the JSON of earlier versions,
     * where a record of format 2 has {@code entries} and one of the previous format is an entry.
     */
    public static Serde<HistoryRecord> serde() {
        // RecordSerde's own writer: a record just measured for its size (HistoryStore) is written from those bytes.
        return Serdes.serdeFrom(new RecordSerde<>(HistoryRecord.class).serializer(),
                (topic, bytes) -> bytes == null ? null : read(topic, bytes));
    }

    private static HistoryRecord read(String topic, byte[] bytes) {
        try {
            if (RecordSerde.isSmile(bytes)) {
                return RecordSerde.read(bytes, HistoryRecord.class);
            }
            JsonNode node = Json.mapper().readTree(bytes);
            if (node.has("entries")) {
                return Json.mapper().treeToValue(node, HistoryRecord.class);
            }
            return new HistoryRecord(ONE_ENTRY_FORMAT, List.of(Json.mapper().treeToValue(node, HistoryEntry.class)));
        } catch (JacksonException e) {
            throw new SerializationException("Expected a history record on " + topic + ", but " + e.getOriginalMessage(), e);
        }
    }
}
