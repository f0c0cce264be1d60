package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sopline.engine.api.query.PendingFilter;
import dev.sopline.engine.api.query.WorkspaceCounts;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.PendingStep;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Instance lists, the pending feed and the workspace counters are read from indexes the engine keeps as instances
 * change, page by page, never by reading every instance.
 */
class IndexedQueriesTest {

    private static final String FIRST = "01JQ0000000000000000000001";
    private static final String SECOND = "01JQ0000000000000000000002";
    private static final String THIRD = "01JQ0000000000000000000003";

    private final EngineHarness engine = new EngineHarness();
    private final IndexReads reads = new IndexReads(engine);

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldPageInstanceListsNewestFirstWithFilters() {
        // given three instances, the second cancelled
        engine.register("two-step.yaml");
        engine.start(FIRST, "two-step", Map.of("title", "a"));
        engine.start(SECOND, "two-step", Map.of("title", "b"));
        engine.start(THIRD, "two-step", Map.of("title", "c"));
        engine.cancel(SECOND, "two-step");

        // when / then
        assertThat(reads.instances(null, null, null, 2)).containsExactly(THIRD, SECOND);
        assertThat(reads.instances(null, null, SECOND, 2)).containsExactly(FIRST);
        assertThat(reads.instances(null, InstanceState.CANCELLED, null, 10)).containsExactly(SECOND);
        assertThat(reads.instances(null, InstanceState.WAITING, null, 10)).containsExactly(THIRD, FIRST);
        assertThat(reads.instances("two-step", InstanceState.WAITING, THIRD, 10)).containsExactly(FIRST);
        assertThat(reads.instances("two-step", null, null, 10)).containsExactly(THIRD, SECOND, FIRST);
        assertThat(reads.instances("other", null, null, 10)).isEmpty();
    }

    @Test
    void shouldListPendingStepsOldestFirstAndPageWithTheCursor() {
        // given: the first instance's second step became ready after the second instance's first step
        engine.register("two-step.yaml");
        engine.start(FIRST, "two-step", Map.of("title", "a"));
        engine.advance(Duration.ofSeconds(1));
        engine.start(SECOND, "two-step", Map.of("title", "b"));
        engine.advance(Duration.ofSeconds(1));
        engine.submit(FIRST, "two-step", "draft", Map.of("text", "done"));

        // when
        List<PendingStep> firstPage = reads.pending(PendingFilter.ANY, null, 1);
        List<PendingStep> secondPage = reads.pending(PendingFilter.ANY, PendingStepStore.positionOf(firstPage.get(0)), 1);

        // then
        assertThat(reads.pending(PendingFilter.ANY, null, 10)).extracting(PendingStep::instanceId, PendingStep::stepId)
                .containsExactly(tuple(SECOND, "draft"), tuple(FIRST, "review"));
        assertThat(firstPage).extracting(PendingStep::instanceId).containsExactly(SECOND);
        assertThat(secondPage).extracting(PendingStep::instanceId).containsExactly(FIRST);
        assertThat(secondPage.get(0).inputs()).isEqualTo(Map.of("text", "done"));
        assertThat(reads.pending(new PendingFilter(StepType.AUTOMATED, null, null, null), null, 10)).isEmpty();
    }

    @Test
    void shouldCountInstancesAndPendingStepsAsTheyStartCompleteAndCancel() {
        // given
        engine.register("two-step.yaml");
        engine.register("webhook.yaml");
        engine.start(FIRST, "two-step", Map.of("title", "a"));
        engine.start(SECOND, "two-step", Map.of("title", "b"));
        engine.start(THIRD, "identity", Map.of());

        // when the first completes and the second is cancelled
        engine.submit(FIRST, "two-step", "draft", Map.of("text", "t"));
        engine.submit(FIRST, "two-step", "review", Map.of("verdict", "accept"));
        engine.cancel(SECOND, "two-step");

        // then the counters say what a scan of every instance would
        WorkspaceCounts counts = reads.counts();
        assertThat(counts.instances()).containsExactlyEntriesOf(scannedStates());
        assertThat(counts.instances()).containsEntry("completed", 1L).containsEntry("cancelled", 1L).containsEntry("waiting", 1L);
        assertThat(counts.stepsPending()).containsEntry("form", 0L).containsEntry("webhook", 1L);
        assertThat(counts.escalations()).isZero();
    }

    @Test
    void shouldCountEscalationsWaitingForAPerson() {
        // given
        engine.register("judgment.yaml");
        engine.start(FIRST, "triage", Map.of("ticket", "Printer is slow"));

        // when the agent is unsure
        engine.agentResult(FIRST, "classify", 1, Map.of("urgency", "low"), 0.2);

        // then
        assertThat(reads.counts().escalations()).isEqualTo(1);
        assertThat(reads.pending(new PendingFilter(null, null, null, Assignee.HUMAN), null, 10))
                .extracting(PendingStep::stepId).containsExactly("classify");
    }

    private Map<String, Long> scannedStates() {
        Map<String, Long> states = new LinkedHashMap<>();
        for (InstanceState state : List.of(InstanceState.RUNNING, InstanceState.WAITING, InstanceState.COMPLETED, InstanceState.FAILED,
                InstanceState.CANCELLED)) {
            states.put(state.wireName(), 0L);
        }
        KeyValueStore<String, Instance> instances = reads.store(EngineTopology.INSTANCES_STORE);
        try (KeyValueIterator<String, Instance> all = instances.all()) {
            all.forEachRemaining(entry -> states.merge(entry.value.state().wireName(), 1L, Long::sum));
        }
        return states;
    }
}
