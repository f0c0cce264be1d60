package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class WaitingStepsTest {

    private static final TopicPartition P0 = new TopicPartition("steps", 0);
    private static final TopicPartition P1 = new TopicPartition("steps", 1);

    private long offset;

    @Test
    void shouldTakeWorkspacesInTurnAndEachWorkspacesStepsInOrder() {
        WaitingSteps waiting = new WaitingSteps(true);
        add(waiting, P0, "a", "a1", "a2", "a3");
        add(waiting, P1, "b", "b1");
        add(waiting, P1, "c", "c1");
        add(waiting, P1, "b", "b2");

        assertThat(drain(waiting)).containsExactly("a1", "b1", "c1", "a2", "b2", "a3");
        assertThat(waiting.isEmpty()).isTrue();
        assertThat(waiting.bytes()).isZero();
    }

    @Test
    void shouldTakeStepsInTheOrderTheyCameWhenNotFair() {
        WaitingSteps waiting = new WaitingSteps(false);
        add(waiting, P0, "a", "a1", "a2");
        add(waiting, P1, "b", "b1");

        assertThat(drain(waiting)).containsExactly("a1", "a2", "b1");
    }

    @Test
    void shouldForgetTheStepsOfPartitionsTakenAwayWithTheirBytes() {
        WaitingSteps waiting = new WaitingSteps(true);
        add(waiting, P0, "a", "a1");
        add(waiting, P1, "b", "b1");
        add(waiting, P0, "b", "b2");
        add(waiting, P1, "a", "a2");

        waiting.removeIf(step -> step.partition().equals(P0));

        assertThat(waiting.size()).isEqualTo(2);
        assertThat(waiting.bytes()).isEqualTo(200);
        assertThat(waiting.peek().ready().stepId()).as("a's turn is still first").isEqualTo("a2");
        assertThat(drain(waiting)).containsExactly("a2", "b1");
    }

    @Test
    void shouldCountTheBytesOfWhatWaits() {
        WaitingSteps waiting = new WaitingSteps(true);
        add(waiting, P0, "a", "a1");
        add(waiting, P0, "b", "b1");

        assertThat(waiting.bytes()).isEqualTo(200);
        waiting.poll();
        assertThat(waiting.bytes()).isEqualTo(100);
        waiting.clear();
        assertThat(waiting.size()).isZero();
        assertThat(waiting.peek()).isNull();
        assertThat(waiting.poll()).isNull();
    }

    /** Steps of one workspace from one partition, in this order, 100 bytes each. */
    private void add(WaitingSteps waiting, TopicPartition partition, String workspace, String... stepIds) {
        for (String stepId : stepIds) {
            StepReady ready = new StepReady(workspace, "01JAAAAAAAAAAAAAAAAAAAAAAA", "p", "1.0", stepId, stepId, StepType.AUTOMATED, "t.run", 1,
                    Map.of(), List.of(), null, null, null, Instant.now());
            waiting.add(new RunningStep(partition, offset++, ready), 100);
        }
    }

    private static List<String> drain(WaitingSteps waiting) {
        List<String> taken = new ArrayList<>();
        while (!waiting.isEmpty()) {
            assertThat(waiting.peek()).isNotNull();
            String peeked = waiting.peek().ready().stepId();
            String polled = waiting.poll().ready().stepId();
            assertThat(polled).isEqualTo(peeked);
            taken.add(polled);
        }
        return taken;
    }
}
