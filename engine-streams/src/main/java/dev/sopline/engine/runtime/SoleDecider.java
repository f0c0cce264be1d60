package dev.sopline.engine.runtime;

import dev.sopline.engine.query.EngineQueries;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Whether this replica alone decides every command now: its topology is running (not rebalancing) and every partition
 * of the command topic is one of its active tasks. While that holds, every reply and every instance change is decided
 * here, and so told to this JVM's {@link dev.sopline.engine.api.DecisionListener}.
 *
 * <p>Asked often (by readers of the replies and the events, on every pass of their loops), so the answer is kept until
 * Kafka Streams changes state: the set of active tasks only changes in a rebalance, and a rebalance always passes
 * through {@link KafkaStreams.State#REBALANCING}.
 */
final class SoleDecider implements KafkaStreams.StateListener {

    private final KafkaStreams streams;
    private final EngineQueries queries;
    private final int commandPartitions;
    private final AtomicLong stateChanges = new AtomicLong();
    private volatile Known known;

    private record Known(long asOfStateChange, boolean every) {}

    /** @param commandPartitions how many partitions the command topic has */
    SoleDecider(KafkaStreams streams, EngineQueries queries, int commandPartitions) {
        this.streams = streams;
        this.queries = queries;
        this.commandPartitions = commandPartitions;
    }

    @Override
    public void onChange(KafkaStreams.State newState, KafkaStreams.State oldState) {
        stateChanges.incrementAndGet();
    }

    boolean decidesEveryCommand() {
        // Read before the state: a change after this read makes the next call look again.
        long asOf = stateChanges.get();
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return false;
        }
        Known last = known;
        if (last != null && last.asOfStateChange() == asOf) {
            return last.every();
        }
        boolean every;
        try {
            every = queries.activeCommandPartitions().size() == commandPartitions;
        } catch (RuntimeException stoppedMeanwhile) {
            return false;
        }
        known = new Known(asOf, every);
        return every;
    }
}
