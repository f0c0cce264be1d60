package dev.sopline.subscriber;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.CloudEventUtils;
import io.cloudevents.jackson.PojoCloudEventDataMapper;

/**
 * One line for one event: when, which instance of which process, what changed. For example
 * {@code 2026-11-23T19:16:04.314Z  01M84XBQ783W4Z5C1MEP2AA51S  /workspaces/default/processes/expense-approval  step review: active -> completed}.
 */
final class Transition {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Transition() {}

    static String of(CloudEvent event) {
        if (event == null) {
            return "(an empty record)";
        }
        JsonNode data = CloudEventUtils.mapData(event, PojoCloudEventDataMapper.from(MAPPER, JsonNode.class)).getValue();
        String what = switch (event.getType()) {
            case "sop.instance.state_changed" -> "instance: " + change(data);
            case "sop.step.state_changed" -> "step " + data.path("step").path("id").asText() + ": " + change(data);
            default -> event.getType();
        };
        return "%s  %s  %s  %s".formatted(event.getTime(), event.getSubject(), event.getSource(), what);
    }

    private static String change(JsonNode data) {
        String from = data.path("from").isMissingNode() || data.path("from").isNull() ? "(new)" : data.path("from").asText();
        return from + " -> " + data.path("to").asText();
    }
}
