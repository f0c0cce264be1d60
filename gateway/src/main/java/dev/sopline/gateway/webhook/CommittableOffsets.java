package dev.sopline.gateway.webhook;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How far each partition of {@code sop.events} may be committed: up to its lowest offset whose deliveries have not
 * all finished (succeeded or been given up), or past the last record read when none is unfinished. A record whose
 * delivery is still retrying thus holds its partition's commit back, and a gateway that stops reads it again.
 *
 * <p>Used by the polling thread, except {@link Delivery#finish()}, which the sending threads call.
 */
final class CommittableOffsets {

    private static final Runnable NOTHING_TO_FINISH = () -> {};

    private final Map<TopicPartition, Partition> partitions = new HashMap<>();

    /**
     * Notes a record read and how many deliveries it was handed to.
     *
     * @return what each of those deliveries calls once finished
     */
    Runnable read(ConsumerRecord<?, ?> record, int deliveries) {
        TopicPartition topicPartition = new TopicPartition(record.topic(), record.partition());
        return partitions.computeIfAbsent(topicPartition, ignored -> new Partition()).read(record.offset(), deliveries);
    }

    /** The partitions whose commit may move on, each with the offset to commit. */
    Map<TopicPartition, OffsetAndMetadata> toCommit() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        partitions.forEach((topicPartition, partition) -> {
            long committable = partition.committable();
            if (committable > partition.committed) {
                offsets.put(topicPartition, new OffsetAndMetadata(committable));
            }
        });
        return offsets;
    }

    void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((topicPartition, offset) -> {
            Partition partition = partitions.get(topicPartition);
            if (partition != null) {
                partition.committed = offset.offset();
            }
        });
    }

    /** Partitions this consumer no longer reads; deliveries still out for them finish unnoticed. */
    void forget(Collection<TopicPartition> topicPartitions) {
        topicPartitions.forEach(partitions::remove);
    }

    void forgetAll() {
        partitions.clear();
    }

    private static final class Partition {

        /** Offsets with deliveries still out, and how many; the sending threads remove them. */
        private final ConcurrentSkipListMap<Long, AtomicInteger> unfinished = new ConcurrentSkipListMap<>();
        private long nextToRead = -1;
        private long committed = -1;

        Runnable read(long offset, int deliveries) {
            nextToRead = offset + 1;
            if (deliveries == 0) {
                return NOTHING_TO_FINISH;
            }
            AtomicInteger left = new AtomicInteger(deliveries);
            unfinished.put(offset, left);
            return () -> {
                if (left.decrementAndGet() == 0) {
                    unfinished.remove(offset);
                }
            };
        }

        long committable() {
            Map.Entry<Long, AtomicInteger> lowestUnfinished = unfinished.firstEntry();
            return lowestUnfinished == null ? nextToRead : lowestUnfinished.getKey();
        }
    }
}
