package dev.sopline.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.json.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The {@code sop.instance.retried} event, enveloped as the engine publishes it, matches its published JSON Schema. */
class InstanceRetriedContractTest {

    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaIdResolvers(resolvers -> resolvers.mapPrefix("https://sopline.dev/schemas/", "classpath:schemas/")));
    private static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");

    private static JsonNode retried() {
        InstanceRetried data = new InstanceRetried("classify", 3,
                EventContractsTest.instance(InstanceState.RUNNING, List.of(EventContractsTest.fullStep())));
        return Json.mapper().readTree(StateChangeEvents.instanceRetried(data, NOW));
    }

    private static boolean valid(JsonNode json) {
        return SCHEMAS.getSchema(SchemaLocation.of("https://sopline.dev/schemas/instance-retried.schema.json")).validate(json).isEmpty();
    }

    @Test
    void shouldMatchSchemaWhenEnveloped() {
        JsonNode envelope = retried();

        assertThat(envelope.path("type").asString()).isEqualTo(StateChangeEvents.INSTANCE_RETRIED);
        assertThat(envelope.path("data").path("step_id").asString()).isEqualTo("classify");
        assertThat(valid(envelope)).isTrue();
    }

    @Test
    void shouldNotMatchSchemaWithoutTheRetriedStep() {
        ObjectNode envelope = (ObjectNode) retried();
        ((ObjectNode) envelope.get("data")).remove("step_id");

        assertThat(valid(envelope)).isFalse();
    }
}
