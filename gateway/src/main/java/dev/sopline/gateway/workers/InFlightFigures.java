package dev.sopline.gateway.workers;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Steps in flight, as the SDK's workers tell them in the metadata of the offsets they commit: per partition,
 * {@code {"inFlight":3,"at":"<instant>"}}, the steps of that partition its member runs now. A figure older than
 * {@link #FRESH_FOR} comes from a member that stopped committing (it died, or the partition moved and its new member
 * has not committed yet) and is not counted; a live member with steps running commits every few seconds.
 */
final class InFlightFigures {

    static final Duration FRESH_FOR = Duration.ofMinutes(2);
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private InFlightFigures() {
    }

    /** The sum over partitions of the fresh figures; metadata that is absent or not the SDK's counts as none. */
    static long sum(Map<TopicPartition, OffsetAndMetadata> committed, Instant now) {
        long inFlight = 0;
        for (OffsetAndMetadata offset : committed.values()) {
            inFlight += figure(offset.metadata(), now);
        }
        return inFlight;
    }

    private static long figure(String metadata, Instant now) {
        if (metadata == null || metadata.isEmpty() || metadata.charAt(0) != '{') {
            return 0;
        }
        try {
            JsonNode node = MAPPER.readTree(metadata);
            JsonNode count = node.path("inFlight");
            JsonNode at = node.path("at");
            if (!count.canConvertToLong() || !at.isString()) {
                return 0;
            }
            Instant said = Instant.parse(at.asString());
            return said.plus(FRESH_FOR).isBefore(now) ? 0 : Math.max(0, count.asLong());
        } catch (JacksonException | java.time.format.DateTimeParseException e) {
            return 0; // another client's metadata: not a figure of ours
        }
    }
}
