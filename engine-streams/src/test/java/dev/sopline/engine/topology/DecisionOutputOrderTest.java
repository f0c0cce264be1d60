package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.engine.api.DecisionListener;
import dev.sopline.engine.api.serde.RecordSerde;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.processor.CommandProcessor;
import dev.sopline.engine.state.Instance;
import dev.sopline.engine.state.InstanceStore;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.command.Command;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.RegisterProcess;
import dev.sopline.schemas.command.StartInstance;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.definition.ProcessFiles;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.InstanceState;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedForward;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a decision hands on to Kafka, in order, and to the gateway in its JVM. A worker waits for its step, so the step
 * is handed on first, before the decision writes its stores. A client waits for the reply, so it is handed on as soon
 * as the state it announces is stored, before the events' envelopes are built.
 */
class DecisionOutputOrderTest {

    private static final long NOW = EngineHarness.START.toEpochMilli();
    private static final String INSTANCE = "01JAAAAAAAAAAAAAAAAAAAAAAA";

    /** Each record handed on, with the step the stored instance had active at that moment. */
    private final List<String> forwardsSeen = new ArrayList<>();
    private final MockProcessorContext<String, Object> context;
    private final List<StateStore> stores = new ArrayList<>();
    private final List<String> heard = new ArrayList<>();
    /** How many events had been handed on when the listener was told of each change of the instance. */
    private final List<Integer> eventsWhenToldOfChanges = new ArrayList<>();
    /** Whether the listener throws after hearing, as a broken one in the engine's JVM would. */
    private boolean listenerFails;
    private final CommandProcessor processor = new CommandProcessor(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET))
            .withListener(new DecisionListener() {
                @Override
                public void replied(CommandReply reply) {
                    heard.add("reply " + reply.commandId() + " " + reply.status() + ", instance stored: " + isStored(INSTANCE));
                    failIfAsked();
                }

                @Override
                public void instanceChanged(String instanceId) {
                    heard.add("changed " + instanceId + ", stored: " + isStored(instanceId));
                    eventsWhenToldOfChanges.add(context.forwarded(EngineTopology.EVENTS_PUBLISHER).size());
                    failIfAsked();
                }

                private void failIfAsked() {
                    if (listenerFails) {
                        throw new IllegalStateException("the listener is broken");
                    }
                }
            }));
    private long offset;

    /** @param stateDir the stores' directory, deleted after each test, once {@link #closeStores()} has closed them */
    DecisionOutputOrderTest(@TempDir File stateDir) {
        context = new MockProcessorContext<>(properties(), new TaskId(0, 0), stateDir) {
            @Override
            public <K extends String, V> void forward(Record<K, V> record, String childName) {
                forwardsSeen.add(childName + ", active step: " + storedActiveStep());
                super.forward(record, childName);
            }
        };
    }

    @AfterEach
    void closeStores() {
        stores.forEach(StateStore::close);
    }

    @Test
    void shouldHandTheStepToKafkaFirstThenTheReplyThenTheEventsOfAStart() {
        // given: a published one-step process
        initWithPublished("automated.yaml");

        // when
        start();

        // then: the step's handoff, the reply, then the instance's and the step's changes
        List<String> children = context.forwarded().stream().map(forward -> forward.childName().orElse("")).toList();
        assertThat(children.subList(0, 2)).containsExactly(EngineTopology.stepReadySink(StepType.AUTOMATED), EngineTopology.REPLIES_SINK);
        assertThat(children.subList(2, children.size())).containsOnly(EngineTopology.EVENTS_PUBLISHER).isNotEmpty();
        assertThat(((CommandReply) context.forwarded().get(1).record().value()).status()).isEqualTo(201);
    }

    @Test
    void shouldHandTheNextStepToKafkaBeforeTheDecisionWritesItsStores() {
        // given: a started two-step process, its first step submitted next
        initWithPublished("two-step.yaml");
        process(new StartInstance("start-1", EngineHarness.WORKSPACE, INSTANCE, "two-step", Map.of("title", "Q3"), null,
                StartInstance.API, null));
        String stepSink = EngineTopology.stepReadySink(StepType.FORM);
        forwardsSeen.clear();

        // when
        process(new SubmitStep("submit-1", EngineHarness.WORKSPACE, INSTANCE, "two-step", "draft", Map.of("text", "t"), null));

        // then: the next step was handed on while the stores still held the state before the submit. Stores without a
        // cache send their changelog records as they are written, and with one produce request in flight the first
        // record of a decision leaves alone: that one is the step a worker (or person) waits for.
        assertThat(forwardsSeen).first().isEqualTo(stepSink + ", active step: draft");
        assertThat(forwardsSeen).contains(EngineTopology.REPLIES_SINK + ", active step: review");
        assertThat(storedActiveStep()).isEqualTo("review");
    }

    @Test
    void shouldTellTheGatewayInItsJvmOfRepliesAndOfInstanceChangesOnceTheyAreStored() {
        // given: a published process of two form steps
        initWithPublished("two-step.yaml");
        heard.clear();

        // when: started, and both steps submitted (the first moves only the steps, the second ends the instance)
        process(new StartInstance("start-1", EngineHarness.WORKSPACE, INSTANCE, "two-step", Map.of("title", "Q3"), null,
                StartInstance.API, null));
        process(new SubmitStep("submit-1", EngineHarness.WORKSPACE, INSTANCE, "two-step", "draft", Map.of("text", "t"), null));
        process(new SubmitStep("submit-2", EngineHarness.WORKSPACE, INSTANCE, "two-step", "review", Map.of("verdict", "accept"), null));

        // then: each reply, and the instance's own two changes (running, completed), each once its state was stored
        assertThat(heard).containsExactly(
                "reply start-1 201, instance stored: true",
                "changed " + INSTANCE + ", stored: true",
                "reply submit-1 200, instance stored: true",
                "reply submit-2 200, instance stored: true",
                "changed " + INSTANCE + ", stored: true");
        assertThat(instances().find(EngineHarness.WORKSPACE, INSTANCE).orElseThrow().state())
                .isEqualTo(InstanceState.COMPLETED);
    }

    @Test
    void shouldTellOfAnInstanceChangeBeforeTheEventsAreBuilt() {
        // given
        initWithPublished("automated.yaml");

        // when
        start();

        // then: a waiting read learns of the change as soon as it is stored, not after the events' envelopes
        assertThat(eventsWhenToldOfChanges).containsExactly(0);
        assertThat(context.forwarded(EngineTopology.EVENTS_PUBLISHER)).isNotEmpty();
    }

    @Test
    void shouldDecideAndHandEverythingToKafkaWhenTheListenerInItsJvmThrows() {
        // given
        initWithPublished("automated.yaml");
        heard.clear();
        listenerFails = true;

        // when
        start();

        // then: the listener was told of both and threw both times; the decision is whole all the same
        assertThat(heard).containsExactly("reply start-1 201, instance stored: true", "changed " + INSTANCE + ", stored: true");
        List<String> children = context.forwarded().stream().map(forward -> forward.childName().orElse("")).toList();
        assertThat(children).contains(EngineTopology.REPLIES_SINK, EngineTopology.EVENTS_PUBLISHER,
                EngineTopology.stepReadySink(StepType.AUTOMATED));
        assertThat(instances().find(EngineHarness.WORKSPACE, INSTANCE)).isPresent();
    }

    private void initWithPublished(String resource) {
        for (StoreBuilder<?> builder : EngineTopology.commandProcessorStores()) {
            add(builder.withLoggingDisabled());
        }
        add(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(EngineTopology.DEFINITIONS_STORE), Serdes.String(),
                new RecordSerde<>(ProcessVersions.class)).withLoggingDisabled());
        processor.init(context);
        register(resource);
    }

    private void start() {
        process(new StartInstance("start-1", EngineHarness.WORKSPACE, INSTANCE, "billing",
                Map.of("amount", 12), null, StartInstance.API, null));
    }

    private String storedActiveStep() {
        return instances().find(EngineHarness.WORKSPACE, INSTANCE).flatMap(Instance::activeStep).map(StepRun::id).orElse("none");
    }

    private boolean isStored(String instanceId) {
        return instances().find(EngineHarness.WORKSPACE, instanceId).isPresent();
    }

    private InstanceStore instances() {
        return new InstanceStore(context.getStateStore(EngineTopology.INSTANCES_STORE));
    }

    private void register(String resource) {
        byte[] yaml = EngineHarness.resource(resource);
        ProcessFiles.Loaded loaded = (ProcessFiles.Loaded) ProcessFiles.load(yaml);
        process(new RegisterProcess("register-1", EngineHarness.WORKSPACE, loaded.file(), new String(yaml, StandardCharsets.UTF_8)));
        // The engine's definitions reach its global store through their topic; here they are copied over by hand.
        KeyValueStore<String, Object> definitions = context.getStateStore(EngineTopology.DEFINITIONS_STORE);
        for (CapturedForward<? extends String, ?> forward : context.forwarded()) {
            if (forward.childName().filter(EngineTopology.DEFINITIONS_SINK::equals).isPresent()) {
                definitions.put(forward.record().key(), forward.record().value());
            }
        }
        context.resetForwards();
    }

    private void process(Command command) {
        context.setRecordMetadata(EngineTopics.COMMANDS, 0, offset++);
        processor.process(new Record<>(command.key(), command, NOW));
    }

    private void add(StoreBuilder<?> builder) {
        StateStore store = builder.withCachingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        stores.add(store);
    }

    private static Properties properties() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "decision-output-order");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return props;
    }
}
