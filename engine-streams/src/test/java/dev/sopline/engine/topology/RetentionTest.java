package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.engine.api.query.WorkspaceCounts;
import dev.sopline.schemas.command.ExpireInstance;
import dev.sopline.schemas.definition.StepType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A finished instance is kept for the retention period and then removed with everything that belongs to it, through
 * an {@link ExpireInstance} command in the log, as timers fire.
 */
class RetentionTest {

    private static final String FINISHED = "01JR0000000000000000000001";
    private static final String RUNNING = "01JR0000000000000000000002";
    private static final Duration RETENTION = Duration.ofHours(1);
    private static final int PER_PUNCTUATION = 2;

    private final EngineHarness engine = new EngineHarness(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET),
            PER_PUNCTUATION, InstanceBudget.defaults()).withRetention(RETENTION));

    private final IndexReads reads = new IndexReads(engine);

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldKeepAFinishedInstanceWithEverythingItOwnsUntilItsRetentionHasPassed() {
        // given a cancelled webhook instance, whose callback id has an owner, and one still waiting
        engine.register("webhook.yaml");
        engine.start(FINISHED, "identity", Map.of());
        String callbackId = engine.readySteps(StepType.WEBHOOK).get(0).callbackId();
        engine.start(RUNNING, "identity", Map.of());
        engine.cancel(FINISHED, "identity");

        // when the retention has almost passed
        engine.advance(RETENTION.minusMinutes(1));

        // then nothing is removed
        assertThat(engine.instance(FINISHED)).isNotNull();
        assertThat(engine.store(EngineTopology.CALLBACKS_STORE).get(callbackId)).isNotNull();
        assertThat(listed(null)).containsExactly(RUNNING, FINISHED);
        assertThat(engine.writtenCommands()).noneMatch(ExpireInstance.class::isInstance);
    }

    @Test
    void shouldRemoveAFinishedInstanceWithEverythingItOwnsOnceItsRetentionHasPassed() {
        // given
        engine.register("webhook.yaml");
        engine.start(FINISHED, "identity", Map.of());
        String callbackId = engine.readySteps(StepType.WEBHOOK).get(0).callbackId();
        engine.start(RUNNING, "identity", Map.of());
        engine.cancel(FINISHED, "identity");

        // when
        engine.advance(RETENTION.plusSeconds(1));

        // then the instance, its callback owner, its index entries and its count are gone; the other one stays
        assertThat(engine.writtenCommands()).filteredOn(ExpireInstance.class::isInstance)
                .extracting(command -> ((ExpireInstance) command).instanceId()).containsExactly(FINISHED);
        assertThat(engine.instance(FINISHED)).isNull();
        assertThat(engine.store(EngineTopology.CALLBACKS_STORE).get(callbackId)).isNull();
        assertThat(listed(null)).containsExactly(RUNNING);
        assertThat(keys(EngineTopology.INSTANCE_INDEX_STORE)).noneMatch(key -> key.contains(FINISHED));
        assertThat(keys(EngineTopology.FINISHED_STORE)).isEmpty();
        assertThat(keys(EngineTopology.HISTORY_STORE)).as("its history goes with it").noneMatch(key -> key.contains(FINISHED))
                .anyMatch(key -> key.contains(RUNNING));
        assertThat(counts().instances()).containsEntry("cancelled", 0L).containsEntry("waiting", 1L);
        assertThat(engine.instance(RUNNING)).isNotNull();
    }

    @Test
    void shouldRemoveAtMostABoundedNumberOfInstancesPerPunctuation() {
        // given five finished instances
        engine.register("two-step.yaml");
        for (int i = 1; i <= 5; i++) {
            String id = "01JR00000000000000000001%02d".formatted(i);
            engine.start(id, "two-step", Map.of("title", "t" + i));
            engine.cancel(id, "two-step");
        }
        engine.advance(RETENTION.minusMillis(50));
        engine.writtenCommands();

        // when one punctuation runs after their retention
        engine.advance(Duration.ofMillis(100));

        // then it asks for two removals; the next punctuations ask for the rest
        assertThat(engine.writtenCommands()).filteredOn(ExpireInstance.class::isInstance).hasSize(PER_PUNCTUATION);
        engine.advance(Duration.ofMillis(100));
        engine.advance(Duration.ofMillis(100));
        assertThat(listed(null)).isEmpty();
    }

    private List<String> listed(String process) {
        return reads.instances(process, null, null, 100);
    }

    private WorkspaceCounts counts() {
        return reads.counts();
    }

    private List<String> keys(String store) {
        return reads.keys(store);
    }
}
