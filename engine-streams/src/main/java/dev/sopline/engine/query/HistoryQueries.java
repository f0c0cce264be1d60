package dev.sopline.engine.query;

import dev.sopline.engine.api.query.Page;
import dev.sopline.engine.state.HistoryRecord;
import dev.sopline.engine.state.HistoryStore;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.instance.HistoryEntry;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Pages of an instance's history from this replica's copy of the history store. The history lives on the instance's
 * partition, so only the instance's owner holds it; {@link RoutingEngineReader} asks that owner.
 */
final class HistoryQueries {

    private HistoryQueries() {}

    /**
     * @param partition the instance's partition, or null for every partition this replica serves
     * @param cursor the {@code seq} of the last entry of the previous page, or null for the first page
     */
    static Page<HistoryEntry> page(KafkaStreams streams, String workspace, String instanceId, Integer partition, String cursor, int limit) {
        StoreQueryParameters<ReadOnlyKeyValueStore<String, HistoryRecord>> parameters = StoreQueryParameters
                .fromNameAndType(EngineTopology.HISTORY_STORE, QueryableStoreTypes.<String, HistoryRecord>keyValueStore());
        if (partition != null) {
            parameters = parameters.withPartition(partition);
        }
        List<HistoryEntry> found = HistoryStore.page(streams.store(parameters), workspace, instanceId, afterSeq(cursor), limit);
        if (found.size() <= limit) {
            return new Page<>(found, null);
        }
        List<HistoryEntry> items = List.copyOf(found.subList(0, limit));
        return new Page<>(items, Long.toString(items.get(limit - 1).seq()));
    }

    private static long afterSeq(String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(cursor));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Expected a history cursor to be a number, but it is '" + cursor + "'", e);
        }
    }
}
