package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ShutdownSequenceTest {

    private final List<String> events = new CopyOnWriteArrayList<>();

    @Test
    void partsAddedAlongsideStopTogetherAndBeforeWhatWasStartedEarlier() {
        // Each part of the stage waits until the other has begun to stop: stopped one after the other, the first
        // would give up waiting, as a consumer's close gives up on a group that is still rebalancing.
        CountDownLatch gatewayStopping = new CountDownLatch(1);
        CountDownLatch workerStopping = new CountDownLatch(1);
        ShutdownSequence sequence = new ShutdownSequence();
        sequence.add("broker", () -> events.add("broker stopped"));
        sequence.add("gateway", () -> {
            gatewayStopping.countDown();
            events.add(workerStopping.await(5, TimeUnit.SECONDS) ? "gateway saw worker stopping" : "gateway waited alone");
        });
        sequence.addAlongside("worker", () -> {
            workerStopping.countDown();
            events.add(gatewayStopping.await(5, TimeUnit.SECONDS) ? "worker saw gateway stopping" : "worker waited alone");
        });

        sequence.close();

        assertThat(events).hasSize(3)
                .contains("gateway saw worker stopping", "worker saw gateway stopping")
                .last().isEqualTo("broker stopped");
    }

    @Test
    void partsAddedOneAfterTheOtherStopInReverseOrderOnce() {
        ShutdownSequence sequence = new ShutdownSequence();
        sequence.add("broker", () -> events.add("broker"));
        sequence.add("gateway", () -> events.add("gateway"));
        sequence.add("worker", () -> events.add("worker"));

        sequence.close();
        sequence.close();

        assertThat(events).containsExactly("worker", "gateway", "broker");
    }

    @Test
    void aPartThatFailsToStopDoesNotKeepTheOthersRunning() {
        ShutdownSequence sequence = new ShutdownSequence();
        sequence.add("broker", () -> events.add("broker"));
        sequence.add("gateway", () -> {
            throw new IllegalStateException("stuck");
        });
        sequence.addAlongside("worker", () -> events.add("worker"));

        sequence.close();

        assertThat(events).containsExactly("worker", "broker");
    }
}
