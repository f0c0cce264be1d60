package dev.sopline.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.sopline.schemas.definition.FieldType;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.OutputDeclaration;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.JudgmentDecision;
import dev.sopline.schemas.instance.StepError;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.instance.StepView;
import dev.sopline.schemas.json.Json;
import io.cloudevents.CloudEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Every event of the public topics, serialised as the engine does, validates against its published JSON Schema. */
class EventContractsTest {

    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaIdResolvers(resolvers -> resolvers.mapPrefix("https://sopline.dev/schemas/", "classpath:schemas/")));
    private static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");
    private static final String INSTANCE_ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final String CALLBACK_ID = "01JCCCCCCCCCCCCCCCCCCCCCCC";

    private static Schema schema(String file) {
        return SCHEMAS.getSchema(SchemaLocation.of("https://sopline.dev/schemas/" + file));
    }

    private static List<Error> errors(String file, JsonNode json) {
        return schema(file).validate(json);
    }

    private static JsonNode json(Object value) {
        return Json.mapper().valueToTree(value);
    }

    static StepView fullStep() {
        return new StepView("classify", "Classify the ticket", StepType.JUDGMENT, StepState.ACTIVE, 2, Assignee.HUMAN, true,
                new JudgmentDecision("agent", 0.42, "Unclear wording", "local/all-minilm-l6-v2"), CALLBACK_ID,
                Map.of("urgency", "low"), StepError.of("timeout", "took too long"), NOW, NOW.plusSeconds(5));
    }

    static StepView minimalStep() {
        return new StepView("draft", null, StepType.FORM, StepState.PENDING, 0, null, null, null, null, null, null, null, null);
    }

    static InstanceView instance(InstanceState state, List<StepView> steps) {
        return new InstanceView(INSTANCE_ID, "default", "triage", "1.0", state, Map.of("ticket", "Server down"),
                Map.of("urgency", "high"), new StepError("classify", "step_timeout", "late"), NOW, NOW.plusSeconds(9), steps);
    }

    static StepReady fullStepReady() {
        return new StepReady("default", INSTANCE_ID, "triage", "1.0", "classify", "Classify", StepType.JUDGMENT, "triage.classify", 1,
                Map.of("ticket", "Server down", "count", 3),
                List.of(new OutputDeclaration("urgency", FieldType.ENUM, List.of("low", "high"), null, "How urgent", "Urgency", false)),
                new JudgmentSettings(true, 0.8, "human", "Decide how urgent"), CALLBACK_ID, NOW.plusSeconds(3600), NOW);
    }

    @Test
    void shouldMatchSchemaWhenStepReadyHasEveryField() {
        assertThat(errors("step-ready.schema.json", json(fullStepReady()))).isEmpty();
    }

    @Test
    void shouldMatchSchemaWhenStepReadyHasOnlyRequiredFields() {
        StepReady minimal = new StepReady("default", INSTANCE_ID, "p", "1.0", "s", null, StepType.FORM, null, 1, Map.of(), List.of(),
                null, null, null, NOW);
        assertThat(errors("step-ready.schema.json", json(minimal))).isEmpty();
    }

    @Test
    void shouldFailSchemaWhenStepReadyAttemptIsText() {
        ObjectNode broken = (ObjectNode) json(fullStepReady());
        broken.put("attempt", "one");
        assertThat(errors("step-ready.schema.json", broken)).isNotEmpty();
    }

    @Test
    void shouldMatchSchemaWhenStepResultCarriesOutputsOrError() {
        StepResult outputs = new StepResult("default", INSTANCE_ID, "classify", 1, Map.of("urgency", "high"), null,
                new JudgmentDecision("agent", 0.91, "Clear outage", "gpt"), "agent-1", NOW);
        StepResult error = new StepResult("default", INSTANCE_ID, "charge", 2, null, StepError.of("card_declined", "no"), null, "w", NOW);
        assertThat(errors("step-result.schema.json", json(outputs))).isEmpty();
        assertThat(errors("step-result.schema.json", json(error))).isEmpty();
    }

    @Test
    void shouldFailSchemaWhenStepResultHasBothOutputsAndError() {
        StepResult both = new StepResult("default", INSTANCE_ID, "charge", 1, Map.of("receipt", "r"), StepError.of("x", "y"), null, "w", NOW);
        assertThat(errors("step-result.schema.json", json(both))).isNotEmpty();
    }

    @Test
    void shouldMatchSchemaWhenInstanceStateChangedIsEnveloped() {
        InstanceStateChanged changed = new InstanceStateChanged(InstanceState.RUNNING, InstanceState.COMPLETED,
                instance(InstanceState.COMPLETED, List.of(fullStep(), minimalStep())));
        JsonNode envelope = Json.mapper().readTree(StateChangeEvents.instanceChanged(changed, NOW));
        assertThat(errors("instance-state-changed.schema.json", envelope)).isEmpty();

        InstanceStateChanged created = new InstanceStateChanged(null, InstanceState.RUNNING, instance(InstanceState.RUNNING, List.of(minimalStep())));
        assertThat(errors("instance-state-changed.schema.json", Json.mapper().readTree(StateChangeEvents.instanceChanged(created, NOW)))).isEmpty();
    }

    @Test
    void shouldMatchSchemaWhenStepStateChangedIsEnveloped() {
        StepStateChanged changed = new StepStateChanged("default", INSTANCE_ID, "triage", "1.0", StepState.PENDING, StepState.ACTIVE, fullStep());
        JsonNode envelope = Json.mapper().readTree(StateChangeEvents.stepChanged(changed, NOW));
        assertThat(errors("step-state-changed.schema.json", envelope)).isEmpty();
    }

    @Test
    void shouldFailSchemaWhenStateIsUnknownOrSubjectMissing() {
        InstanceStateChanged changed = new InstanceStateChanged(InstanceState.RUNNING, InstanceState.COMPLETED,
                instance(InstanceState.COMPLETED, List.of(minimalStep())));
        ObjectNode exploded = (ObjectNode) Json.mapper().readTree(StateChangeEvents.instanceChanged(changed, NOW));
        ((ObjectNode) exploded.get("data")).put("to", "exploded");
        ObjectNode noSubject = (ObjectNode) Json.mapper().readTree(StateChangeEvents.instanceChanged(changed, NOW));
        noSubject.remove("subject");

        assertThat(errors("instance-state-changed.schema.json", exploded)).isNotEmpty();
        assertThat(errors("instance-state-changed.schema.json", noSubject)).isNotEmpty();
    }

    @Test
    void shouldRoundTripDataAndEnvelopeAttributesWhenRead() {
        StepStateChanged changed = new StepStateChanged("acme", INSTANCE_ID, "triage", "1.0", StepState.ACTIVE, StepState.COMPLETED, fullStep());

        byte[] bytes = StateChangeEvents.stepChanged(changed, NOW);
        CloudEvent event = StateChangeEvents.read(bytes);

        assertThat(event.getSpecVersion().toString()).isEqualTo("1.0");
        assertThat(event.getType()).isEqualTo("sop.step.state_changed");
        assertThat(event.getSource().toString()).isEqualTo("/workspaces/acme/processes/triage");
        assertThat(event.getSubject()).isEqualTo(INSTANCE_ID);
        assertThat(event.getTime().toInstant()).isEqualTo(NOW);
        assertThat(StateChangeEvents.data(event, StepStateChanged.class)).isEqualTo(changed);
        JsonNode raw = Json.mapper().readTree(bytes);
        assertThat(raw.get("data").isObject()).as("data is embedded JSON, not base64").isTrue();
        assertThat(raw.get("data").get("step").get("started_at").asString()).isEqualTo("2026-03-02T08:00:00Z");
    }
}
