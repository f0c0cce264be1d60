package dev.sopline.engine.query;

import org.apache.kafka.streams.KafkaStreams;

/**
 * Whether this replica's stores can answer. Kafka Streams reports RUNNING only once its global stores (the process
 * definitions) are restored and its tasks are ready; before that a read can find a store half restored and answer
 * "absent" for something that exists. After the first RUNNING, the rebalances that follow a replica joining or
 * leaving (REBALANCING) keep the restored stores readable, so they do not make the replica unable to serve.
 */
public final class ServingState {

    private final KafkaStreams streams;
    private volatile boolean restoredOnce;

    public ServingState(KafkaStreams streams) {
        this.streams = streams;
    }

    public boolean canServe() {
        KafkaStreams.State state = streams.state();
        if (state == KafkaStreams.State.RUNNING) {
            restoredOnce = true;
            return true;
        }
        return restoredOnce && state == KafkaStreams.State.REBALANCING;
    }

    /** Only to notice the first RUNNING, which may be short: called often until it has been seen. */
    boolean hasBeenRestored() {
        return canServe() || restoredOnce;
    }
}
