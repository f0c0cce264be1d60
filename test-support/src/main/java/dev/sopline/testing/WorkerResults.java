package dev.sopline.testing;

import dev.sopline.schemas.event.StepResult;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.topic.Topics;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.databind.JsonNode;

/**
 * Workers' results as a test reads them back: SDK workers write theirs to the engine's command topic as commands,
 * other workers to {@code sop.step-results}; both topics are read, and the engine's own commands are passed over.
 */
public final class WorkerResults {

    public static final String COMMANDS = Topics.COMMANDS;
    /** Where workers' results can be. */
    public static final List<String> TOPICS = List.of(Topics.STEP_RESULTS, COMMANDS);

    private WorkerResults() {}

    /** The worker's result the record holds; empty for any other command (the engine's are Smile, not JSON). */
    public static Optional<StepResult> of(ConsumerRecord<?, byte[]> record) {
        byte[] value = record.value();
        if (value == null) {
            return Optional.empty();
        }
        if (!record.topic().equals(COMMANDS)) {
            return Optional.of(Json.mapper().readValue(value, StepResult.class));
        }
        if (value.length == 0 || value[0] != '{') {
            return Optional.empty();
        }
        JsonNode command = Json.mapper().readTree(value);
        if (!"report_step_result".equals(command.path("command").asString(null))) {
            return Optional.empty();
        }
        return Optional.of(Json.mapper().treeToValue(command.get("result"), StepResult.class));
    }
}
