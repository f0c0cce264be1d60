package dev.sopline.engine.topology;

import static dev.sopline.engine.topology.EngineHarness.START;
import static dev.sopline.engine.topology.EngineHarness.WORKSPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sopline.engine.api.query.PendingFilter;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.ProcessVersionStore;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.state.StepRun;
import dev.sopline.engine.state.Timer;
import dev.sopline.schemas.command.FireTimer;
import dev.sopline.schemas.command.InstanceKeys;
import dev.sopline.schemas.definition.ProcessDefinition;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Records written by the previous engines, which kept no indexes, counters or window, or a list index of format 1:
 * their instances are indexed once, with the first record the engine reads, and their timers still read and fire.
 */
class PreviousIndexesTest {

    private static final String OLD = "01JP0000000000000000000001";
    private static final String NEW = "01JP0000000000000000000002";
    private static final String LATER = "01JP0000000000000000000003";

    private final EngineHarness engine = new EngineHarness();
    private final IndexReads reads = new IndexReads(engine);

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldIndexInstancesOfThePreviousEngineOnceWithEveryActiveStep() {
        // given: a process version and an instance with two active steps, stored by an engine that kept no indexes
        ProcessDefinition definition = publishTwoStep();
        KeyValueStore<String, Instance> instances = reads.store(EngineTopology.INSTANCES_STORE);
        instances.put(InstanceKeys.key(WORKSPACE, OLD), withBothStepsActive(OLD, definition));

        // when the engine reads its next record
        engine.start(NEW, "two-step", Map.of("title", "new"));

        // then the stored instance is listed, counted, and each of its active steps is pending
        assertThat(reads.instances(null, null, null, 10)).containsExactly(NEW, OLD);
        assertThat(reads.pending(PendingFilter.ANY, null, 10)).extracting(PendingStep::instanceId, PendingStep::stepId)
                .containsExactlyInAnyOrder(tuple(OLD, "draft"), tuple(OLD, "review"), tuple(NEW, "draft"));
        assertThat(reads.counts().instances()).containsEntry("waiting", 2L);
        assertThat(reads.counts().stepsPending()).containsEntry("form", 3L);
    }

    @Test
    void shouldNotLookAtStoredInstancesAgainOnceIndexed() {
        // given an engine that has indexed its stores
        ProcessDefinition definition = publishTwoStep();
        engine.start(NEW, "two-step", Map.of("title", "new"));

        // when a record appears in the instances store without going through a decision
        KeyValueStore<String, Instance> instances = reads.store(EngineTopology.INSTANCES_STORE);
        instances.put(InstanceKeys.key(WORKSPACE, LATER), withBothStepsActive(LATER, definition));
        engine.advance(Duration.ofMillis(100));
        engine.cancel(NEW, "two-step");

        // then no scan picked it up: the lists come from the index alone
        assertThat(reads.instances(null, null, null, 10)).containsExactly(NEW);
        assertThat(reads.pending(PendingFilter.ANY, null, 10)).isEmpty();
    }

    @Test
    void shouldReadAndFireATimerWrittenBeforeTimersHadAFormat() {
        // given a timer as the previous engine stored it
        ObjectNode previous = Json.mapper().valueToTree(new Timer(START.plusSeconds(1), Timer.Kind.STEP_TIMEOUT, WORKSPACE, NEW, "draft", 1));
        previous.remove("format");
        Timer read = new RecordSerde<>(Timer.class).deserializer().deserialize("timers", Json.mapper().writeValueAsBytes(previous));
        publishTwoStep();
        engine.start(NEW, "two-step", Map.of("title", "new"));
        KeyValueStore<String, Timer> timers = reads.store(EngineTopology.TIMERS_STORE);
        timers.put(read.storeKey(), read);
        engine.writtenCommands();

        // when
        engine.advance(Duration.ofSeconds(2));

        // then
        assertThat(read.format()).isEqualTo(1);
        assertThat(engine.writtenCommands()).filteredOn(FireTimer.class::isInstance)
                .extracting(command -> ((FireTimer) command).target(), command -> ((FireTimer) command).kind())
                .containsExactly(tuple(NEW, FireTimer.Kind.STEP_TIMEOUT));
    }

    @Test
    void shouldDropTheListKeysOfThePreviousFormatOnceAndListAsBefore() {
        // given: an instance listed by an index of format 1, which also kept a key for every instance and one by process
        ProcessDefinition definition = publishTwoStep();
        KeyValueStore<String, Instance> instances = reads.store(EngineTopology.INSTANCES_STORE);
        instances.put(InstanceKeys.key(WORKSPACE, OLD), withBothStepsActive(OLD, definition));
        KeyValueStore<String, String> index = reads.store(EngineTopology.INSTANCE_INDEX_STORE);
        for (String key : List.of("|a|", "|s|waiting|", "|p|two-step|", "|ps|two-step|waiting|")) {
            index.put(WORKSPACE + key + OLD, OLD);
        }
        index.put("!indexes-format", "1");

        // when the engine reads its next record
        engine.start(NEW, "two-step", Map.of("title", "new"));

        // then those keys are gone, and every list still holds each instance once, newest first
        assertThat(reads.keys(EngineTopology.INSTANCE_INDEX_STORE)).noneMatch(key -> key.contains("|a|") || key.contains("|p|"));
        assertThat(index.get("!indexes-format")).isEqualTo("2");
        assertThat(reads.instances(null, null, null, 10)).containsExactly(NEW, OLD);
        assertThat(reads.instances("two-step", null, null, 10)).containsExactly(NEW, OLD);
        assertThat(reads.instances("two-step", null, NEW, 10)).containsExactly(OLD);
        assertThat(reads.instances(null, InstanceState.WAITING, null, 1)).containsExactly(NEW);
    }

    private ProcessDefinition publishTwoStep() {
        byte[] yaml = EngineHarness.resource("two-step.yaml");
        ProcessDefinition definition = ((ProcessFiles.Loaded) ProcessFiles.load(yaml)).file().process();
        ProcessVersions published = ProcessVersions.single(WORKSPACE, "two-step", "1.0",
                new ProcessVersions.PublishedVersion(definition, new String(yaml, StandardCharsets.UTF_8), START));
        engine.publishDefinitionRecord(ProcessVersionStore.versionKey(WORKSPACE, "two-step", "1.0"), Json.mapper().writeValueAsBytes(published));
        return definition;
    }

    private static Instance withBothStepsActive(String id, ProcessDefinition definition) {
        List<StepRun> steps = definition.steps().stream()
                .map(step -> StepRun.pending(step.id(), step.name(), StepType.FORM)
                        .activate(Assignee.HUMAN, 1, Map.of("title", "old"), null, START, null))
                .toList();
        return new Instance(id, WORKSPACE, "two-step", "1.0", InstanceState.WAITING, Map.of("title", "old"), null, null, null, START,
                null, steps, null);
    }
}
