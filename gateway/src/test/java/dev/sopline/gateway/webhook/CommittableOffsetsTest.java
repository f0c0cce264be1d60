package dev.sopline.gateway.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class CommittableOffsetsTest {

    private static final TopicPartition P0 = new TopicPartition("sop.events", 0);
    private static final TopicPartition P1 = new TopicPartition("sop.events", 1);

    private final CommittableOffsets offsets = new CommittableOffsets();

    @Test
    void shouldCommitPastRecordsWithoutDeliveries() {
        offsets.read(record(P0, 7), 0);
        offsets.read(record(P0, 8), 0);

        assertThat(offsets.toCommit()).isEqualTo(Map.of(P0, new OffsetAndMetadata(9)));
    }

    @Test
    void shouldHoldThePartitionAtItsLowestUnfinishedRecord() {
        Runnable first = offsets.read(record(P0, 10), 2);
        Runnable second = offsets.read(record(P0, 11), 1);
        offsets.read(record(P0, 12), 0);

        assertThat(offsets.toCommit()).isEqualTo(Map.of(P0, new OffsetAndMetadata(10)));
        second.run();
        first.run();
        assertThat(offsets.toCommit()).as("one of the first record's two deliveries is still out").isEqualTo(Map.of(P0, new OffsetAndMetadata(10)));
        first.run();
        assertThat(offsets.toCommit()).isEqualTo(Map.of(P0, new OffsetAndMetadata(13)));
    }

    @Test
    void shouldKeepPartitionsApart() {
        offsets.read(record(P0, 3), 1);
        offsets.read(record(P1, 5), 0);

        assertThat(offsets.toCommit()).isEqualTo(Map.of(P0, new OffsetAndMetadata(3), P1, new OffsetAndMetadata(6)));
    }

    @Test
    void shouldOfferOnlyWhatMovedSinceTheLastCommit() {
        offsets.read(record(P0, 3), 0);
        offsets.committed(offsets.toCommit());

        assertThat(offsets.toCommit()).isEmpty();
        offsets.read(record(P0, 4), 0);
        assertThat(offsets.toCommit()).isEqualTo(Map.of(P0, new OffsetAndMetadata(5)));
    }

    @Test
    void shouldForgetPartitionsNoLongerRead() {
        Runnable stillOut = offsets.read(record(P0, 3), 1);
        offsets.read(record(P1, 5), 0);

        offsets.forget(List.of(P0));
        stillOut.run();

        assertThat(offsets.toCommit()).containsOnlyKeys(P1);
    }

    private static ConsumerRecord<String, byte[]> record(TopicPartition partition, long offset) {
        return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, "instance", new byte[0]);
    }
}
